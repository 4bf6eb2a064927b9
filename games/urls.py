"""Lobby, table, match, replay and record URLs (the WebSocket routes are in games/routing.py)."""
from django.urls import path

from games import training_views, views
from games.arena import views as arena_views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("tables/new/", views.create_table, name="table_create"),
    path("play/<str:ruleset>/", views.play_now, name="play_now"),
    path("guest/play/<str:ruleset>/", views.guest_play, {"kind": "play"}, name="guest_play_now"),
    path("guest/solo/<str:ruleset>/", views.guest_play, {"kind": "solo"}, name="guest_solo"),
    path("table/<int:table_id>/", views.table_page, name="table"),
    path("table/<int:table_id>/join/", views.table_join, name="table_join"),
    path("table/<int:table_id>/leave/", views.table_leave, name="table_leave"),
    path("table/<int:table_id>/start/", views.table_start, name="table_start"),
    path("table/<int:table_id>/remove/<int:seat_index>/", views.table_remove, name="table_remove"),
    path("table/<int:table_id>/leave-match/", views.table_leave_match, name="table_leave_match"),
    path("invite/", views.invite_code_form, name="invite_code"),
    path("invite/<str:code>/", views.table_invite, name="table_invite"),
    path("table/<int:table_id>/rematch/", views.table_rematch, name="table_rematch"),
    path("table/<int:table_id>/rematch/answer/", views.table_rematch_answer, name="table_rematch_answer"),
    path("table/<int:table_id>/match/", views.match_page, name="match"),
    path("table/<int:table_id>/record/", views.match_record, name="match_record"),
    path("table/<int:table_id>/replay/", views.replay_page, name="replay"),
    path("table/<int:table_id>/replay/frames/", views.replay_frames, name="replay_frames"),
    path("replay/", views.replay_file, name="replay_file"),
    path("training/", training_views.training_page, name="training"),
    path("fairdeal.py", views.fairdeal_checker, name="fairdeal_checker"),
    path("arenas/", arena_views.arena_list, name="arenas"),
    path("arena/<int:arena_id>/", arena_views.arena_page, name="arena"),
    path("arena/<int:arena_id>/standings/", arena_views.arena_standings, name="arena_standings"),
    path("arena/<int:arena_id>/<str:action>/", arena_views.arena_action, name="arena_action"),
]
