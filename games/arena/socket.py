"""`/ws/arena/<id>/`: an arena page's live standings. The socket joins the arena's group
and writes each `standings` frame as the sweep built it (`games.arena.live`), one frame
per change whatever the number of pages; a signed-in player's pings mark them present
(an arena pairs only the players whose page is open)."""
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.arena import live, service
from games.arena.models import Arena
from games.heartbeat import HeartbeatMixin
from okeysite import socket_groups

PRESENCE_EVERY = 3.0  # seconds between two presence writes of one socket

NOT_FOUND = 4404  # docs/protocol.md: no such arena (as for a table)


def _frame(arena_id):
    arena = Arena.objects.filter(pk=arena_id).first()
    return live.standings_frame(arena) if arena is not None else None


class ArenaConsumer(HeartbeatMixin, AsyncWebsocketConsumer):
    """Server frame: {"type": "standings", ...} (`live.standings_frame`), at connect and on
    every change (at most once a second). Client frames: `ping` (answered `pong`; marks a
    signed-in player present); anything else is ignored."""

    close_when_idle = False
    presence_written = 0.0

    async def connect(self):
        self.arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        frame = await database_sync_to_async(_frame)(self.arena_id)
        if frame is None:
            await self.close(code=NOT_FOUND)
            return
        self.group = socket_groups.arena_group(self.arena_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.mark_present()
        await self.send(text_data=frame)

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def ping_verdict(self):
        await self.mark_present()
        return "ok"

    async def mark_present(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or time.monotonic() - self.presence_written < PRESENCE_EVERY:
            return
        self.presence_written = time.monotonic()
        await database_sync_to_async(service.seen)(user, self.arena_id)

    async def receive(self, text_data=None, bytes_data=None):
        return  # the page only listens (and pings)

    async def arena_update(self, event):
        """Group message from `live.announce`: {text: the serialised standings frame}."""
        await self.send(text_data=event["text"])
