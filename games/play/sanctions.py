"""What a suspension or a ban means at the game tables: the user's seats are released
(PLAYERS.md complaint 5: the reason is shown to the others too).

`accounts` sends `accounts.moderation.sanctioned` once a sanction is committed and never
imports the games; `games.apps` connects `on_sanction` to it.
"""
from games.errors import TableError
from games.models import Seat, Table
from games.play import commit
from games.play.tables import close_table, leave_table


def on_sanction(sender, sanction, **kwargs):
    """Receiver of `accounts.moderation.sanctioned`: a suspension or ban (`keeps_out`)
    releases the user's seats (`release_seats`) with the sanction's reason; a mute keeps
    them."""
    if sanction.keeps_out:
        release_seats(sanction.user, sanction.reason)


def release_seats(user, reason):
    """A suspended or banned `user` loses their seats.

    Their solo tables (open or playing) are closed with `reason` (`close_table`); on online
    tables still open they leave (`leave_table`: a creator leaving closes the table); on
    online tables being played their seat goes on autoplay, so the computer plays it from
    now on and the other players' match goes on (RULES.md §6 autoplay). The seat stays
    theirs on record (match results) but they cannot take it back while sanctioned: their
    sockets are refused.

    Args: `user` (the sanctioned user), `reason` (str, the sanction's reason).
    Returns {"closed": [table ids], "left": [table ids], "autoplay": [table ids]}.
    """
    done = {"closed": [], "left": [], "autoplay": []}
    active = [Table.Status.OPEN, Table.Status.PLAYING]
    tables = (Seat.objects.filter(user=user, table__status__in=active)
              .values_list("table_id", "table__mode", "table__status").distinct())
    for table_id, mode, status in list(tables):
        if mode == Table.Mode.SOLO:
            if close_table(table_id, reason):
                done["closed"].append(table_id)
        elif status == Table.Status.OPEN:
            try:
                leave_table(user, table_id)
                done["left"].append(table_id)
            except TableError:
                pass  # the match started meanwhile: handled on the next sanction check
        elif _seat_to_autoplay(user, table_id):
            done["autoplay"].append(table_id)
    return done


def _seat_to_autoplay(user, table_id):
    """Put `user`'s seat at a playing table on autoplay; on their turn the commit arms the
    computer's move right away. Returns True when the seat changed."""
    with commit.locked(table_id) as write:
        if write.table.status != Table.Status.PLAYING:
            return False
        seat = write.seat_of(user)
        if seat is None or seat.autoplay:
            return False
        seat.autoplay = True
        seat.save(update_fields=["autoplay"])
        write.commit(refresh=True)
        return True
