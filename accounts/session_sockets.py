"""A WebSocket lives no longer than the login session it was opened with.

A socket is authorised once, by the session cookie of its handshake. When that session
ends — logout, a password change, reset or set (Django then refuses every other session
of the user), or its expiry — the user's sockets opened with it are closed with code 4401
(docs/protocol.md §9: not logged in), so no move is accepted after the session is gone.

- The signal receivers here send {"type": "session.end", "ended": [session keys] or None
  (every session), "renamed": {old key: new key}} to the user's group
  (`socket_groups.user_group`). A password change keeps the changer's own session,
  under a new key (Django cycles it): that socket follows the rename and stays open.
- `SessionSocketMixin` (for a Channels consumer whose sockets join that group) closes the
  sockets of ended sessions, checks its session again when it expires and on a timer
  (settings.OKEY_SESSION_CHECK_INTERVAL seconds, hourly) and, on a received frame, once
  the last check is OKEY_SESSION_RECHECK seconds old (hourly) or the session's expiry has
  passed: the events above close a socket at once, the rereads are only a backstop.
"""
import asyncio
import logging
import time
from importlib import import_module

from allauth.account.signals import password_changed, password_reset, password_set
from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.signals import user_logged_out
from django.utils.crypto import constant_time_compare

from okeysite import socket_groups

log = logging.getLogger("okeysite.sessions")

SESSION_CLOSE_CODE = 4401  # docs/protocol.md §9: not logged in (the client stops reconnecting)


def end_sessions(user_id, ended=None, renamed=None):
    """Tell the sockets of user `user_id` (after the current transaction commits) that the
    sessions `ended` (list of session keys; None: every session) are over, except those in
    `renamed` ({old key: new key}), which go on under their new key. Returns None; a failed
    broadcast is logged (the sockets still find out on their next check)."""
    message = {"type": "session.end", "ended": list(ended) if ended is not None else None,
               "renamed": dict(renamed or {})}

    socket_groups.send_after_commit([(socket_groups.user_group(user_id), message)], "session end")


def _request_keys(request):
    """(the session key the browser sent, the request's session key now) of `request`."""
    sent = request.COOKIES.get(settings.SESSION_COOKIE_NAME) if request is not None else None
    session = getattr(request, "session", None)
    return sent, session.session_key if session is not None else None


def on_logout(sender, request=None, user=None, **kwargs):
    """`user_logged_out`: the sockets of that one session close."""
    sent, current = _request_keys(request)
    keys = {key for key in (sent, current) if key}
    if user is not None and keys:
        end_sessions(user.pk, ended=sorted(keys))


def on_password_change(sender, request=None, user=None, **kwargs):
    """allauth's `password_changed`, `password_set` and `password_reset`: every session of
    the user ends, but the one that made the change when it stays logged in (its key was
    cycled: its sockets follow the rename)."""
    if user is None:
        return
    sent, current = _request_keys(request)
    stays = request is not None and getattr(request, "user", None) is not None and request.user.pk == user.pk
    renamed = {sent: current} if stays and sent and current else {}
    if stays and current:
        renamed.setdefault(current, current)
    end_sessions(user.pk, ended=None, renamed=renamed)


def connect_signals():
    """Connect the receivers (from `AccountsConfig.ready`). Returns None."""
    user_logged_out.connect(on_logout, dispatch_uid="accounts.session_sockets.logout")
    for signal in (password_changed, password_set, password_reset):
        signal.connect(on_password_change, dispatch_uid=f"accounts.session_sockets.{id(signal)}")


def session_state(session_key, user):
    """Whether session `session_key` still logs in `user`, and until when.

    Returns (alive: bool, expires: epoch seconds or None). Alive means the session exists,
    has not expired, belongs to `user` and carries the user's current password hash (a
    password change elsewhere ends it, as Django's own check does)."""
    if not session_key or user is None:
        return False, None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    data = store.load()
    if str(data.get(SESSION_KEY)) != str(user.pk):
        return False, None
    user = get_user_model().objects.filter(pk=user.pk, is_active=True).first()
    if user is None or not constant_time_compare(data.get(HASH_SESSION_KEY) or "", user.get_session_auth_hash()):
        return False, None
    expires = None
    model = getattr(store, "model", None)
    if model is not None:  # the database backend keeps the row's own expiry
        found = model.objects.filter(session_key=session_key).values_list("expire_date", flat=True).first()
        expires = found.timestamp() if found else None
    return True, expires


class SessionSocketMixin:
    """Mixin for an `AsyncWebsocketConsumer` whose sockets join `user_group(user id)`:
    closes the socket with code 4401 when its login session ends (see the module's doc).
    Put it before the consumer's base class; it needs nothing from the consumer."""

    session_key = None
    session_checked = 0.0
    session_expires = None
    session_watch = None

    async def websocket_connect(self, message):
        await super().websocket_connect(message)
        user = self.scope.get("user")
        session = self.scope.get("session")
        if user is not None and user.is_authenticated and session is not None and session.session_key:
            self.session_key = session.session_key
            self.session_checked = time.monotonic()
            self.session_watch = asyncio.ensure_future(self._watch_session())

    async def websocket_disconnect(self, message):
        if self.session_watch is not None:
            self.session_watch.cancel()
        await super().websocket_disconnect(message)

    async def websocket_receive(self, message):
        if self.session_key is not None:
            due = time.monotonic() - self.session_checked >= settings.OKEY_SESSION_RECHECK
            expired = self.session_expires is not None and time.time() >= self.session_expires
            if (due or expired) and not await self.check_session():
                return
        await super().websocket_receive(message)

    async def _watch_session(self):
        # Reads the session's expiry once at the start, then wakes when it expires, or
        # after the check interval when that comes first.
        if not await self.check_session():
            return
        while True:
            wait = settings.OKEY_SESSION_CHECK_INTERVAL
            if self.session_expires is not None:
                wait = max(0.0, min(wait, self.session_expires - time.time()))
            await asyncio.sleep(wait)
            if not await self.check_session():
                return

    async def check_session(self):
        """Check the socket's session now; close with 4401 when it ended. Returns bool (alive)."""
        alive, self.session_expires = await database_sync_to_async(session_state)(self.session_key,
                                                                                  self.scope["user"])
        self.session_checked = time.monotonic()
        if not alive:
            await self.close_for_session()
        return alive

    async def close_for_session(self):
        self.session_key = None
        if self.session_watch is not None and self.session_watch is not asyncio.current_task():
            self.session_watch.cancel()
        await self.close(code=SESSION_CLOSE_CODE)

    async def session_end(self, event):
        """Group message from `end_sessions`: follow a rename of this socket's session, or
        close when it is among the ended ones."""
        if self.session_key is None:
            return
        renamed = event.get("renamed") or {}
        if self.session_key in renamed:
            self.session_key = renamed[self.session_key]
        elif event.get("ended") is None or self.session_key in event["ended"]:
            await self.close_for_session()
