"""Who left a match, and the result every page shows (docs/results.md, the rules pages'
"Fair play" section).

One definition of leaving, read by the ratings (`leaderboards.recording`), the match-over
card (`snapshot.round_end_frame`), the table's seat labels (`snapshot.players_info`), the
match page, the profile, the game record and the admin:

A human has *left* a match only
- by choosing "Leave the match" (`Seat.left`, `games.play.tables.leave_match`), or
- at an online table, by having no socket at the table for the rest of the match from some point before its
  end, a span of at least `settings.OKEY_LEFT_AFTER_TURNS` of their own turns
  (`Seat.away_turns`: the seat's turns that ended with no socket of theirs open, counted
  by the commit path and reset when a socket opens or the player acts).

A seat on autoplay after two timeouts whose player still has a socket open has not left,
and neither has a player whose phone locked for fewer turns than that span. At the end
of the match the commit path freezes the verdict into `Seat.absent` (`freeze_leavers`), so
a finished match reads the same whatever the settings say later.

A leaver is last: behind every seat that did not leave (computers included), sharing the
last place with the other leavers, never a winner (no ★). In okey51 team play a team
with a leaver is behind a team without one (as the ratings rate it).
"""
from dataclasses import dataclass

from django.conf import settings

from games.engine import api


def left_span():
    """The span (int, the player's own turns) with no socket after which a seat has left:
    `settings.OKEY_LEFT_AFTER_TURNS` (default 3)."""
    return int(settings.OKEY_LEFT_AFTER_TURNS)


def has_left(seat):
    """Whether the human of `seat` (a `games.models.Seat`) has left the match: they chose
    "Leave the match" (`seat.left`), or their last `left_span()` turns or more ended with no
    socket of theirs at the table (`seat.away_turns`). A computer seat never leaves.
    Returns bool."""
    if not seat.user_id:
        return False
    return bool(seat.left or seat.absent) or (seat.away_turns or 0) >= left_span()


def freeze_leavers(seats):
    """At the end of a match, mark `absent` every seat that left by absence (saved at
    once), so the finished match's result no longer depends on sockets or a later span.
    `Seat.left` stays the player's own choice: an absent player still has their seat (a
    rematch offer, their own view of the finished table). Called by the commit path inside
    the transaction that finishes the match. Returns the set of seat indexes that left."""
    gone = set()
    for seat in seats:
        if has_left(seat):
            gone.add(seat.index)
            if not seat.left and not seat.absent:
                seat.absent = True
                seat.save(update_fields=["absent"])
    return gone


@dataclass(frozen=True)
class Result:
    """A match's result as every page shows it.

    `order`: seats best first, leavers last (list of int); `places`: per seat, 1 = best,
    equal totals share a place, leavers share the last one (list of int); `left`: the
    seats that left (frozenset of int); `winners`: the seats that won (★; frozenset, empty
    when the best seat left); `team_order`: okey51 team play, the two teams (0: seats 0+2,
    1: seats 1+3) best first, else None.
    """

    order: list
    places: list
    left: frozenset
    winners: frozenset
    team_order: list | None = None

    def place_of(self, seat):
        """The place (int, 1 = best) of seat index `seat`."""
        return self.places[seat]

    def won(self, seat):
        """True when seat index `seat` won the match (never a leaver)."""
        return seat in self.winners


def _dense(keys):
    ordered = sorted(set(keys))
    return [ordered.index(key) + 1 for key in keys]


def match_result(table, totals, seats):
    """The result of a match at `table` with match `totals` (points per seat) and its
    `seats` (Seats in seat order), by the rule of this module.

    Individual play: okey lowest total first, rami highest first (RULES.md §3-5), ties by
    seat in `order` and shared in `places`; leavers after everyone. Team play (okey51): a
    team with a leaver after a team without, then the lower team total; the winners are the
    better team's seats unless that team has a leaver. Returns a `Result`.
    """
    rules = api.ruleset(table.ruleset)
    totals = list(totals or [0] * len(seats))
    n = len(totals)
    left = frozenset(s.index for s in seats if s.index < n and has_left(s))
    sign = -1 if rules.higher_wins else 1
    teams = rules.team_totals(table.options, totals)
    if teams is not None:
        team_left = [any(s in left for s in range(n) if s % 2 == t) for t in (0, 1)]
        team_order = sorted((0, 1), key=lambda t: (team_left[t], sign * teams[t], t))
        rank = {t: i for i, t in enumerate(team_order)}
        order = sorted(range(n), key=lambda s: (rank[s % 2], s in left, sign * totals[s], s))
        places = _dense([(team_left[s % 2], sign * teams[s % 2]) for s in range(n)])
        best = team_order[0]
        winners = frozenset(s for s in range(n) if s % 2 == best) if not team_left[best] else frozenset()
        return Result(order, places, left, winners, team_order)
    order = sorted(range(n), key=lambda s: (s in left, sign * totals[s], s))
    places = _dense([(1, 0) if s in left else (0, sign * totals[s]) for s in range(n)])
    winners = frozenset({order[0]}) if n and order[0] not in left else frozenset()
    return Result(order, places, left, winners)


def result_of(match, seats):
    """`match_result` of a stored `match` (with its table) and its `seats`."""
    return match_result(match.table, match.totals, seats)
