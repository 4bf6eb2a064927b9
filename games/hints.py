"""The first-game hint line: shown on a player's first solo table (the table page)."""
from games.models import Table


def is_first_game(table, user):
    """True when `table` is a solo table of `user` (signed in) and `user` has no other
    solo table before it: the page then shows what to do (draw, arrange, open, discard).
    Args: `table` (Table), `user` (a User or None). Returns bool."""
    if user is None or table.mode != Table.Mode.SOLO or table.creator_id != user.pk:
        return False
    return not Table.objects.filter(creator=user, mode=Table.Mode.SOLO, pk__lt=table.pk).exists()
