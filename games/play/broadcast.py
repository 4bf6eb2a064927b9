"""Group messages from synchronous code (the commit path's after-commit broadcasts).

Every broadcast of one change goes out in one batch, on a long-lived event loop, so the
channel layer keeps its Redis connection: `async_to_sync` from a plain thread (a Celery
worker, a test) would run each call on a fresh loop, and channels_redis opens a new
connection for every loop. Inside the server (a `database_sync_to_async` thread) the
batch runs on the server's own loop, which already holds the layer's connection.
"""
import asyncio
import logging
import os
import threading

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("games.play")

SEND_TIMEOUT = 10.0  # seconds a batch may take before the caller stops waiting for it

_loop = None
_lock = threading.Lock()


def _forget_loop():
    # A forked child (Celery's prefork pool) must not share its parent's loop thread.
    global _loop
    _loop = None


os.register_at_fork(after_in_child=_forget_loop)


def _background_loop():
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="okey-broadcast", daemon=True).start()
            _loop = loop
        return _loop


def _server_loop():
    # The loop of the `sync_to_async` call this thread runs for, when it is still running.
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid() or not loop.is_running():
        return None
    return loop


def send(messages):
    """Group-send `messages` (a list of (group name, message dict)) concurrently and wait
    for them (at most SEND_TIMEOUT seconds). Raises what the channel layer raises, or
    TimeoutError."""
    if not messages:
        return
    layer = get_channel_layer()

    async def send_all():
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))

    if _server_loop() is not None:
        async_to_sync(send_all)()
        return
    asyncio.run_coroutine_threadsafe(send_all(), _background_loop()).result(timeout=SEND_TIMEOUT)
