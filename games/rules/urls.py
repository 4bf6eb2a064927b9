"""Rules page URLs: ``rules_index`` and ``rules`` (with the ruleset id, e.g.
``{% url 'rules' 'okey51' %}``), so any page can link to a game's rules."""
from django.urls import path

from . import views

urlpatterns = [
    path("", views.index, name="rules_index"),
    path("<slug:ruleset>/", views.ruleset_page, name="rules"),
]
