"""Who sits with whom when an arena pairs its waiting players (pure: no database).

Players are ranked by score, then rating, and cut into tables of the arena's seats in
that order, so the closest scores play together. A table that would seat a player with
exactly the opponents of their last table is avoided where the waiting pool allows: the
last player of that table swaps with the first of the next one. What is left over (fewer
than a table) keeps waiting, except once the longest of them has waited the arena's
wait for humans: then they sit together and computers fill the free seats.
"""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Waiting:
    """One waiting player: `user` (id), `score`, `rating` (ordinal, higher is stronger),
    `waited` (seconds), `last` (frozenset of the user ids of their last table's humans)."""

    user: int
    score: int
    rating: float = 0.0
    waited: float = 0.0
    last: frozenset = field(default_factory=frozenset)


def _repeats(group):
    ids = {p.user for p in group}
    return any(p.last and p.last == ids - {p.user} for p in group)


def pair(waiting, seats, bot_wait, min_humans=1):
    """The tables to seat now: a list of lists of user ids (each of at most `seats`).

    Args: `waiting` (list of `Waiting`), `seats` (int, the arena's table size), `bot_wait`
    (seconds: a short table starts once its longest waiter waited this long),
    `min_humans` (the fewest humans a short table may have)."""
    ranked = sorted(waiting, key=lambda p: (-p.score, -p.rating, p.user))
    groups = [ranked[i:i + seats] for i in range(0, len(ranked), seats)]
    for k in range(len(groups) - 1):
        if _repeats(groups[k]) and len(groups[k + 1]) == seats:
            a, b = groups[k], groups[k + 1]
            a[-1], b[0] = b[0], a[-1]
    tables = [[p.user for p in g] for g in groups if len(g) == seats]
    short = [g for g in groups if len(g) < seats]
    if short and len(short[0]) >= min_humans and max(p.waited for p in short[0]) >= bot_wait:
        tables.append([p.user for p in short[0]])
    return tables
