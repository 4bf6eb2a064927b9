"""The first-game hint: shown on a player's first game of any kind (solo, Play now, an
invitation or a private table). The table page's start-up data carries the flag; the
table client writes the hint with the words for the seat's phase."""
from games.models import Match, Seat


def is_first_game(table, user):
    """True when `user` (signed in) holds a seat at `table` and has played at no other
    table before it: no seat of theirs at another table whose match started earlier (for a
    table still open, at any table whose match started). A table left before its start
    never counts: no game was played there.
    Args: `table` (Table), `user` (a User or None). Returns bool."""
    if user is None or not Seat.objects.filter(table=table, user=user, left=False).exists():
        return False
    earlier = Seat.objects.filter(user=user, table__match__isnull=False).exclude(table=table)
    match_id = Match.objects.filter(table=table).values_list("pk", flat=True).first()
    if match_id is not None:
        earlier = earlier.filter(table__match__pk__lt=match_id)
    return not earlier.exists()
