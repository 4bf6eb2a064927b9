"""Thin WebSocket consumers (docs/protocol.md §1-§4): authenticate, validate frames, hand actions to
`games.play`, send each socket its own seat's view.

The writer builds each version's views once (`games.play.commit`): a seated user's view
arrives on that user's own group at the table (`seat_group`), the spectators' public view
on the table group, so rack contents never pass through a table-wide group
(ARCHITECTURE.md invariant 3) and a socket forwards the view it receives. `sync` and a new
connection read a fresh snapshot with `games.snapshot`.
"""
import json
import time
from collections import OrderedDict

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import close_old_connections
from django.utils import translation

from accounts.moderation import KICK_CLOSE_CODE, active_suspension, suspension_message
from accounts.session_sockets import SessionSocketMixin
from games import frames, invites
from games.chat.socket import ChatFrames
from games.direct_dispatch import DirectDispatch
from games.errors import TableError, error_message
from games.frames import dumps
from games.heartbeat import HeartbeatMixin
from games.models import Seat
from games.play import presence, seeding, spectators, turns
from games.snapshot import localize, seat_to_move, snapshot, snapshot_frame
from games.socket_scope import client_address, scope_language
from okeysite import socket_groups

MAX_REMEMBERED_IDS = 256


def _suspension_text(found, language):
    with translation.override(language):
        return suspension_message(found)


def _in_parallel(fn):
    """`fn` as a coroutine function run on the event loop's thread pool, each thread with
    its own database connection, instead of the process's one database thread: an action
    at one table need not wait for another table's (each is one transaction on its own
    locked game row). The connection is closed at the end when it is too old or broken
    (`close_old_connections`): in a pool thread, channels' own clean-up after the call
    left it open once the call had broadcast through `async_to_sync`."""

    def call(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:
            close_old_connections()

    return database_sync_to_async(call, thread_sensitive=False)


def _seat_index(table_id, user):
    # The seat of `user` at the table, read without the game's lock (spectators never take it);
    # an anonymous visitor, or a player who left the match, has none.
    if user is None:
        return None
    return Seat.objects.filter(table_id=table_id, user=user, left=False).values_list("index", flat=True).first()


class TableConsumer(ChatFrames, DirectDispatch, SessionSocketMixin, HeartbeatMixin, AsyncWebsocketConsumer):
    """`/ws/table/<id>/`: one player's (or spectator's) live connection to a table.

    Client frames: `action` {id, version, action}, `sync`, `resume` (take the seat back
    from autoplay), `chat` {text}, `report` {user?, reason?}, `seed` {round, seed}.
    Server frames: `snapshot`, `ack`, `error`, `round_end`, `chat_history` {lines}, `chat`
    {id, user, name, text, at}, `chat_removed` {id}, `reported`, `seeding` {round,
    commitment, deadline, sent}, `seeded` {round, seed}. Anyone may watch a public table,
    signed in or not (public view only, no action, no chat); a private table needs a seat
    or its invite code in the session, else it is closed with 4404 as if it did not exist.
    Any error leaves the connection usable. A suspended
    user's sockets are closed with code 4403, and those of a login session that ended
    (logout, password change, expiry) with 4401 (`SessionSocketMixin`). Frames are checked
    by `games.frames` before anything else reads them; `ping` is answered `pong` and an
    idle socket closed (`HeartbeatMixin`); a user or address over its socket cap gets
    `error` `too_many_sockets` and close 4429 (docs/protocol.md).
    """

    admitted = False  # frames are read only once connect() has set the socket up
    presence_refreshed = 0.0
    to_move = False  # the last view sent shows this socket's seat to move (`snapshot.seat_to_move`)

    async def connect(self):
        user = self.scope.get("user")
        if user is not None and not user.is_authenticated:
            user = None  # an anonymous visitor may watch (`spectators.may_open`)
        if user is not None:
            found = await database_sync_to_async(active_suspension)(user)
            if found is not None:  # suspended or banned (accounts.moderation)
                self.language = scope_language(self.scope)
                await self.accept()
                await self.send_suspended(found)
                return
        self.user = user
        self.user_group = socket_groups.user_group(user.pk) if user is not None else None
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.watching = False
        invite = invites.code_in_session(self.scope.get("session"), self.table_id)
        try:
            allowed = await database_sync_to_async(spectators.may_open)(self.table_id, user, invite)
        except TableError:
            allowed = None
        if not allowed:
            # 4404 for a table that does not exist and for a private one this visitor may not
            # see: the close code must not tell a probe which private table ids exist.
            await self.close(code=4404)
            return
        self.group = socket_groups.table_group(self.table_id)
        self.language = scope_language(self.scope)
        self.sent_version = -1
        self.round_end_version = -1
        self.answers = OrderedDict()
        self.budget = frames.FrameBudget(settings.OKEY_WS_RATE, settings.OKEY_WS_BURST, settings.OKEY_WS_FLOOD_LIMIT)
        self.seat = None
        try:
            await database_sync_to_async(snapshot)(self.table_id, None)
        except TableError:
            await self.close(code=4404)
            return
        refusal = await database_sync_to_async(presence.open_connection)(
            self.channel_name, user, client_address(self.scope), self.table_id)
        if refusal is not None:
            await self.accept()
            await self.send_error(refusal)
            await self.close(code=presence.CAP_CLOSE_CODE)
            return
        self.registered = True
        self.presence_refreshed = time.monotonic()
        seated = user is not None and await database_sync_to_async(_seat_index)(self.table_id, user) is not None
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.user_group:  # signed in (an anonymous watcher has neither group)
            await self.channel_layer.group_add(self.user_group, self.channel_name)
            self.seat_group = socket_groups.seat_group(self.table_id, user.pk)
            await self.channel_layer.group_add(self.seat_group, self.channel_name)
        await self.accept()
        # The broadcast of our own connection carries our channel name: this socket sends
        # its snapshot once, here, not again when that broadcast comes back.
        if seated:
            self.seat = await database_sync_to_async(presence.set_connected)(
                self.user, self.table_id, True, origin=self.channel_name, channel=self.channel_name)
        if self.seat is None:  # a spectator: counted from the live presence rows, off the game lock
            self.watching = True
            await database_sync_to_async(spectators.recount)(self.table_id)
        await self.send_snapshot()
        await self.send_chat_history()
        self.admitted = True

    async def disconnect(self, code):
        if not getattr(self, "registered", False):
            return
        self.admitted = self.registered = False
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.user_group:
            await self.channel_layer.group_discard(self.user_group, self.channel_name)
        if hasattr(self, "seat_group"):
            await self.channel_layer.group_discard(self.seat_group, self.channel_name)
        if self.seat is not None:
            await database_sync_to_async(presence.set_connected)(self.user, self.table_id, False,
                                                                 channel=self.channel_name)
        else:
            await database_sync_to_async(presence.close_connection)(self.channel_name)
        if self.watching:
            await database_sync_to_async(spectators.recount)(self.table_id)

    def watched_closely(self):
        """The player to move at an online table: the others wait for them, so a silent
        socket is probed and soon closed (`HeartbeatMixin`)."""
        return self.admitted and self.to_move

    def _sent(self, version, to_move):
        self.sent_version = max(self.sent_version, version)
        if to_move != self.to_move:
            self.to_move = to_move
            if to_move:
                self.watch_changed()

    async def heartbeat(self):
        """Refresh this socket's presence row every third of its lifetime; a row that
        expired meanwhile (a long stall) is recorded again, and the seat given back."""
        if not self.admitted or time.monotonic() - self.presence_refreshed < settings.OKEY_PRESENCE_TTL / 3:
            return
        self.presence_refreshed = time.monotonic()
        if await database_sync_to_async(presence.refresh)(self.channel_name):
            return
        await database_sync_to_async(presence.open_connection)(
            self.channel_name, self.user, client_address(self.scope), self.table_id, capped=False)
        if self.seat is not None:
            await database_sync_to_async(presence.set_connected)(
                self.user, self.table_id, True, origin=self.channel_name, channel=self.channel_name)
        else:  # counted again: the writer sends a table's public view only while it knows of a watcher
            await database_sync_to_async(spectators.recount)(self.table_id)
        await self.send_snapshot()

    # ------------------------------------------------------------------ sending

    async def send_frame(self, frame):
        await self.send(text_data=dumps(frame))

    async def send_snapshot(self):
        version, view, seat = await database_sync_to_async(snapshot)(
            self.table_id, self.user, self.language)
        self.seat = seat
        self._sent(version, seat_to_move(view))
        await self.send_frame({"type": "snapshot", "version": version, "view": view})

    async def send_view(self, version, view, seat):
        """Send a view the writer built (`seat`: its seat index, None for the public view)
        as this socket's snapshot, its computers named in the socket's language."""
        self.seat = seat
        self._sent(version, seat_to_move(view))
        await self.send_frame({"type": "snapshot", "version": version, "view": localize(view, self.language)})

    async def send_view_text(self, version, text, language, seat, to_move=False):
        """Send a view the writer serialised (`snapshot.view_text`, its computers named in
        `language`; `to_move`: `snapshot.seat_to_move` of it) as this socket's snapshot: as
        it is when that is the socket's language, else decoded and named again (`send_view`)."""
        if language != self.language:
            await self.send_view(version, json.loads(text), seat)
            return
        self.seat = seat
        self._sent(version, bool(to_move))
        await self.send(text_data=snapshot_frame(version, text))

    async def send_error(self, code, frame_id=None):
        with translation.override(self.language):
            frame = {"type": "error", "code": code, "message": error_message(code)}
        if frame_id is not None:
            frame["id"] = frame_id
        await self.send_frame(frame)
        return frame

    async def send_round_end(self, payload):
        if payload["version"] <= self.round_end_version:
            return
        self.round_end_version = payload["version"]
        await self.send_frame(dict(payload, type="round_end"))

    # ---------------------------------------------------------------- receiving

    async def ping_verdict(self):
        """Pings spend the socket's frame budget like any frame (`games.frames.FrameBudget`)."""
        if not self.admitted:
            return "drop"
        verdict = self.budget.take()
        return verdict if verdict in ("ok", "close") else "drop"

    async def receive(self, text_data=None, bytes_data=None):
        if not self.admitted:  # e.g. a suspended user's frames right behind the handshake
            return
        verdict = self.budget.take()
        if verdict != "ok":
            if verdict == "close":
                await self.close(code=frames.CLOSE_POLICY)
            elif verdict == "answer":
                await self.send_error("rate_limited")
            return
        try:
            frame = frames.decode(text_data, bytes_data)
        except frames.Refused as refused:
            if refused.close is not None:
                await self.close(code=refused.close)
            else:
                await self.send_error(refused.code)
            return
        kind = frame["type"]
        if kind == "sync":
            await self.send_snapshot()
        elif kind == "ping":  # a ping with more than its type (a bare one is the mixin's)
            await self.send_frame({"type": "pong"})
        elif kind == "action":
            await self.receive_action(frame)
        elif kind == "resume":
            await self.receive_resume(frame)
        elif kind == "chat":
            await self.receive_chat(frame)
        elif kind == "report":
            await self.receive_report(frame)
        elif kind == "seed":
            await self.receive_seed(frame)
        else:
            await self.send_error("bad_frame", frames.frame_id(frame))

    async def seated(self):
        """Whether this socket's user has a seat, read without the game's lock; a seat
        taken since connecting is picked up (with a fresh snapshot). Returns bool."""
        if self.seat is None and await database_sync_to_async(_seat_index)(self.table_id, self.user) is not None:
            await self.send_snapshot()
        return self.seat is not None

    async def receive_resume(self, frame):
        """`resume`: take the seat back from autoplay; a spectator gets `not_seated`
        before any locking query (docs/protocol.md §2)."""
        if not await self.seated() or await database_sync_to_async(presence.resume_seat)(
                self.user, self.table_id) is None:
            await self.send_error("not_seated", frames.frame_id(frame))

    async def receive_action(self, frame):
        frame_id = frame.get("id")
        version = frame.get("version")
        action = frame.get("action")
        if not isinstance(frame_id, str) or not 0 < len(frame_id) <= 64:
            await self.send_error("bad_frame")
            return
        if frame_id in self.answers:  # the same id is answered once (docs/protocol.md §4)
            await self.send_frame(self.answers[frame_id])
            return
        if (
            not isinstance(version, int) or isinstance(version, bool) or version < 0
            or not isinstance(action, dict) or not isinstance(action.get("type"), str)
        ):
            await self.send_error("bad_frame", frame_id)
            return
        if not await self.seated():
            self._remember(frame_id, await self.send_error("not_seated", frame_id))
            return
        try:
            action = frames.normalise_action(action)
        except frames.Refused as refused:
            self._remember(frame_id, await self.send_error(refused.code, frame_id))
            return
        outcome = await _in_parallel(turns.submit_action)(self.user, self.table_id, action, version)
        if outcome.ok:
            answer = {"type": "ack", "id": frame_id, "version": outcome.version}
            self._remember(frame_id, answer)
            await self.send_frame(answer)
            if outcome.text is not None:
                text, language, to_move = outcome.text
                await self.send_view_text(outcome.version, text, language, self.seat, to_move)
            else:
                await self.send_snapshot()
            if outcome.round_end:
                await self.send_round_end(outcome.round_end)
            return
        self._remember(frame_id, await self.send_error(outcome.code, frame_id))
        if outcome.text is not None:  # a refusal whose penalty stays: a new version
            text, language, to_move = outcome.text
            await self.send_view_text(outcome.version, text, language, self.seat, to_move)
        elif outcome.code == "stale_version" or outcome.version > self.sent_version:
            await self.send_snapshot()

    async def receive_seed(self, frame):
        """`seed` {round, seed, id?}: this seat's client seed for the round's seeding window
        (`games.play.seeding.submit_seed`); answered `seeded` {round, seed (canonical)} or
        `error` (`not_seated`, `seed_closed`, `bad_seed`, `bad_frame`)."""
        frame_id = frame.get("id") if isinstance(frame.get("id"), str) else None
        number = frame.get("round")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            await self.send_error("bad_frame", frame_id)
            return
        if not await self.seated():  # a spectator is refused before the game's lock
            await self.send_error("not_seated", frame_id)
            return
        outcome = await database_sync_to_async(seeding.submit_seed)(self.user, self.table_id, number,
                                                                    frame.get("seed"))
        if not outcome.ok:
            await self.send_error(outcome.code, frame_id)
            return
        answer = {"type": "seeded", "round": number, "seed": outcome.seed}
        if frame_id is not None:
            answer["id"] = frame_id
        await self.send_frame(answer)

    def _remember(self, frame_id, answer):
        self.answers[frame_id] = answer
        while len(self.answers) > MAX_REMEMBERED_IDS:
            self.answers.popitem(last=False)

    # ------------------------------------------------------------ group events

    async def table_update(self, event):
        """Table group message from `games.play.commit`: {version, refresh, origin?,
        round_end?, text (the public view, serialised by `snapshot.view_text`) and lang (the
        language its computers are named in) when the writer knew of someone watching,
        seated (user ids that get their own view on their seat group instead)}. Without a
        text, a spectator reads its snapshot (`_forward`)."""
        if getattr(self.user, "pk", None) in event.get("seated", ()):
            return
        await self._forward(event, None)

    async def table_view(self, event):
        """Seat group message from `games.play.commit`: {version, refresh, origin?,
        round_end?, text (this user's seat's view, serialised), lang, seat}."""
        await self._forward(event, event["seat"])

    async def _forward(self, event, seat):
        # Skipped: a refresh this socket's own connection caused (`origin`: it sent that
        # snapshot), and any older version (a broadcast in flight when the socket joined
        # its groups, arriving after the newer snapshot it read: a window already dealt).
        own = event.get("origin") == self.channel_name
        version = event["version"]
        if version > self.sent_version or (event.get("refresh") and not own and version == self.sent_version):
            if "text" in event:
                await self.send_view_text(version, event["text"], event.get("lang"), seat, event.get("to_move"))
            else:
                await self.send_snapshot()
        if event.get("round_end"):
            await self.send_round_end(event["round_end"])

    async def table_seeding(self, event):
        """Group message from `games.play.seeding`: a round's commitment before its deal,
        {seeding, version}; dropped after a later version (its snapshots carry an open window)."""
        if event.get("version", self.sent_version) < self.sent_version:
            return
        if event.get("seeding"):
            await self.send_frame(dict(event["seeding"], type="seeding"))

    async def arena_seated(self, event):
        """Group message from `games.arena.service.tell_seated`: {arena, table, url}. The
        arena seated this page's player at their next table while they stayed on this one
        (their match here is over): the page offers the link."""
        if event["table"] != self.table_id:
            await self.send_frame({"type": "arena_table", "arena": event["arena"], "table": event["table"],
                                   "url": event["url"]})

    async def user_kick(self, event):
        """Group message from `accounts.moderation`: the user was suspended or banned."""
        found = await database_sync_to_async(active_suspension)(self.user)
        await self.send_suspended(found)

    async def send_suspended(self, found):
        """Send {"type": "error", "code": "suspended", "message": reason and end date, in the
        socket's language}, then close with code 4403. `found`: the active Sanction or None."""
        if found is not None:
            message = await database_sync_to_async(_suspension_text)(found, self.language)
            await self.send_frame({"type": "error", "code": "suspended", "message": message})
        await self.close(code=KICK_CLOSE_CODE)
