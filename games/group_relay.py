"""One relay per server process and Channels group: the only member of the group in the
process, writing each of the group's messages straight to the process's sockets that
registered for it.

Why: when each socket joined the group itself, the channel layer queued every message
once per socket (with Redis, one publish and one receive per socket) and woke each
socket's task to forward it. A relay receives the message once and calls
`consumer.send(text_data=frame)` for each socket in a plain loop: no per-socket queue,
task wake-up or dispatch. The lobby (`games.lobby_relay`) and the arena pages' standings
(`games.arena.socket`) fan out through it.

A relay belongs to one event loop (and one channel layer object) and one group: it is
keyed by the running loop, so a loop that closed (a test's, an `async_to_sync` call's)
takes its relays with it and the next loop starts its own. The relay task runs while
the loop has sockets for its group and stops with the last one. Its receive loop is
restarted, with a short backoff, whenever it fails, on a fresh channel, so the sockets
keep getting messages after e.g. a lost Redis subscription; once back in the group it
calls `resync`, since the messages of the gap never reached it.

A subclass says what a message means for its sockets (`deliver`) and what to send after
a gap (`resync`); `write` sends one frame to one consumer, holding it while the
consumer connects (its `relay_pending` is a list) so its first frame goes out first.
"""
import asyncio
import logging
import weakref

log = logging.getLogger("games.group_relay")

RESTART_DELAYS = (0.1, 0.2, 0.5, 1.0, 2.0, 5.0)  # seconds before the n-th restart in a row (the last repeats)
# The in-memory layer drops a group member after `group_expiry` (a day) and one whose
# queued message expired (a minute unread): re-adding the one channel every few minutes
# keeps the relay in the group whatever the layer forgot. Redis pub/sub ignores a re-add.
REJOIN_INTERVAL = 300.0  # seconds
JOIN_WAIT = 2.0  # seconds `add` waits for the relay to be in the group before going on

_relays = {}  # (event loop, channel layer, group) -> GroupRelay


class GroupRelay:
    """The sockets of one event loop registered for `group` (str, a Channels group name)
    and the task that forwards the group's messages to them.

    `layer`: the channel layer (any with the groups extension: `RedisPubSubChannelLayer`,
    `InMemoryChannelLayer`). Attributes read by tests and diagnostics: `consumers` (a weak
    set of the registered consumers), `channel` (the relay's channel name while it is in
    the group, else None), `restarts` (how many times the receive loop was restarted
    after a failure), `receiver` (the pending `layer.receive` future, or None).
    """

    def __init__(self, layer, group):
        self.layer = layer
        self.group = group
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

    async def deliver(self, message):
        """Write one group message to the registered consumers. Returns how many were
        written to (int). A subclass's."""
        raise NotImplementedError

    async def resync(self):
        """Back in the group after a failure: bring every consumer up to date. Returns
        None. A subclass's."""
        raise NotImplementedError

    async def write(self, consumer, frame):
        """Send `frame` (str) to `consumer`, or append it to the consumer's `relay_pending`
        while that is a list (still connecting). Returns True if it was sent. A consumer
        whose send raises is logged and skipped: one broken socket must not cost the
        others their frame."""
        pending = getattr(consumer, "relay_pending", None)
        if pending is not None:
            pending.append(frame)
            return False
        try:
            await consumer.send(text_data=frame)
            return True
        except Exception:  # noqa: BLE001
            log.exception("%s frame to %s failed", self.group, getattr(consumer, "channel_name", "?"))
            return False

    def idle(self):
        """True when no socket is registered and no relay task runs or is still leaving the
        group: the relay can be forgotten (an arena's, once its last page closed)."""
        return not self.consumers and self.task is None and all(task.done() for task in self._stopping)

    def live_consumers(self):
        """The registered consumers now (a list: a send may yield, and one may leave meanwhile)."""
        return list(self.consumers)

    async def add(self, consumer):
        """Register `consumer` (an `AsyncWebsocketConsumer` that accepted its socket) for
        every message from now on; starts the relay task if it is not running. Waits (at
        most JOIN_WAIT s) until the relay is in the group, so a change committed after
        this returns reaches the consumer. Returns None; never raises for the layer (a
        relay that cannot join yet keeps retrying on its own)."""
        self.consumers.add(consumer)
        if self.task is None or self.task.done():
            self._stopping = [task for task in self._stopping if not task.done()]
            self.task = asyncio.get_running_loop().create_task(self._run(list(self._stopping)),
                                                               name=f"relay-{self.group}")
        try:
            await asyncio.wait_for(self._joined.wait(), JOIN_WAIT)
        except asyncio.TimeoutError:
            log.warning("%s relay not in its group after %.0f s; the socket waits for it", self.group, JOIN_WAIT)

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
                log.warning("%s relay's receive was cancelled; restarting it", self.group)
            except Exception:  # noqa: BLE001 - the sockets must keep getting changes
                log.exception("%s relay failed; restarting it", self.group)
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
            await layer.group_add(self.group, channel)
            self.channel = channel
            self._joined.set()
            if self._failures:
                # Back after a failure: messages sent while the relay was out of the
                # group never reached it.
                await self.resync()
            while True:
                if receiver is None:
                    # A receive outlives the rejoin timeouts: cancelling a channels_redis
                    # receive unsubscribes its channel.
                    receiver = self.receiver = asyncio.ensure_future(layer.receive(channel))
                done, _ = await asyncio.wait({receiver}, timeout=REJOIN_INTERVAL)
                if not done:
                    await layer.group_add(self.group, channel)
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
                await layer.group_discard(self.group, channel)
            except Exception:  # noqa: BLE001 - a member left behind only gets messages nobody reads
                log.exception("%s relay could not leave its group", self.group)


def relay_for(layer, group, kind):
    """The running loop's relay of `group` (str) on `layer`, a `kind` (a GroupRelay
    subclass, called as kind(layer, group)) made on first use; relays of closed loops are
    dropped, and so are idle ones (`GroupRelay.idle`). Returns the relay. Raises RuntimeError outside a running loop."""
    loop = asyncio.get_running_loop()
    relay = _relays.get((loop, layer, group))
    if relay is None:
        for key in [key for key, old in _relays.items() if key[0].is_closed() or old.idle()]:
            del _relays[key]
        relay = _relays[(loop, layer, group)] = kind(layer, group)
    return relay


def unregister(consumer, layer, group):
    """`consumer` gets no message of `group` after this (`GroupRelay.discard`); harmless for
    one never registered. Call from the consumer's loop. Returns None."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    relay = _relays.get((loop, layer, group))
    if relay is not None:
        relay.discard(consumer)
