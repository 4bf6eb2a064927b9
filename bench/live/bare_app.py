"""The bare-Channels comparison: the floor the product's live path is measured against.

``daphne bench.live.bare_app:application`` (settings ``bench.live.bare_settings``). One
socket per seat at ``/ws/bare/<table>/``, all of a table's sockets in one group. An
``action`` frame {id, version, size} is answered like the product answers a move: an
``ack`` {id, version + 1} to the sender, then one ``snapshot`` {id, version + 1, view}
padded to ``size`` bytes, group-sent through the channel layer to every socket of the
table (the sender's copy is its "own snapshot"). No database, no rules, no auth: what
is left is daphne, the consumer and the channel layer.
"""
import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.live.bare_settings")
django.setup()

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

MAX_SIZE = 64 * 1024
DIRECT = os.environ.get("BARE_DISPATCH") == "direct"


class BareTableConsumer(AsyncWebsocketConsumer):
    """One seat's socket: ack the frame, group-send a snapshot-sized message."""

    async def dispatch(self, message):
        # BARE_DISPATCH=direct (bench.floor): straight to the handler, as the product's
        # sockets do (games.direct_dispatch.DirectDispatch). Channels' own dispatch, the default
        # here because the live-tables comparison is plain Channels, first sends
        # `close_old_connections` to a thread for every message.
        if DIRECT:
            await getattr(self, get_handler_name(message))(message)
        else:
            await super().dispatch(message)

    async def connect(self):
        self.group = f"bare-{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        try:
            frame = json.loads(text_data or "")
            frame_id, version = str(frame["id"]), int(frame["version"]) + 1
            size = min(max(int(frame.get("size", 0)), 0), MAX_SIZE)
        except (ValueError, KeyError, TypeError):
            await self.send(text_data='{"type":"error","code":"bad_frame"}')
            return
        await self.send(text_data=json.dumps({"type": "ack", "id": frame_id, "version": version}))
        head = {"type": "snapshot", "id": frame_id, "version": version, "view": {"pad": ""}}
        pad = "x" * max(0, size - len(json.dumps(head)))
        head["view"]["pad"] = pad
        await self.channel_layer.group_send(self.group, {"type": "bare.snapshot", "text": json.dumps(head)})

    async def bare_snapshot(self, event):
        await self.send(text_data=event["text"])


async def http_ok(scope, receive, send):
    """Any HTTP request: 200 "bare" (the stack's readiness check)."""
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"bare"})


application = ProtocolTypeRouter({
    "http": http_ok,
    "websocket": AllowedHostsOriginValidator(URLRouter([
        path("ws/bare/<int:table>/", BareTableConsumer.as_asgi()),
    ])),
})
