"""Plumbing shared by the site's WebSocket consumers: the heartbeat, the client's address
and language, direct dispatch and compact frames.

`HeartbeatMixin` (docs/protocol.md): the client sends {"type": "ping"} every
20 s and gets {"type": "pong"}; a socket that sent nothing for OKEY_WS_IDLE_TIMEOUT
seconds is closed with IDLE_CLOSE_CODE (a client that stopped receiving, or a dead peer
whose TCP connection never broke), and `heartbeat()` runs every few seconds while the
socket is open (the table consumer refreshes its presence row there).
"""
import asyncio
import json
import logging
import time

from channels.consumer import get_handler_name
from django.conf import settings
from django.utils import translation

CAP_CLOSE_CODE = 4429  # the user or the address has too many sockets open (the client retries later)
IDLE_CLOSE_CODE = 4408  # nothing received for OKEY_WS_IDLE_TIMEOUT seconds (the client reconnects)
PONG = json.dumps({"type": "pong"})

log = logging.getLogger("games.sockets")


def client_address(scope):
    """The client's IP address (str, "" when unknown): the socket's peer, or with
    OKEY_TRUSTED_PROXY_COUNT proxies in front the X-Forwarded-For entry they received it
    from (the same rule as the login limits)."""
    count = settings.ALLAUTH_TRUSTED_PROXY_COUNT
    if count > 0:
        for name, value in scope.get("headers", []):
            if name == b"x-forwarded-for":
                hops = [hop.strip() for hop in value.decode("latin-1").split(",") if hop.strip()]
                if len(hops) >= count:
                    return hops[-count][:64]
    client = scope.get("client")
    return str(client[0])[:64] if client else ""


def _is_ping(text):
    try:
        frame = json.loads(text)
    except ValueError:
        return False
    return isinstance(frame, dict) and frame.get("type") == "ping"


class HeartbeatMixin:
    """Mixin for an `AsyncWebsocketConsumer` (before its base class): answers `ping`
    frames itself, closes an idle socket (unless `close_when_idle` is False), and calls `heartbeat()` every
    min(OKEY_WS_IDLE_TIMEOUT, OKEY_PRESENCE_TTL) / 4 seconds while open. A consumer may
    override `ping_verdict()` to charge pings to its own frame budget."""

    last_seen = 0.0
    heartbeat_task = None
    close_when_idle = True  # False: answer pings, never close for silence

    async def websocket_connect(self, message):
        self.last_seen = time.monotonic()
        await super().websocket_connect(message)
        self.heartbeat_task = asyncio.ensure_future(self._watch_heartbeat())

    async def websocket_disconnect(self, message):
        if self.heartbeat_task is not None:
            self.heartbeat_task.cancel()
        await super().websocket_disconnect(message)

    async def websocket_receive(self, message):
        self.last_seen = time.monotonic()
        text = message.get("text")
        if text is not None and len(text) <= 64 and _is_ping(text):
            verdict = await self.ping_verdict()
            if verdict == "ok":
                await self.send(text_data=PONG)
            elif verdict == "close":
                await self.close(code=1008)
            return
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
        while True:
            await asyncio.sleep(step)
            if self.close_when_idle and time.monotonic() - self.last_seen >= idle:
                await self.close(code=IDLE_CLOSE_CODE)
                return
            try:
                await self.heartbeat()
            except Exception:  # noqa: BLE001 - a failed refresh is retried at the next beat
                log.exception("heartbeat of %s failed", getattr(self, "channel_name", "?"))


def scope_language(scope):
    """The user's language from the language cookie, else Accept-Language, else the default."""
    supported = {code for code, _name in settings.LANGUAGES}
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
    if cookie in supported:
        return cookie
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            for lang, _q in translation.trans_real.parse_accept_lang_header(value.decode("latin-1")):
                try:
                    return translation.get_supported_language_variant(lang)
                except LookupError:
                    continue
    return settings.LANGUAGE_CODE


def dumps(frame):
    """`frame` (dict) as compact JSON text."""
    return json.dumps(frame, separators=(",", ":"))


class DirectDispatch:
    """Dispatch each message straight to its handler.

    Channels' own `dispatch` first runs `close_old_connections` through `sync_to_async`,
    i.e. on the process's one database thread, for every message: each forwarded view
    then queued behind every database call of the process. Our handlers reach the
    database only through `database_sync_to_async`, which closes old connections itself
    before and after each call."""

    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
