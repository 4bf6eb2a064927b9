"""Lobby and table page URLs (the WebSocket routes are in games/routing.py)."""
from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.create_table, name="table_create"),
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("table/<int:table_id>/join/", views.table_join, name="table_join"),
    path("table/<int:table_id>/leave/", views.table_leave, name="table_leave"),
    path("table/<int:table_id>/start/", views.table_start, name="table_start"),
    path("table/<int:table_id>/match/", views.match_page, name="match"),
]
