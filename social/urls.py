"""Friends, challenges and notifications URLs, mounted at the site root."""
from django.urls import path

from social import views

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("notifications/", views.notification_list, name="notifications"),
    path("notifications/turn/<int:table_id>/", views.your_turn, name="your_turn"),
    path("challenges/<int:challenge_id>/<str:answer>/", views.challenge_answer, name="challenge_answer"),
    path("players/<str:username>/challenge/", views.challenge, name="challenge"),
    path("players/<str:username>/<str:action>/", views.relation_action, name="relation_action"),
]
