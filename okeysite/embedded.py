"""Embedded mode: a Celery worker inside the daphne process, and a channel layer that
delivers on the server's own event loop.

Used only when `REDIS_URL` is unset (settings.EMBEDDED). See ARCHITECTURE.md "Known
traps": `async_to_sync(layer.group_send)` from the worker thread would complete
futures of daphne's loop from another loop (late delivery, errors in debug mode), so
`ServerLoopChannelLayer` hops onto the server loop captured by `note_server_loop()`.
The worker is started from `okeysite/asgi.py` only (never in `AppConfig.ready()`,
which every management command runs), once, in a daemon thread.
"""
import asyncio
import logging
import os
import threading
import time

from channels.layers import InMemoryChannelLayer

log = logging.getLogger("okeysite.embedded")

_server_loop = None
_start_lock = threading.Lock()
_started = False


def note_server_loop():
    """Remember the running event loop as the server's (call from ASGI code). Returns None."""
    global _server_loop
    loop = asyncio.get_running_loop()
    if _server_loop is not loop:
        _server_loop = loop


class ServerLoopChannelLayer(InMemoryChannelLayer):
    """`InMemoryChannelLayer` whose send/group_send always run on the server loop.

    Calls from another loop (the embedded Celery worker thread's `async_to_sync`) are
    forwarded with `asyncio.run_coroutine_threadsafe`; calls on the server loop, or
    before any connection captured it, run directly. Same interface as the parent.
    """

    async def _on_server_loop(self, coro_fn, *args):
        loop = _server_loop
        try:
            current = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - always called from a coroutine
            current = None
        if loop is None or loop is current or loop.is_closed():
            return await coro_fn(*args)
        future = asyncio.run_coroutine_threadsafe(coro_fn(*args), loop)
        return await asyncio.wrap_future(future)

    # The parent scans every channel and group membership for expired entries on every
    # receive and group send: with hundreds of sockets that scan was a tenth of the
    # process's CPU. Expiry counts in seconds (a message 60 s, a membership a day), so
    # one scan a second keeps it.
    CLEAN_INTERVAL = 1.0  # seconds between two scans for expired messages and memberships
    _next_clean = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now < self._next_clean:
            return
        self._next_clean = now + self.CLEAN_INTERVAL
        super()._clean_expired()

    async def send(self, channel, message):
        return await self._on_server_loop(super().send, channel, message)

    async def group_send(self, group, message):
        return await self._on_server_loop(super().group_send, group, message)


def _run_worker():
    from okeysite.celery import app

    # WorkController, not app.Worker: the latter replaces the process's stdout.
    worker = app.WorkController(
        pool_cls="solo",
        concurrency=1,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel="INFO",
    )
    log.info("embedded Celery worker starting (memory broker)")
    worker.start()


def _run_sweeper(interval):
    from okeysite.celery import app

    time.sleep(1.0)  # let the worker consume first
    first = True
    while True:
        try:
            app.send_task("games.tasks.sweep", kwargs={"startup": first})
            first = False
        except Exception:  # noqa: BLE001 - keep the backstop alive whatever happens
            log.exception("sweeper could not enqueue")
        time.sleep(interval)


def start_embedded_worker():
    """Start the in-process Celery worker and the deadline sweeper, once per process.

    Does nothing unless settings.EMBEDDED (no `REDIS_URL`) and `OKEY_EMBEDDED_WORKER`
    is not "0". The sweeper enqueues `games.tasks.sweep` by name at start-up (re-arming the
    deadlines whose memory-broker tasks died with the last process, recording finished
    matches left unrecorded) and every `OKEY_SWEEP_INTERVAL` seconds. Returns True if it
    started the threads now.
    """
    global _started
    from django.conf import settings

    if not settings.EMBEDDED or os.environ.get("OKEY_EMBEDDED_WORKER", "1") == "0":
        return False
    with _start_lock:
        if _started:
            return False
        _started = True
    threading.Thread(target=_run_worker, name="okey-celery-worker", daemon=True).start()
    threading.Thread(
        target=_run_sweeper, args=(settings.OKEY_SWEEP_INTERVAL,), name="okey-sweeper", daemon=True
    ).start()
    return True
