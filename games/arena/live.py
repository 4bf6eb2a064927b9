"""The arena page's live standings: one frame built per change, whatever the number of
pages watching (`standings_frame`), sent to the arena's group at most once a second
(`announce`); a change inside that second is sent by the next sweep (`announce_pending`)."""
import json

from django.core.cache import cache

from games.arena.standings import top
from okeysite import socket_groups

THROTTLE = 1.0  # seconds between two frames of one arena
# The frame carries the top of the standings only: every page gets the same frame, and
# the whole of a 1,000-player arena would pass the sites' 64 KiB WebSocket message limit
# (daphne closes the socket with 1011). The page and its JSON poll show them all.
FRAME_ROWS = 100


def standings_frame(arena_id):
    """The `standings` frame of arena `arena_id` (str, JSON), or None if there is no such
    arena: {type: "standings", state, ends (epoch ms), players (how many joined),
    standings (the first FRAME_ROWS rows of `standings.ranked`)}. One query
    (`standings.top`)."""
    arena, rows, players = top(arena_id, FRAME_ROWS)
    if arena is None:
        return None
    return json.dumps({"type": "standings", "state": arena.state(), "ends": int(arena.ends.timestamp() * 1000),
                       "players": players, "standings": rows}, separators=(",", ":"))


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
    frame = standings_frame(arena_id)
    if frame is not None:
        socket_groups.send_after_commit(
            [(socket_groups.arena_group(arena_id), {"type": "arena.update", "text": frame})], "arena standings")


def announce_pending(arena_id):
    """Send the frame a throttled `announce` held back, if any. Returns None."""
    if cache.get(_pending_key(arena_id)):
        announce(arena_id)
