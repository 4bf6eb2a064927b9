"""`/ws/lobby/`: the lobby's live list of tables (docs/protocol.md §13), precomputed once per change
and language and forwarded to every lobby socket, in its language, by the process's lobby
relay (`games.lobby_relay`)."""
import time
from collections import Counter

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation

from games import lobby_relay
from games.direct_dispatch import DirectDispatch
from games.errors import error_message
from games.frames import dumps
from games.heartbeat import HeartbeatMixin
from games.play.lobby import lobby_frame
from games.play.presence import CAP_CLOSE_CODE
from games.socket_scope import client_address, scope_language


class LobbyConsumer(DirectDispatch, HeartbeatMixin, AsyncWebsocketConsumer):
    """`/ws/lobby/`: the list of open online tables, re-sent on every change.

    Server frame: {"type": "tables", "tables": [...games.snapshot.open_tables()]}, built once
    per change and site language by the writer and written as it is to every lobby socket
    of the process by `games.lobby_relay` (the socket itself joins no group); the
    computers' names are in the socket's language (`scope_language`). A client may send
    {"type": "sync"} to get it again, and `ping` (answered `pong`, `HeartbeatMixin`).
    """

    # No channel of its own: the relay writes to the socket directly, so a channel (a Redis
    # subscription and a receive task per socket in pub/sub mode) would only cost. Channels
    # makes none for an alias with no layer configured.
    channel_layer_alias = "lobby-sockets-have-no-channel"
    relay_pending = None  # frames held by the relay while connecting (list), else None
    lobby_language = None  # the socket's language (LANGUAGES code), set at connect; read by the relay
    close_when_idle = False  # a lobby socket holds no seat: silence costs nothing but its broadcasts
    # Live lobby sockets of this process per client address. Counted in memory, not in the
    # database like the table sockets: a lobby socket is anonymous and holds nothing, and a
    # count that dies with its process cannot leak. With N daphne processes an address gets
    # at most N x OKEY_WS_LOBBY_MAX_PER_IP.
    per_address = Counter()

    async def connect(self):
        self.address = client_address(self.scope)
        # Read once: the relay picks the socket's frame by it on every change.
        self.lobby_language = scope_language(self.scope)
        if self.per_address[self.address] >= settings.OKEY_WS_LOBBY_MAX_PER_IP:
            self.address = None  # not counted: refused
            await self.accept()
            with translation.override(self.lobby_language):
                message = error_message("too_many_sockets")
            await self.send(text_data=dumps({"type": "error", "code": "too_many_sockets", "message": message}))
            await self.close(code=CAP_CLOSE_CODE)
            return
        self.per_address[self.address] += 1
        await self.accept()
        # Registered before the list is read, so a change committed after the read reaches
        # it; frames the relay brings meanwhile wait until the first list went out, in order,
        # as they did in the socket's own channel queue.
        self.relay_pending = []
        await lobby_relay.register(self)
        await self.send_tables()
        while self.relay_pending:
            await self.send(text_data=self.relay_pending.pop(0))
        self.relay_pending = None

    async def disconnect(self, code):
        if getattr(self, "address", None) is not None:
            self.per_address[self.address] -= 1
            if self.per_address[self.address] <= 0:
                del self.per_address[self.address]
            self.address = None
        lobby_relay.unregister(self)

    async def send_tables(self):
        await self.send(text_data=await database_sync_to_async(lobby_frame)(self.lobby_language))

    async def receive(self, text_data=None, bytes_data=None):
        # At most one client-requested refresh per second: the list is pushed on changes anyway.
        now = time.monotonic()
        if now - getattr(self, "last_sync", 0.0) < 1.0:
            return
        self.last_sync = now
        await self.send_tables()
