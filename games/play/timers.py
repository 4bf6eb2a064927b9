"""The timer tasks of a game's deadline (ARCHITECTURE.md invariant 5): which Celery task
each kind of deadline sends, the token that ties a task to the one deadline it was
armed for, when it is sent, and the sending. The writer (`games.play.commit`) arms the
deadline; a task armed for a deadline that moved on does nothing (`commit.locked_timer`).

A timer is sent only once its deadline is due soon (`due_soon`, OKEY_TIMER_HORIZON
seconds): by the writer when the deadline it arms is that close (a computer's turn, a
seeding window), else by the sweep that finds it so (`turns.sweep`, every
OKEY_SWEEP_INTERVAL seconds) with the countdown left. A human's move time is mostly met
long before it runs out: its timer is then never sent at all, where it used to wait in
a worker for the whole move time and fire for nothing. `Game.timer_sent` says which
deadline's timer went out, so each is sent once."""
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Game
from okeysite.celery import app as celery_app

log = logging.getLogger("games.play")

TIMER_TASKS = {  # sent by name: the writer never imports games.tasks
    Game.Deadline.MOVE: "games.tasks.turn_timeout",
    Game.Deadline.BOT: "games.tasks.bot_turn",
    Game.Deadline.NEXT_ROUND: "games.tasks.next_round",
    Game.Deadline.SEED: "games.tasks.seeding_timeout",
}


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Deadline:
    """One deadline of a game: `kind` (a `Game.Deadline`), `at` (aware datetime, or None
    with kind NONE) and `turn` (the seat it is for, or None outside a turn)."""

    kind: str
    at: datetime | None = None
    turn: int | None = None


NO_DEADLINE = Deadline(Game.Deadline.NONE)


@dataclass(frozen=True)
class SeatToMove:
    """Who plays the seat to move: `computer_plays` (a computer plays it now), `autoplay`
    (its player is on autoplay after timeouts), `left` (its player left the match),
    `is_computer` (no human ever sat there), `connected` (a socket of its player is open)."""

    computer_plays: bool
    autoplay: bool = False
    left: bool = False
    is_computer: bool = False
    connected: bool = True

    @classmethod
    def of(cls, seat):
        """The facts of a `Seat` row (games.models.Seat)."""
        return cls(seat.computer_plays, seat.autoplay, seat.left, seat.is_computer, seat.connected)


@dataclass(frozen=True)
class Delays:
    """The waits of a table, in seconds: `move_time` (a human's turn, D-16), `bot` (before a
    computer starts a turn), `bot_step` (a computer taking a seat over within a turn),
    `grace` (after a player's last socket closed in their own turn, RULES.md §6),
    `next_round` (between rounds); `practice` (bool: a human's turn has no clock)."""

    move_time: float
    bot: float
    bot_step: float
    grace: float
    next_round: float
    practice: bool = False

    @classmethod
    def of(cls, table, settings):
        """The delays of `table` (a Table) under Django `settings`."""
        return cls(table.move_time, settings.OKEY_BOT_DELAY, settings.OKEY_BOT_STEP_DELAY,
                   settings.OKEY_DISCONNECT_GRACE, settings.OKEY_NEXT_ROUND_DELAY, bool(table.practice))


@dataclass(frozen=True)
class Reached:
    """The state a commit reached, as the deadline rule reads it: `playing` (the table is
    playing), `dealt` (a round position exists), `over` (that round is over),
    `round_ended` (this commit ended it), `turn` (the seat to move, int or None),
    `new_turn` (the round or the seat to move changed since the lock), `computer_acted`
    (a computer played one of this commit's actions)."""

    playing: bool
    dealt: bool
    over: bool = False
    round_ended: bool = False
    turn: int | None = None
    new_turn: bool = False
    computer_acted: bool = False


def next_deadline(stored, reached, seat, delays, now, turn_clock=lambda: None):
    """The one deadline of the state a commit reached (ARCHITECTURE.md invariant 5), or
    None to keep the `stored` one. Pure: it reads only its arguments.

    Args: `stored` (the game's `Deadline` now), `reached` (`Reached`), `seat` (`SeatToMove`
    of the seat to move, or None outside a turn), `delays` (`Delays`, seconds), `now`
    (aware datetime), `turn_clock` (called at most once, with no argument: the move
    deadline the seat had in this turn, the move time from the turn's start, or None once
    a computer acted for it in the turn).
    Returns a `Deadline` to store, or None.

    No deadline once the table stopped or before a deal; an open seeding window keeps its
    `seed` deadline (the deal clears it first). A round just over: the next round's deal
    after `next_round`. A new turn: a computer-played seat moves after `bot` (three times
    that on autoplay, so the player can come back), a human gets the move time (D-16).
    Within a turn the deadline stays while it fits who plays the seat to move (a refused
    discard's penalty keeps the clock); when a computer takes the seat over within the
    turn it plays `bot_step` later (it plays its whole turn in one commit), except for a
    player whose last socket just closed in their own turn (RULES.md §6): the computer
    plays after `grace`, never later than the player's clock, so the others do not wait
    out the move time. A human taking the seat back before the computer acted in the turn
    keeps the clock of the turn; after the computer acted, a full move time. A practice
    table has no move clock.
    """
    if reached.playing and stored.kind == Game.Deadline.SEED:
        return None
    if not reached.playing or not reached.dealt:
        return NO_DEADLINE
    if reached.over:
        if reached.round_ended or stored.kind != Game.Deadline.NEXT_ROUND:
            return Deadline(Game.Deadline.NEXT_ROUND, now + timedelta(seconds=delays.next_round))
        return None
    kind = Game.Deadline.BOT if seat.computer_plays else Game.Deadline.MOVE
    fits = stored.kind == kind and stored.at is not None
    at = stored.at
    if seat.computer_plays and reached.new_turn:
        waits_for_return = seat.autoplay and not seat.left  # a player who left never comes back
        at = now + timedelta(seconds=delays.bot * (3 if waits_for_return else 1))
    elif seat.computer_plays and not fits and not reached.computer_acted and not seat.is_computer \
            and not seat.connected:
        at = now + timedelta(seconds=delays.grace)
        if stored.kind == Game.Deadline.MOVE and stored.at is not None:
            at = min(at, stored.at)
    elif seat.computer_plays:
        if reached.computer_acted or not fits:
            at = now + timedelta(seconds=delays.bot_step)
    elif not reached.new_turn and not reached.computer_acted and stored.kind == Game.Deadline.BOT:
        at = max(now, turn_clock() or now + timedelta(seconds=delays.move_time))
    elif reached.new_turn or reached.computer_acted or not fits:
        at = now + timedelta(seconds=delays.move_time)
    if kind == Game.Deadline.MOVE and delays.practice:
        return Deadline(Game.Deadline.NONE, None, reached.turn)  # practice: think as long as you like
    return Deadline(kind, at, reached.turn)


def deadline_token(deadline):
    """The token a timer task carries for `deadline` (aware datetime): whole microseconds
    since the epoch (int), exact, so a stored deadline read back compares equal."""
    return (deadline - EPOCH) // timedelta(microseconds=1)


def timer_args(game):
    """The arguments of the timer task for `game`'s stored deadline: [game id, deadline
    token] (`deadline_token`; None when the game has no deadline)."""
    return [game.pk, deadline_token(game.deadline) if game.deadline is not None else None]


def due_soon(deadline, now):
    """Whether the timer of `deadline` (aware datetime) is sent now (`now`, aware datetime):
    it falls due within OKEY_TIMER_HORIZON seconds, or is past. Returns bool."""
    return deadline - now <= timedelta(seconds=settings.OKEY_TIMER_HORIZON)


def send_timer(kind, args, deadline):
    """Send the Celery task of a `kind` deadline (a `Game.Deadline`) with `args`
    (`timer_args` of the game), due at `deadline` (aware datetime; countdown in seconds
    from now, at least 0). A broker failure is logged: the sweeper re-arms what could not
    be sent."""
    countdown = max(0.0, (deadline - timezone.now()).total_seconds())
    try:
        celery_app.send_task(TIMER_TASKS[kind], args=args, countdown=countdown)
    except Exception:  # noqa: BLE001 - a lost timer is the sweeper's to re-arm, never the move's to undo
        log.exception("could not schedule %s for game %s", kind, args[0])
