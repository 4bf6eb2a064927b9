"""One lobby relay per server process: the only member of `LOBBY_GROUP` in the process,
writing each "lobby.update" frame straight to this process's live lobby sockets, each in
the socket's language (the message carries one frame per site language).

Why: when every lobby socket joined the group itself, the channel layer queued each
change once per socket and woke each socket's task to forward it (~0.06 ms of Python
per socket before the send itself). The relay receives the change once and calls
`consumer.send(text_data=frame)` for each socket in a plain loop: no per-socket queue,
task wake-up or dispatch.

A relay belongs to one event loop (and one channel layer object): it is keyed by the
running loop, so a loop that closed (a test's, an `async_to_sync` call's) takes its relay
with it and the next loop starts its own. The relay task runs while the loop has lobby
sockets and stops with the last one. Its receive loop is restarted, with a short
backoff, whenever it fails, on a fresh channel, so the sockets keep getting changes
after e.g. a lost Redis subscription; once back in the group it sends every socket the
list as it is then, since the changes of the gap never reached it.

Usage (from a consumer's coroutines): `await register(consumer)` in `connect` after
`accept`, `unregister(consumer)` in `disconnect`; a consumer may hold frames while it
connects by setting `lobby_pending` to a list (`deliver`), and gets the frames of its
`lobby_language` (a LANGUAGES code; the site's default when it has none).
"""
import asyncio
import logging
import weakref

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games.play.lobby import LOBBY_GROUP, lobby_frames

log = logging.getLogger("games.lobby_relay")

RESTART_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)  # seconds before the n-th restart in a row (the last repeats)
# The in-memory layer drops a group member after `group_expiry` (a day) and one whose
# queued message expired (a minute unread): re-adding the one channel every few minutes
# keeps the relay in the group whatever the layer forgot. Redis pub/sub ignores a re-add.
REJOIN_INTERVAL = 300.0  # seconds
JOIN_WAIT = 2.0  # seconds `register` waits for the relay to be in the group before going on

_relays = {}  # (event loop, channel layer) -> LobbyRelay


class LobbyRelay:
    """The lobby sockets of one event loop and the task that forwards the lobby group to them.

    `layer`: the channel layer (any with the groups extension: `RedisPubSubChannelLayer`,
    `InMemoryChannelLayer`). Attributes read by tests and diagnostics: `consumers` (a weak
    set of the registered consumers), `channel` (the relay's channel name while it is in
    the group, else None), `restarts` (how many times the receive loop was restarted
    after a failure), `receiver` (the pending `layer.receive` future, or None).
    """

    def __init__(self, layer):
        self.layer = layer
        # Weak: a consumer whose task died without `disconnect` (an application killed
        # by the server) is not written to for ever.
        self.consumers = weakref.WeakSet()
        self.channel = None
        self.restarts = 0
        self.receiver = None
        self.task = None
        self._stopping = []  # relay tasks cancelled after the last socket left, maybe still leaving
        self._joined = asyncio.Event()
        self._failures = 0  # restarts in a row since the last message received

    async def add(self, consumer):
        """Register `consumer` (an `AsyncWebsocketConsumer` that accepted its socket) for
        every lobby frame from now on; starts the relay task if it is not running. Waits
        (at most JOIN_WAIT s) until the relay is in the group, so a change committed after
        this returns reaches the consumer. Returns None; never raises for the layer (a relay
        that cannot join yet keeps retrying on its own)."""
        self.consumers.add(consumer)
        if self.task is None or self.task.done():
            self._stopping = [task for task in self._stopping if not task.done()]
            self.task = asyncio.get_running_loop().create_task(self._run(list(self._stopping)), name="lobby-relay")
        try:
            await asyncio.wait_for(self._joined.wait(), JOIN_WAIT)
        except asyncio.TimeoutError:
            log.warning("lobby relay not in its group after %.0f s; the socket waits for it", JOIN_WAIT)

    def discard(self, consumer):
        """Forget `consumer` (no frame is written to it after this). The last one to go
        stops the relay task. Returns None."""
        self.consumers.discard(consumer)
        if not self.consumers and self.task is not None:
            self.task.cancel()
            self._stopping.append(self.task)
            self.task = None
            self._joined.clear()

    async def _run(self, previous):
        if previous:
            # Let the stopped relays leave the group first: with channels_redis a group
            # unsubscribe still in flight would undo the subscribe of the new relay.
            await asyncio.wait(previous)
        while True:
            try:
                await self._relay()
            except asyncio.CancelledError:
                if asyncio.current_task().cancelling():
                    raise  # the relay itself is stopped
                # Only the pending receive was cancelled (its subscription is gone): restart.
                log.warning("lobby relay's receive was cancelled; restarting it")
            except Exception:  # noqa: BLE001 - the sockets must keep getting changes
                log.exception("lobby relay failed; restarting it")
            delay = RESTART_DELAYS[min(self._failures, len(RESTART_DELAYS) - 1)]
            self._failures += 1
            self.restarts += 1
            await asyncio.sleep(delay)

    async def _relay(self):
        # One channel in the group, received from until something fails.
        layer = self.layer
        channel = await layer.new_channel()
        receiver = None
        try:
            await layer.group_add(LOBBY_GROUP, channel)
            self.channel = channel
            self._joined.set()
            if self._failures:
                # Back after a failure: changes committed while the relay was out of the
                # group never reached it, so every socket gets the list as it is now.
                await self.deliver({"type": "lobby.update"})
            while True:
                if receiver is None:
                    # A receive outlives the rejoin timeouts: cancelling a channels_redis
                    # receive unsubscribes its channel.
                    receiver = self.receiver = asyncio.ensure_future(layer.receive(channel))
                done, _ = await asyncio.wait({receiver}, timeout=REJOIN_INTERVAL)
                if not done:
                    await layer.group_add(LOBBY_GROUP, channel)
                    continue
                message, receiver = receiver.result(), None
                self._failures = 0
                await self.deliver(message)
        finally:
            self._joined.clear()
            self.channel = self.receiver = None
            if receiver is not None and not receiver.done():
                receiver.cancel()
                await asyncio.wait({receiver})  # its clean-up (the unsubscribe) runs now
            try:
                await layer.group_discard(LOBBY_GROUP, channel)
            except Exception:  # noqa: BLE001 - a member left behind only gets messages nobody reads
                log.exception("lobby relay could not leave its group")

    async def deliver(self, message):
        """Write one group message to every registered consumer. `message`: {"type":
        "lobby.update", "frames": {language: str (the serialised `tables` frame)}}; each
        consumer gets the frame of its `language_of`. Without "frames", or for a language
        they lack, the list is read now (`lobby_frames`, once for all sockets, for the
        languages missing only); the one-language "frame" an older process sends is not
        used for that reason. Other types are ignored. A consumer whose send raises is
        logged and skipped; one whose `lobby_pending` is a list (still connecting) gets its
        frame appended there instead. Returns the number of consumers written to (int)."""
        if message.get("type") != "lobby.update":
            log.warning("lobby relay ignored a %r message", message.get("type"))
            return 0
        frames = dict(message.get("frames") or {})
        missing = {language_of(consumer) for consumer in self.consumers} - frames.keys()
        if missing:
            try:
                frames.update(await database_sync_to_async(lobby_frames)(sorted(missing)))
            except Exception:  # noqa: BLE001 - the next change or a socket's sync brings the list
                log.exception("lobby relay could not read the list")
        sent = 0
        for consumer in list(self.consumers):
            if consumer not in self.consumers:
                continue  # disconnected while an earlier send yielded
            frame = frames.get(language_of(consumer))
            if frame is None:
                continue  # registered while the list was read, or the read failed: its sync brings it
            pending = getattr(consumer, "lobby_pending", None)
            if pending is not None:
                pending.append(frame)
                continue
            try:
                await consumer.send(text_data=frame)
                sent += 1
            except Exception:  # noqa: BLE001 - one broken socket must not cost the others their frame
                log.exception("lobby frame to %s failed", getattr(consumer, "channel_name", "?"))
        return sent


def language_of(consumer):
    """The language `consumer`'s lobby frames are in (a LANGUAGES code, str): its
    `lobby_language`, else the site's default."""
    return getattr(consumer, "lobby_language", None) or settings.LANGUAGE_CODE


def relay_for(layer):
    """The running loop's relay for `layer` (created on first use; relays of closed loops
    are dropped). Returns a LobbyRelay. Raises RuntimeError outside a running loop."""
    loop = asyncio.get_running_loop()
    relay = _relays.get((loop, layer))
    if relay is None:
        for key in [key for key in _relays if key[0].is_closed()]:
            del _relays[key]
        relay = _relays[(loop, layer)] = LobbyRelay(layer)
    return relay


async def register(consumer):
    """`consumer` (an accepted socket; it needs no channel of its own) gets every lobby
    frame from now on, through the relay of the process's default channel layer
    (`LobbyRelay.add`). Returns None."""
    await relay_for(get_channel_layer()).add(consumer)


def unregister(consumer):
    """`consumer` gets no lobby frame after this (`LobbyRelay.discard`); harmless for one
    never registered. Call from the consumer's loop. Returns None."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    relay = _relays.get((loop, get_channel_layer()))
    if relay is not None:
        relay.discard(consumer)
