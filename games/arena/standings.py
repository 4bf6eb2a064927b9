"""An arena's standings as the pages and the live socket show them: the players ranked
(`scoring.standing_key`). Reads only.

`snapshot` reads the arena with its standings in one query (the entries with their
arena), so the live standings cost one query per update however many pages watch."""
from accounts.player_settings import display_name
from games.arena import scoring
from games.arena.models import Arena, ArenaEntry


def entry_key(entry):
    """Sort key of an ArenaEntry in the standings (ascending = better): `scoring.standing_key`,
    then the earliest to join."""
    return (*scoring.standing_key(entry.score, entry.matches, entry.reached), entry.pk)


def _entries(arena_id):
    return sorted(ArenaEntry.objects.filter(arena_id=arena_id).select_related("arena", "user", "user__player_settings"),
                  key=entry_key)


def _rows(entries):
    return [{"rank": k + 1, "user": e.user.get_username(), "name": display_name(e.user), "score": e.score,
             "matches": e.matches, "fire": scoring.on_fire(e.streak), "paused": e.paused,
             "withdrawn": e.withdrawn} for k, e in enumerate(entries)]


def snapshot(arena_id):
    """Arena `arena_id` and its standings, in one query (two while nobody joined).

    Returns (Arena, or None when there is no such arena; the `ranked` rows)."""
    entries = _entries(arena_id)
    arena = entries[0].arena if entries else Arena.objects.filter(pk=arena_id).first()
    return arena, _rows(entries)


def ranked(arena):
    """The standings of `arena`: [{rank, user, name, score, matches, fire, paused,
    withdrawn}], best first (`entry_key`)."""
    return _rows(_entries(arena.pk))
