"""An arena's standings as the pages and the live socket show them: the players ranked
(`scoring.standing_key`). Reads only.

`top` reads the arena, the first rows of its standings and how many joined in one query
(ranked in SQL by the same key), so the live standings cost one query per update however
many pages watch and however many players joined."""
from django.db.models import Case, Count, F, FloatField, Value, When, Window
from django.db.models.functions import Cast

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


def top(arena_id, limit):
    """Arena `arena_id`, the first `limit` rows of its standings and how many joined, in
    one query (two while nobody joined). The order is `entry_key`'s, in SQL: score, points
    per match (0 before a match), earliest to the score, earliest to join.

    Returns (Arena, or None when there is no such arena; `ranked` rows; players (int))."""
    per_match = Case(When(matches=0, then=Value(0.0)), default=Cast("score", FloatField()) / F("matches"),
                     output_field=FloatField())
    entries = list(ArenaEntry.objects.filter(arena_id=arena_id)
                   .select_related("arena", "user", "user__player_settings")
                   .annotate(per_match=per_match, players=Window(Count("id")))
                   .order_by("-score", "-per_match", "reached", "pk")[:limit])
    if not entries:
        return Arena.objects.filter(pk=arena_id).first(), [], 0
    return entries[0].arena, _rows(entries), entries[0].players


def ranked(arena):
    """The standings of `arena`: [{rank, user, name, score, matches, fire, paused,
    withdrawn}], best first (`entry_key`)."""
    return _rows(_entries(arena.pk))
