"""Stored matches for the ranking tests: real rows in the test database, built directly
(the rules engine is not needed to rank a finished match)."""
from datetime import timedelta

from django.utils import timezone

from games.models import Match, Seat, Table

BASE_TIME = timezone.now() - timedelta(days=1)


def finished_match(seat_users, totals, ruleset="okey51", mode="online", options=None, abandoned=(), minutes=0,
                   finished=True, autoplay=()):
    """A finished match: `seat_users` (user or None for a computer, per seat), `totals`
    (points per seat), `abandoned` seat indexes whose player left the match
    (`Seat.left`, games.results), `autoplay` seat indexes a computer played at the end
    while their player kept a socket open, finished `minutes` after BASE_TIME.
    Returns the Match."""
    creator = next(u for u in seat_users if u is not None)
    table = Table.objects.create(ruleset=ruleset, options=options or {}, mode=mode, creator=creator,
                                 status=Table.Status.FINISHED if finished else Table.Status.PLAYING,
                                 players=len(seat_users))
    for index, user in enumerate(seat_users):
        Seat.objects.create(table=table, index=index, user=user, bot_level="" if user else "normal",
                            autoplay=index in abandoned or index in autoplay, left=index in abandoned,
                            connections=1 if user and index not in abandoned else 0)
    sign = -1 if ruleset == "rami" else 1
    standings = sorted(range(len(totals)), key=lambda s: (sign * totals[s], s))
    return Match.objects.create(
        table=table, totals=list(totals), standings=standings if finished else None,
        rounds_planned=1, finished=BASE_TIME + timedelta(minutes=minutes) if finished else None,
    )
