"""The one door out to the sockets: the Channels group names and the group sends of every
process (table views, chat, the lobby, presence and spectators, kicks and sign-outs, and each
user's open pages: challenges, notifications, friends' presence).

No other module calls `group_send` (a test checks it) or spells a group's name. Every
batch goes out on a long-lived event loop, so the channel layer keeps its Redis
connection: `async_to_sync` from a plain thread (a Celery worker, a test) would run each
call on a fresh loop, and channels_redis opens a new connection for every loop. Inside
the server (a `database_sync_to_async` thread) the batch runs on the server's own loop,
which already holds the layer's connection.
"""
import asyncio
import logging
import os
import threading

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger("okeysite.sockets")

LOBBY = "lobby"  # the lobby sockets (one relay per server process is its member)


def table_group(table_id):
    """The group of every socket at table `table_id` (int): the public view and chat, never
    a rack (str)."""
    return f"table-{table_id}"


def seat_group(table_id, user_id):
    """The group of one user's sockets at one table: their seat's view only (str)."""
    return f"table-{table_id}-user-{user_id}"


def arena_group(arena_id):
    """The group of every arena-page socket of arena `arena_id`: its standings (str)."""
    return f"arena-{arena_id}"


def arena_player_group(arena_id, user_id):
    """The group of one signed-in player's arena-page sockets of arena `arena_id`: the
    table the arena seated them at (str)."""
    return f"arena-{arena_id}-user-{user_id}"


def user_group(user_id):
    """The group of every socket of one user, at any table or the lobby: kicks and
    sign-outs (str)."""
    return f"user-{user_id}"


def pages_group(user_id):
    """The group of one signed-in user's page sockets (`/ws/me/`, one per open page of the
    site, `social.page_socket`): challenges, notifications and friends' presence (str)."""
    return f"user-{user_id}-pages"


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
    if _server_loop() is not None:
        async_to_sync(_send_all)(messages)
        return
    asyncio.run_coroutine_threadsafe(_send_all(messages), _background_loop()).result(timeout=SEND_TIMEOUT)


_last = {}  # (loop, order key) -> the task sending that key's latest batch, on that loop


async def _send_in_order(key, messages):
    # Tasks start in the order run_coroutine_threadsafe scheduled them, so each finds the
    # batch handed over just before it as the key's latest and waits for it.
    loop, task = asyncio.get_running_loop(), asyncio.current_task()
    slot = (loop, key)
    previous = _last.get(slot)
    _last[slot] = task
    try:
        if previous is not None and not previous.done():
            # its failure is its own (logged), not this batch's; a hung one is given up on
            await asyncio.wait([previous], timeout=SEND_TIMEOUT)
        await asyncio.wait_for(_send_all(messages), SEND_TIMEOUT)
    finally:
        if _last.get(slot) is task:
            del _last[slot]


async def _send_all(messages):
    layer = get_channel_layer()
    await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))


def send_after_commit(messages, what="group message", order=None):
    """Send `messages` (a list of (group name, message dict)) once the current transaction
    commits (at once outside one). A failure is logged, never raised: what was stored
    stays stored, and the sockets catch up on their next sync. `what` (str) names the
    messages in the log; `order` (str, default the first message's group) the batches that
    go out one after another, in the order they were committed. Returns None.

    Inside the server (a `database_sync_to_async` thread) the batch is handed to the
    server's loop and not waited for: the thread returns to its socket at once instead of
    blocking on a second hand-off back to the loop (`async_to_sync`) for the Redis round
    trip. The batches of one `order` key (a table's versions) then leave in the order they
    were handed over, each once the one before it was sent, so no socket sees a version
    after the next one (it would drop it as stale)."""
    if not messages:
        return
    key = order or messages[0][0]

    def failed(error):
        log.error("%s to %s failed", what, messages[0][0], exc_info=error)

    def deliver():
        loop = _server_loop()
        if loop is not None:
            future = asyncio.run_coroutine_threadsafe(_send_in_order(key, messages), loop)
            future.add_done_callback(lambda done: done.cancelled() or done.exception() is None
                                     or failed(done.exception()))
            return
        try:
            send(messages)
        except Exception as error:  # noqa: BLE001 - a send failure must never undo what was committed
            failed(error)

    transaction.on_commit(deliver)
