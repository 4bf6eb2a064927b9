"""Profile and settings URLs, mounted at the site root."""
from django.urls import path

from accounts import profile_views

urlpatterns = [
    path("players/me/", profile_views.my_profile, name="my_profile"),
    path("players/<str:username>/", profile_views.player_profile, name="player_profile"),
    path("settings/", profile_views.player_settings, name="player_settings"),
]
