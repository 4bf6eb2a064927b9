"""WebSocket route of the social app: `/ws/me/`, one per open page of a signed-in player."""
from django.urls import path

from social.page_socket import PageConsumer

websocket_urlpatterns = [path("ws/me/", PageConsumer.as_asgi())]
