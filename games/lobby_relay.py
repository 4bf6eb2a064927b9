"""The lobby's relay (`games.group_relay`): the only member of `LOBBY_GROUP` in each server
process, writing each "lobby.update" frame straight to this process's live lobby sockets,
each in the socket's language (the message carries one frame per site language).

Why a relay, and how it lives and restarts: `games.group_relay`. After a gap in its
group it sends every socket the list as it is then.

Usage (from a consumer's coroutines): `await register(consumer)` in `connect` after
`accept`, `unregister(consumer)` in `disconnect`; a consumer may hold frames while it
connects by setting `relay_pending` to a list (`GroupRelay.write`), and gets the frames
of its `lobby_language` (a LANGUAGES code; the site's default when it has none).
"""
import logging

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings

from games import group_relay
from games.play.lobby import LOBBY_GROUP, lobby_frames

log = logging.getLogger("games.lobby_relay")


class LobbyRelay(group_relay.GroupRelay):
    """The lobby sockets of one event loop and the task that forwards the lobby group to
    them (`group_relay.GroupRelay`: `consumers`, `channel`, `restarts`, `receiver`)."""

    async def resync(self):
        """Every socket gets the list as it is now (read once per language). Returns None."""
        await self.deliver({"type": "lobby.update"})

    async def deliver(self, message):
        """Write one group message to every registered consumer. `message`: {"type":
        "lobby.update", "frames": {language: str (the serialised `tables` frame)}}; each
        consumer gets the frame of its `language_of`. Without "frames", or for a language
        they lack, the list is read now (`lobby_frames`, once for all sockets, for the
        languages missing only); the one-language "frame" an older process sends is not
        used for that reason. Other types are ignored. A consumer whose send raises is
        logged and skipped; one whose `relay_pending` is a list (still connecting) gets its
        frame appended there instead (`write`). Returns the number of consumers written to (int)."""
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
        for consumer in self.live_consumers():
            if consumer not in self.consumers:
                continue  # disconnected while an earlier send yielded
            frame = frames.get(language_of(consumer))
            if frame is None:
                continue  # registered while the list was read, or the read failed: its sync brings it
            sent += await self.write(consumer, frame)
        return sent


def language_of(consumer):
    """The language `consumer`'s lobby frames are in (a LANGUAGES code, str): its
    `lobby_language`, else the site's default."""
    return getattr(consumer, "lobby_language", None) or settings.LANGUAGE_CODE


def relay_for(layer):
    """The running loop's lobby relay for `layer` (`group_relay.relay_for`). Returns a
    LobbyRelay. Raises RuntimeError outside a running loop."""
    return group_relay.relay_for(layer, LOBBY_GROUP, LobbyRelay)


async def register(consumer):
    """`consumer` (an accepted socket; it needs no channel of its own) gets every lobby
    frame from now on, through the relay of the process's default channel layer
    (`GroupRelay.add`). Returns None."""
    await relay_for(get_channel_layer()).add(consumer)


def unregister(consumer):
    """`consumer` gets no lobby frame after this; harmless for one never registered. Call
    from the consumer's loop. Returns None."""
    group_relay.unregister(consumer, get_channel_layer(), LOBBY_GROUP)
