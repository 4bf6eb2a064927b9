"""Who may open a table's socket, and the count of those watching without a seat.

Anyone — signed in or not — may watch a public table; a private one only its seated
players and visitors with its invite code (`games.invites`). A spectator gets the public
view only (no rack, docs/protocol.md §5) and cannot act or chat. The count (`Table.spectators`)
is the table's live presence rows without a seat (`games.models.Connection`), recounted
whenever a spectator's socket opens or closes, without the game's lock; it goes to the
players' views and the lobby's list of running tables.
"""
from django.db import transaction
from django.utils import timezone

from games.errors import TableError
from games.models import Connection, Game, Table
from games.play import commit, lobby
from games.play.tables import may_see


def may_open(table_id, user, invite=None):
    """Whether `user` (a User or None for an anonymous visitor) may open table `table_id`'s
    socket: whoever may see the table (`tables.may_see`: public, or staff, seated, invited
    to the rematch, or `invite` (str or None) is its code). Returns bool. Raises
    TableError("not_found")."""
    table = Table.objects.filter(pk=table_id).only("private", "invite_code", "rematch_answers").first()
    if table is None:
        raise TableError("not_found")
    return may_see(table, user, invite)


def recount(table_id):
    """Count the live spectator sockets of `table_id` again (after one opened or closed);
    when the count changed, the table's sockets and (for a running table) the lobby hear
    of it. Returns the count. Raises TableError("not_found")."""
    with transaction.atomic():
        live = Connection.objects.filter(table_id=table_id, seat__isnull=True, expires__gt=timezone.now()).count()
        row = (Game.objects.filter(table_id=table_id)
               .values_list("version", "table__status", "table__spectators").first())
        if row is None:
            raise TableError("not_found")
        version, status, before = row
        if live != before:
            table = Table.objects.get(pk=table_id)
            Table.objects.filter(pk=table_id).update(spectators=live)
            commit.send_to_table(table, {"type": "table.update", "version": version, "refresh": True})
            if status == Table.Status.PLAYING:
                lobby.changed()
        return live
