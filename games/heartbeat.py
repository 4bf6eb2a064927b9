"""The heartbeat of the site's WebSocket consumers: a socket that is alive, or closed.

`HeartbeatMixin` (docs/protocol.md): the client sends {"type": "ping"} every
20 s and gets {"type": "pong"}; a socket that sent nothing for OKEY_WS_IDLE_TIMEOUT
seconds is closed with IDLE_CLOSE_CODE (a client that stopped receiving, or a dead peer
whose TCP connection never broke), and `heartbeat()` runs every few seconds while the
socket is open (the table consumer refreshes its presence row there).

While a consumer says its socket is watched closely (`watched_closely()`: the table's
player to move at an online table, whom the others wait for) a quiet socket is asked:
after OKEY_WS_PROBE_AFTER seconds without a frame the server sends {"type": "ping"}, the
client answers {"type": "pong"}, and a socket still silent OKEY_WS_PROBE_DEAD seconds
after its last frame is closed with IDLE_CLOSE_CODE. A network that is gone without
breaking the TCP connection is noticed that way within seconds; WebSocket-level pings
alone do not do it, since a browser whose page gets no frame still answers them (Chromium
offline: measured). A hidden tab answers too: a frame arriving runs the page's handler at
once, timers or not, so the 90 s idle close stays the rule off turn.
"""
import asyncio
import json
import logging
import time

from django.conf import settings

IDLE_CLOSE_CODE = 4408  # nothing received for OKEY_WS_IDLE_TIMEOUT seconds (the client reconnects)
PONG = json.dumps({"type": "pong"})
PROBE = json.dumps({"type": "ping"})

log = logging.getLogger("games.heartbeat")


def _heartbeat_type(text):
    # "ping" or "pong" for a bare heartbeat frame, else None
    try:
        frame = json.loads(text)
    except ValueError:
        return None
    kind = frame.get("type") if isinstance(frame, dict) else None
    return kind if kind in ("ping", "pong") else None


class HeartbeatMixin:
    """Mixin for an `AsyncWebsocketConsumer` (before its base class): answers `ping`
    frames itself, closes an idle socket (unless `close_when_idle` is False), and calls `heartbeat()` every
    min(OKEY_WS_IDLE_TIMEOUT, OKEY_PRESENCE_TTL) / 4 seconds while open. A consumer may
    override `ping_verdict()` to charge pings to its own frame budget."""

    last_seen = 0.0
    probed_at = None  # when the server last sent a probe `ping` not yet answered by a frame
    watched_since = 0.0  # when `watched_closely()` last turned True (`watch_changed`)
    heartbeat_task = None
    close_when_idle = True  # False: answer pings, never close for silence
    _wake = None

    async def websocket_connect(self, message):
        self.last_seen = time.monotonic()
        self._wake = asyncio.Event()
        await super().websocket_connect(message)
        self.heartbeat_task = asyncio.ensure_future(self._watch_heartbeat())

    def watched_closely(self):
        """True while a quiet socket is to be probed (see the module's head); False by default."""
        return False

    def watch_changed(self):
        """Call when `watched_closely()` may have turned True: the watch looks at once
        instead of at its next beat; the socket's quiet is counted from now, not from a
        frame it sent while nobody waited for it. Returns None."""
        self.watched_since = time.monotonic()
        self.probed_at = None
        if self._wake is not None:
            self._wake.set()

    async def websocket_disconnect(self, message):
        if self.heartbeat_task is not None:
            self.heartbeat_task.cancel()
        await super().websocket_disconnect(message)

    async def websocket_receive(self, message):
        self.last_seen = time.monotonic()
        self.probed_at = None
        text = message.get("text")
        kind = _heartbeat_type(text) if text is not None and len(text) <= 64 else None
        if kind is not None:
            verdict = await self.ping_verdict()
            if verdict == "ok" and kind == "ping":
                await self.send(text_data=PONG)
            elif verdict == "close":
                await self.close(code=1008)
            return  # a `pong` (the answer to a probe) has done its work: the socket spoke
        await super().websocket_receive(message)

    async def ping_verdict(self):
        """What to do with a ping arriving now: "ok" (answer `pong`), "drop" or "close"
        (1008). Default: at most one pong per second, the rest dropped."""
        now = time.monotonic()
        if now - getattr(self, "last_pong", 0.0) < 1.0:
            return "drop"
        self.last_pong = now
        return "ok"

    async def heartbeat(self):
        """Called every few seconds while the socket is open; does nothing by default."""

    async def _watch_heartbeat(self):
        idle = settings.OKEY_WS_IDLE_TIMEOUT
        step = max(0.05, min(idle, settings.OKEY_PRESENCE_TTL) / 4)
        probe_after, dead = settings.OKEY_WS_PROBE_AFTER, settings.OKEY_WS_PROBE_DEAD
        # While watched closely the watch looks every `tick` seconds; otherwise it sleeps
        # until the next beat (`step`) unless `watch_changed` wakes it.
        tick = max(0.05, min(probe_after, dead) / 4)
        next_beat = time.monotonic() + step
        while True:
            wait = tick if self.watched_closely() else max(0.0, next_beat - time.monotonic())
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
            except asyncio.TimeoutError:
                pass
            now = time.monotonic()
            if self.watched_closely():
                quiet = now - max(self.last_seen, self.watched_since)
                if quiet >= dead:
                    log.info("closing %s: silent %.1f s on its turn", getattr(self, "channel_name", "?"), quiet)
                    await self.close(code=IDLE_CLOSE_CODE)
                    return
                if quiet >= probe_after and self.probed_at is None:
                    self.probed_at = now
                    await self.send(text_data=PROBE)
            if now < next_beat:
                continue
            next_beat = now + step
            if self.close_when_idle and now - self.last_seen >= idle:
                await self.close(code=IDLE_CLOSE_CODE)
                return
            try:
                await self.heartbeat()
            except Exception:  # noqa: BLE001 - a failed refresh is retried at the next beat
                log.exception("heartbeat of %s failed", getattr(self, "channel_name", "?"))
