"""Leaderboard URLs, mounted at /rankings/."""
from django.urls import path

from leaderboards import views

urlpatterns = [
    path("", views.index, name="rankings"),
    path("<str:ruleset>/", views.leaderboard, name="leaderboard"),
    path("<str:ruleset>/solo/", views.solo_records, name="solo_records"),
]
