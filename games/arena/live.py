"""The arena page's live standings: one frame built per change, whatever the number of
pages watching (`standings_frame`), sent to the arena's group at most once a second
(`announce`); a change inside that second is sent by the next sweep (`announce_pending`)."""
import json

from django.core.cache import cache

from games.arena.models import Arena
from games.arena.standings import playing, ranked
from okeysite import socket_groups

THROTTLE = 1.0  # seconds between two frames of one arena


def standings_frame(arena):
    """The `standings` frame of `arena` (str, JSON): {type: "standings", state, ends (epoch
    ms), standings (`standings.ranked`), playing ({username: table id} of the players at an
    arena table now)}."""
    return json.dumps({"type": "standings", "state": arena.state(), "ends": int(arena.ends.timestamp() * 1000),
                       "standings": ranked(arena), "playing": playing(arena)}, separators=(",", ":"))


def _pending_key(arena_id):
    return f"okey:arena:{arena_id}:pending"


def announce(arena_id):
    """The standings of arena `arena_id` changed: after commit, send its frame to the arena
    pages, unless one went out less than THROTTLE seconds ago (then the next sweep sends
    it). Returns None."""
    if not cache.add(f"okey:arena:{arena_id}:sent", 1, timeout=THROTTLE):
        cache.set(_pending_key(arena_id), 1, timeout=60)
        return
    cache.delete(_pending_key(arena_id))
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is not None:
        socket_groups.send_after_commit(
            [(socket_groups.arena_group(arena_id), {"type": "arena.update", "text": standings_frame(arena)})],
            "arena standings")


def announce_pending(arena_id):
    """Send the frame a throttled `announce` held back, if any. Returns None."""
    if cache.get(_pending_key(arena_id)):
        announce(arena_id)
