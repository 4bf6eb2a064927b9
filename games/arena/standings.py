"""An arena's standings as the pages and the live socket show them: the players ranked
(`scoring.standing_key`) and who plays at which arena table now. Reads only."""
from accounts.player_settings import display_name
from games.arena import scoring
from games.arena.models import ArenaEntry
from games.models import Seat, Table


def entry_key(entry):
    """Sort key of an ArenaEntry in the standings (ascending = better): `scoring.standing_key`,
    then the earliest to join."""
    return (*scoring.standing_key(entry.score, entry.matches, entry.reached), entry.pk)


def ranked(arena):
    """The standings of `arena`: [{rank, user, name, score, matches, fire, paused,
    withdrawn}], best first (`entry_key`)."""
    entries = sorted(ArenaEntry.objects.filter(arena=arena).select_related("user", "user__player_settings"),
                     key=entry_key)
    return [{"rank": k + 1, "user": e.user.get_username(), "name": display_name(e.user), "score": e.score,
             "matches": e.matches, "fire": scoring.on_fire(e.streak), "paused": e.paused,
             "withdrawn": e.withdrawn} for k, e in enumerate(entries)]


def playing(arena):
    """{username: table id} of the players at one of `arena`'s tables now (not left)."""
    return dict(Seat.objects.filter(table__arena_link__arena=arena, left=False, user__isnull=False,
                                    table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
                .values_list("user__username", "table_id"))
