"""Presence on the commit path: a player's sockets opening and closing, and taking the
seat back from autoplay (RULES.md §6, PLAYERS.md complaint 3: a dropped connection keeps
the seat, a computer plays it meanwhile, the player gets it back on return).

Connections change what the others see (`connected`, `autoplay`) without moving the game
on, so they keep the version unless who plays the seat to move changes: then the commit
re-arms the deadline (the computer plays a disconnected player's turn after a short grace;
a player back before the computer acted keeps the clock of the turn).
"""
from games.engine import api
from games.models import Game, Table
from games.play import commit


def _give_back(write, seat):
    # The computer was about to play this seat's turn: the player has it again.
    game = write.game
    return (write.table.status == Table.Status.PLAYING and game.position is not None
            and game.deadline_kind == Game.Deadline.BOT and game.position.get("turn") == seat.index)


def _takes_over(write, seat):
    # The seat's player is to move with their own clock running: the computer takes the turn.
    # A practice table has no move clock (no deadline in a human's turn): a disconnect
    # still hands the turn to the computer.
    game = write.game
    clock = (Game.Deadline.MOVE, Game.Deadline.NONE) if write.table.practice else (Game.Deadline.MOVE,)
    return (write.table.status == Table.Status.PLAYING and game.position is not None
            and not api.is_over(game.position) and game.deadline_kind in clock
            and game.position.get("turn") == seat.index)


def set_connected(user, table_id, connected, origin=None):
    """Count a socket of `user` at the table opening (`connected` True) or closing.

    The last socket closing during a match puts the seat on autoplay. In the seat's own
    turn the computer then plays that turn after OKEY_DISCONNECT_GRACE (never later than
    the player's clock: the others do not wait out the move time); in another seat's turn
    it plays the seat's next turns. A socket opening gives the seat back: back within the
    grace, the player keeps the turn with the clock they had. `origin` (a consumer's
    channel name) travels with the broadcast so the socket that connected, which sends its
    own snapshot, does not get it twice. Returns the seat index, or None when `user` is
    not seated. Raises TableError("not_found").
    """
    with commit.locked(table_id) as write:
        seat = write.seat_of(user)
        if seat is None:
            return None
        before = (seat.connected, seat.autoplay)
        if connected:
            seat.connections += 1
            handover = seat.autoplay and _give_back(write, seat)  # who plays the seat to move changes
            seat.autoplay = False
            seat.consecutive_timeouts = 0
        else:
            seat.connections = max(0, seat.connections - 1)
            handover = False
            if write.table.status == Table.Status.PLAYING and seat.connections == 0:
                handover = not seat.autoplay and _takes_over(write, seat)
                seat.autoplay = True
        seat.save(update_fields=["connections", "autoplay", "consecutive_timeouts"])
        if handover:
            write.commit(refresh=True, origin=origin)
        elif (seat.connected, seat.autoplay) != before:  # a second tab changes nothing others see
            write.notify(origin=origin)
        return seat.index


def resume_seat(user, table_id):
    """The player takes the seat back from autoplay (PROTOCOL.md `resume`).
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
