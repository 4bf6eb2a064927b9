"""`/ws/arena/<id>/`: an arena page's live standings. Each `standings` frame is built once
per change by the sweep (`games.arena.live`) and sent to the arena's group, whose only
member in each server process is the arena's relay (`ArenaRelay`, `games.group_relay`):
it writes the frame to every page of the arena the process holds, with no channel
message per page. A signed-in player's socket also joins their own arena group and hears
which table the arena seated them at (`arena_table`), and its pings mark them present
(an arena pairs only the players present)."""
import json
import time

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import reverse

from games import group_relay
from games.arena import live, service
from games.heartbeat import HeartbeatMixin
from okeysite import socket_groups

PRESENCE_EVERY = 3.0  # seconds between two presence writes of one socket

NOT_FOUND = 4404  # docs/protocol.md: no such arena (as for a table)


class ArenaRelay(group_relay.GroupRelay):
    """The arena pages of one event loop for one arena, and the task that forwards the
    arena's group to them (`group_relay.GroupRelay`)."""

    def __init__(self, layer, group, arena_id):
        super().__init__(layer, group)
        self.arena_id = arena_id

    async def deliver(self, message):
        """Write an "arena.update" message's frame ({text: the serialised standings}) to
        every registered page; other types are ignored. Returns how many were written to (int)."""
        if message.get("type") != "arena.update":
            return 0
        sent = 0
        for consumer in self.live_consumers():
            if consumer in self.consumers:  # else it left while an earlier send yielded
                sent += await self.write(consumer, message["text"])
        return sent

    async def resync(self):
        """Every page gets the standings as they are now (one read). Returns None."""
        frame = await database_sync_to_async(live.standings_frame)(self.arena_id)
        if frame is not None:
            await self.deliver({"type": "arena.update", "text": frame})


def _relay(layer, arena_id):
    group = socket_groups.arena_group(arena_id)
    return group_relay.relay_for(layer, group, lambda layer, group: ArenaRelay(layer, group, arena_id))


class ArenaConsumer(HeartbeatMixin, AsyncWebsocketConsumer):
    """Server frames: {"type": "standings", ...} (`live.standings_frame`), at connect and on
    every change (at most once a second); to a signed-in player, {"type": "arena_table",
    arena, table, url} at connect while they sit at an arena table and whenever the arena
    seats them. Client frames: `ping` (answered `pong`; marks a signed-in player present);
    anything else is ignored."""

    close_when_idle = False
    presence_written = 0.0

    def _player(self):
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    relay_pending = None  # standings held by the relay while connecting (list), else None

    async def connect(self):
        self.arena_id = self.scope["url_route"]["kwargs"]["arena_id"]
        # In the relay before the standings are read, holding its frames until the first
        # goes out: a change committed after the read reaches the page, after it.
        self.relay_pending = []
        await _relay(self.channel_layer, self.arena_id).add(self)
        frame = await database_sync_to_async(live.standings_frame)(self.arena_id)
        if frame is None:
            group_relay.unregister(self, self.channel_layer, socket_groups.arena_group(self.arena_id))
            await self.close(code=NOT_FOUND)
            return
        self.groups_joined = []
        player = self._player()
        if player is not None:
            self.groups_joined.append(socket_groups.arena_player_group(self.arena_id, player.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.mark_present()
        await self.send(text_data=frame)
        while self.relay_pending:
            await self.send(text_data=self.relay_pending.pop(0))
        self.relay_pending = None
        if player is not None:
            table = await database_sync_to_async(service.current_table)(player, self.arena_id)
            if table is not None:
                await self.arena_seated({"arena": int(self.arena_id), "table": table,
                                         "url": reverse("table", args=[table])})

    async def disconnect(self, code):
        group_relay.unregister(self, self.channel_layer, socket_groups.arena_group(self.arena_id))
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def ping_verdict(self):
        await self.mark_present()
        return "ok"

    async def mark_present(self):
        user = self._player()
        if user is None or time.monotonic() - self.presence_written < PRESENCE_EVERY:
            return
        self.presence_written = time.monotonic()
        await database_sync_to_async(service.seen)(user, self.arena_id)

    async def receive(self, text_data=None, bytes_data=None):
        return  # the page only listens (and pings)

    async def send_json(self, frame):
        await self.send(text_data=json.dumps(frame, separators=(",", ":")))

    async def arena_seated(self, event):
        """Group message from `service.tell_seated`: {arena, table, url}; sent on as the
        `arena_table` frame."""
        await self.send_json({"type": "arena_table", "arena": event["arena"], "table": event["table"],
                              "url": event["url"]})
