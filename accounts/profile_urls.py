"""Profile and settings URLs, mounted at the site root."""
from django.urls import path

from accounts import data_views, face_views, profile_views

urlpatterns = [
    path("players/me/", profile_views.my_profile, name="my_profile"),
    path("players/<str:username>/", profile_views.player_profile, name="player_profile"),
    path("settings/", profile_views.player_settings, name="player_settings"),
    path("settings/picture/", face_views.upload_picture, name="upload_picture"),
    path("faces/computer/", face_views.computer_face, name="computer_face"),
    path("faces/<int:user_id>/", face_views.face, name="face"),
    path("settings/data/", data_views.your_data, name="your_data"),
    path("settings/data/download/", data_views.data_download, name="data_download"),
    path("settings/data/delete/", data_views.delete_account, name="delete_account"),
]
