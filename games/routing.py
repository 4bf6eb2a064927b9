"""WebSocket routes (docs/protocol.md §1, §13): one socket per table page, one for the lobby."""
from django.urls import path

from games import consumers, lobby_socket
from games.arena.socket import ArenaConsumer

websocket_urlpatterns = [
    path("ws/table/<int:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/", lobby_socket.LobbyConsumer.as_asgi()),
    path("ws/arena/<int:arena_id>/", ArenaConsumer.as_asgi()),
]
