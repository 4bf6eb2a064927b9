"""Who may open a table's socket, and the count of those watching without a seat.

Anyone — signed in or not — may watch a public table; a private one only its seated
players and visitors with its invite code (`games.invites`). A spectator gets the public
view only (no rack, PROTOCOL.md) and cannot act or chat. The count (`Table.spectators`)
goes to the players' views and the lobby's list of running tables.
"""
from django.db.models import F
from django.db.models.functions import Greatest

from games.errors import TableError
from games.models import Seat, Table
from games.play import commit
from games.play.tables import invite_matches


def may_open(table_id, user, invite=None):
    """Whether `user` (a User or None for an anonymous visitor) may open table `table_id`'s
    socket: seated there (a player who left the match included), or the table is public,
    or `invite` (str or None) is its invite code. Returns bool. Raises TableError("not_found")."""
    table = Table.objects.filter(pk=table_id).only("private", "invite_code").first()
    if table is None:
        raise TableError("not_found")
    if user is not None and Seat.objects.filter(table_id=table_id, user=user).exists():
        return True
    return invite_matches(table, invite)


def change(table_id, delta):
    """Count one spectator socket opening (`delta` 1) or closing (-1) at `table_id`; the
    players and the lobby see the new count. Returns the count. Raises TableError("not_found")."""
    with commit.locked(table_id) as write:
        Table.objects.filter(pk=table_id).update(spectators=Greatest(F("spectators") + delta, 0))
        write.table.refresh_from_db(fields=["spectators"])
        write.notify()
        if write.table.status == Table.Status.PLAYING:
            write.lobby_changed()
        return write.table.spectators
