"""Presence on the commit path: a player's sockets opening, closing or going silent, and
taking the seat back from autoplay (RULES.md §6, PLAYERS.md complaint 3: a dropped
connection keeps the seat, a computer plays it meanwhile, the player gets it back on return).
That stand-in is §6's rule for online tables, where other humans would wait for the seat; a
solo table has nobody waiting and waits for its player (docs/rules-notes.md): a practice
table without end, a timed one on its move clock (a turn that times out is still the
computer's to play, two in a row put the seat on autoplay: D-16, §6 timeouts).

Each socket has a `Connection` row that lives OKEY_PRESENCE_TTL seconds past its last
refresh (the consumer refreshes it while its client keeps sending: the heartbeat). A seat
is connected while it has a live row; `Seat.connections` is the count of those rows,
recounted under the game lock at every change, so a socket whose process died stops
counting once its row expires (`expire_connections`, from the sweeper) instead of leaving
the seat "connected" for ever. The same rows give the per-user and per-IP socket caps
(`open_connection`); a socket over a cap, at a table or in the lobby, is closed with
CAP_CLOSE_CODE.

Connections change what the others see (`connected`, `autoplay`) without moving the game
on, so they keep the version unless who plays the seat to move changes: then the commit
re-arms the deadline (at an online table the computer plays a disconnected player's turn
after a short grace; a player back before the computer acted keeps the clock of the turn).
"""
import uuid
from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.engine import api
from games.models import Connection, Game, Table
from games.play import commit

CAP_CLOSE_CODE = 4429  # the user or the address has too many sockets open (the client retries later)


def _expiry():
    return timezone.now() + timedelta(seconds=settings.OKEY_PRESENCE_TTL)


def _give_back(write, seat):
    # The computer was about to play this seat's turn: the player has it again.
    game = write.game
    return (write.table.status == Table.Status.PLAYING and game.position is not None
            and game.deadline_kind == Game.Deadline.BOT and game.position.get("turn") == seat.index)


def _stands_in(write):
    # RULES.md §6: at an online table the others would wait out a dropped player, so a
    # computer plays the seat meanwhile. At a solo table nobody waits: the table waits for
    # its player, and only the move clock they chose (none when practising) hands a turn
    # to the computer (turns.expire_turn). A player who closed the page while the table
    # was still waiting for its start is just as absent once it starts: the seat goes on
    # autoplay now, so the match starts with the computer in it (never their move clock,
    # twice, before the timeouts put it there), and a socket opening before or after the
    # start gives it back as in play.
    return (write.table.status in (Table.Status.OPEN, Table.Status.PLAYING)
            and write.table.mode == Table.Mode.ONLINE)


def _takes_over(write, seat):
    # The seat's player is to move with their own clock running: the computer takes the turn.
    game = write.game
    return (write.table.status == Table.Status.PLAYING and game.position is not None
            and not api.is_over(game.position) and game.deadline_kind == Game.Deadline.MOVE
            and game.position.get("turn") == seat.index)


def _live_count(seat):
    return Connection.objects.filter(seat=seat, expires__gt=timezone.now()).count()


def open_connection(channel, user, ip, table_id, capped=True):
    """Record a new socket (`channel`: its Channels name) of `user` (or None) from address
    `ip` (str, may be "") at table `table_id`, without a seat yet and without the game lock.

    Refused when `user` already has OKEY_WS_MAX_PER_USER live sockets, or `ip` has
    OKEY_WS_MAX_PER_IP (rows of sockets that died count until they expire); `capped`
    False records an open socket again without the caps. Returns None when recorded,
    else the refusal code "too_many_sockets" (nothing recorded)."""
    live = Connection.objects.filter(expires__gt=timezone.now())
    if capped and user is not None and live.filter(user=user).count() >= settings.OKEY_WS_MAX_PER_USER:
        return "too_many_sockets"
    if capped and ip and live.filter(ip=ip).count() >= settings.OKEY_WS_MAX_PER_IP:
        return "too_many_sockets"
    Connection.objects.update_or_create(channel=channel, defaults={
        "user": user, "ip": ip[:64], "table_id": table_id, "seat": None, "expires": _expiry()})
    return None


def refresh(channel):
    """Push the expiry of socket `channel`'s row OKEY_PRESENCE_TTL seconds on. Returns
    False when the row is gone (it expired: the caller records the socket again)."""
    return Connection.objects.filter(channel=channel).update(expires=_expiry()) > 0


def close_connection(channel):
    """Forget socket `channel` (a spectator's, or one never seated). Returns None."""
    Connection.objects.filter(channel=channel).delete()


def _seat_connects(write, seat, origin):
    before = (seat.connected, seat.autoplay)
    seat.connections = _live_count(seat)
    handover = seat.autoplay and _give_back(write, seat)  # who plays the seat to move changes
    seat.autoplay = False
    seat.consecutive_timeouts = 0
    if write.table.status == Table.Status.PLAYING:  # a finished match's verdict stays (games.results)
        seat.away_turns = 0  # back at the table: the count towards having left starts again
    return before, handover


def _seat_disconnects(write, seat):
    before = (seat.connected, seat.autoplay)
    seat.connections = _live_count(seat)
    handover = False
    if _stands_in(write) and seat.connections == 0:
        handover = not seat.autoplay and _takes_over(write, seat)
        seat.autoplay = True
    return before, handover


def _publish(write, seat, before, handover, origin=None):
    seat.save(update_fields=["connections", "autoplay", "consecutive_timeouts", "away_turns"])
    if handover:
        write.commit(refresh=True, origin=origin)
    elif (seat.connected, seat.autoplay) != before:  # a second tab changes nothing others see
        write.notify(origin=origin)


def set_connected(user, table_id, connected, origin=None, channel=None):
    """A socket of `user` at the table opening (`connected` True) or closing.

    `channel` names the socket's `Connection` row (None: a row of its own is made on
    opening, and any one row of the seat goes on closing). The last live socket closing
    at an online table, during its match or while it waits for its start, puts the seat
    on autoplay (RULES.md §6). In the
    seat's own turn the computer then plays that turn after OKEY_DISCONNECT_GRACE (never
    later than the player's clock: the others do not wait out the move time); in another
    seat's turn it plays the seat's next turns. A solo table waits for its player instead:
    no autoplay, the deadline stays (none at a practice table, the move clock else). A
    socket opening gives the seat back: back within the grace, the player keeps the turn
    with the clock they had. `origin` (a consumer's channel name) travels with the
    broadcast so the socket that connected, which sends its own snapshot, does not get it
    twice. Returns the seat index, or None when `user` is not seated (a closing socket's
    row goes either way). Raises TableError("not_found").
    """
    with commit.locked(table_id) as write:
        seat = write.seat_of(user)
        if not connected and channel is not None:
            Connection.objects.filter(channel=channel).delete()
        if seat is None:
            return None
        if connected:
            updated = channel is not None and Connection.objects.filter(channel=channel).update(
                seat=seat, expires=_expiry())
            if not updated:
                Connection.objects.create(channel=channel or f"local-{uuid.uuid4().hex}", user=user,
                                          table_id=table_id, seat=seat, expires=_expiry())
            before, handover = _seat_connects(write, seat, origin)
        else:
            if channel is None:
                row = Connection.objects.filter(seat=seat).order_by("expires").first()
                if row is not None:
                    row.delete()
            before, handover = _seat_disconnects(write, seat)
        _publish(write, seat, before, handover, origin)
        return seat.index


def expire_connections():
    """Drop the `Connection` rows whose socket stopped refreshing them (its process died,
    or its client went silent) and treat each seat left without a live row as
    disconnected (`set_connected(False)`: at an online table autoplay, the computer at its
    turn; a solo table waits for its player). Called by
    the sweeper (`games.play.turns.sweep`). Returns the number of rows dropped."""
    now = timezone.now()
    expired = Connection.objects.filter(expires__lte=now)
    dropped, _ = expired.filter(seat__isnull=True).delete()
    for table_id in sorted(set(expired.values_list("table_id", flat=True))):
        with commit.locked(table_id) as write:
            rows = Connection.objects.filter(Q(table_id=table_id) & Q(expires__lte=timezone.now()))
            seat_ids = set(rows.values_list("seat_id", flat=True))
            dropped += rows.delete()[0]
            handover = changed = False
            for seat in write.seats:
                if seat.pk in seat_ids:
                    before, hands_over = _seat_disconnects(write, seat)
                    seat.save(update_fields=["connections", "autoplay", "consecutive_timeouts"])
                    handover = handover or hands_over
                    changed = changed or (seat.connected, seat.autoplay) != before
            if handover:  # one commit (one version) for every seat the sweep took over
                write.commit(refresh=True)
            elif changed:
                write.notify()
    return dropped


def resume_seat(user, table_id):
    """The player takes the seat back from autoplay (docs/protocol.md §2 `resume`).
    Returns the seat index, or None when `user` is not seated. Raises TableError("not_found")."""
    with commit.locked(table_id) as write:
        seat = write.seat_of(user)
        if seat is None:
            return None
        if seat.autoplay or seat.consecutive_timeouts:
            give_back = _give_back(write, seat)
            seat.autoplay = False
            seat.consecutive_timeouts = 0
            seat.save(update_fields=["autoplay", "consecutive_timeouts"])
            if give_back:
                write.commit(refresh=True)
            else:
                write.notify()
        return seat.index
