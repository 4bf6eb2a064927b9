"""Turns on the commit path: a player's action, a move time running out, a computer's
action, the next round's deal, and the sweeper that re-arms lost timers.

Timer functions take the game id and the token of the deadline their timer was armed
for (`timers.timer_args`) and do nothing (return False) when the game's deadline has
moved on to another one (ARCHITECTURE.md invariant 5).
"""
import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from games.engine import api
from games.models import Game, Move, Table
from games.play import commit, computer, presence, seeding
from leaderboards.recording import record_pending

log = logging.getLogger("games.play")

EARLY_TOLERANCE = timedelta(seconds=0.5)  # a move timer firing earlier than this waits for its time
OVERDUE = timedelta(seconds=2)  # a deadline this late has lost its timer: the sweeper sends it again


@dataclass
class Outcome:
    """Result of `submit_action`: `ok` (accepted), the game `version` after it, the
    refusal `code` (RULES.md §7 or a server code) and the `round_end` frame when the
    action ended the round."""

    ok: bool
    version: int
    code: str | None = None
    round_end: dict | None = field(default=None, repr=False)
    text: tuple | None = field(default=None, repr=False)  # the actor's view of `version` (`Write.text_of`)


def submit_action(user, table_id, action, expected_version):
    """Play `action` (RULES.md §7, without or with "seat": the server sets it) for `user`.

    Checks in order (as boardgame.io's master): seated (`not_seated`), match running
    (`not_started`, or `table_not_open` once an admin closed the table), `expected_version` is
    the game's version (`stale_version`), then the engine (`api.step`). A refusal changes
    nothing, except a refusal whose penalty stays (okey17 playable or joker discard,
    RULES.md §4): that position is stored, the version bumped, the refused move logged
    with its penalty, and the turn's clock keeps running (its timer stays armed).
    An accepted action takes the seat back from autoplay.
    Returns Outcome(ok, version, code, round_end, text: the seat's view of the new version as
    serialised, with its language): the caller sends it to the acting socket, and the seat
    group gets it only for the seat's other sockets (`Write.commit` `delivered`).
    Raises TableError("not_found").
    """
    with commit.locked(table_id) as write:
        game = write.game
        seat = write.seat_of(user)
        if seat is None:
            return Outcome(False, game.version, "not_seated")
        if game.position is None:
            return Outcome(False, game.version, "not_started")
        if write.table.status == Table.Status.CLOSED:
            return Outcome(False, game.version, "table_not_open")
        if not write.is_current(expected_version):
            return Outcome(False, game.version, "stale_version")
        played = dict(action)
        played["seat"] = seat.index
        try:
            step = api.step(game.position, played)
        except Exception:  # noqa: BLE001 - an engine bug must refuse the action, not kill the socket
            log.exception("engine failed on %s at table %s", played, table_id)
            return Outcome(False, game.version, "bad_action")
        if not step.changed:
            return Outcome(False, game.version, step.code)
        if step.accepted and (seat.autoplay or seat.consecutive_timeouts):
            seat.autoplay = False
            seat.consecutive_timeouts = 0
            seat.save(update_fields=["autoplay", "consecutive_timeouts"])
        round_end = write.commit(step.position, [commit.Played(seat.index, played, Move.Actor.HUMAN, step)],
                                 delivered=seat.index)
        outcome = Outcome(step.accepted, game.version, step.code, round_end)
    # the views are built once the transaction committed, with the lock released
    outcome.text = write.text_of(seat.index)
    return outcome


def expire_turn(game_id, token):
    """A human's move time ran out (Celery `turn_timeout`): the computer plays that turn.

    Does nothing (returns False) if the deadline moved on from the one of `token` or is
    not a move deadline; sends the timer again if it fired early. Two timeouts in a row put the seat
    on autoplay (RULES.md §6). At a timed solo table this is the one way a computer takes a
    turn from a player who is away (the table waits for them, `presence`: the move clock
    they chose, D-16, still runs). Returns True when it played.
    """
    with commit.locked_timer(game_id, token, Game.Deadline.MOVE) as write:
        if write is None:
            return False
        game = write.game
        if game.deadline and game.deadline > timezone.now() + EARLY_TOLERANCE:
            write.resend_timer()  # fired early (clock skew): try again on time
            return False
        seat = write.seats[game.position["turn"]]
        seat.consecutive_timeouts += 1
        if seat.consecutive_timeouts >= 2:
            seat.autoplay = True
        seat.save(update_fields=["consecutive_timeouts", "autoplay"])
        position, played = computer.play_turn(game, seat, seat.bot_level or write.table.bot_level,
                                              Move.Actor.TIMEOUT)
        if not played:
            return False
        write.commit(position, played)
        return True


def run_bot_turn(game_id, token):
    """A computer (or a human seat on autoplay) plays the rest of its turn (Celery `bot_turn`).

    The whole turn — a draw or a take, the table actions, the discard — is decided at once
    (`computer.play_turn`) and committed as one version whose move history lists each
    action: one task and one broadcast per computer turn instead of one per action. The
    human-like pause stays a timer: OKEY_BOT_DELAY before the turn (`Write._arm`).
    Does nothing (returns False) if the deadline moved on from the one of `token` or is
    not a computer's; if the seat is no longer computer-played (its player came back) the
    human's move deadline is armed instead. Returns True when it played.
    """
    with commit.locked_timer(game_id, token, Game.Deadline.BOT) as write:
        if write is None:
            return False
        seat = write.seats[write.game.position["turn"]]
        if not seat.computer_plays:
            write.commit()
            return False
        actor = Move.Actor.COMPUTER if seat.is_computer else Move.Actor.TIMEOUT
        position, played = computer.play_turn(write.game, seat, seat.bot_level or write.table.bot_level, actor)
        if not played:
            return False
        write.commit(position, played)
        return True


def next_round(game_id, token):
    """Begin the next round of the match (Celery `next_round`, OKEY_NEXT_ROUND_DELAY after
    the last one ended; the first seat rotates, RULES.md §1): committed, then dealt at once
    or after its seeding window (`seeding.begin_round`). Does nothing (returns False) if
    the deadline moved on from the one of `token` or the table no longer plays. Returns True when it began it."""
    with commit.locked_timer(game_id, token, Game.Deadline.NEXT_ROUND) as write:
        if write is None or write.table.status != Table.Status.PLAYING:
            return False
        seeding.begin_round(write, write.game.round.index + 1)  # its deal tells the lobby
        return True


def send_due_timers(startup=False, now=None):
    """The sweep's part of the one scheduler of the timers (ARCHITECTURE.md invariant 5).

    Sends the timer of every playing game whose deadline falls due within the horizon
    (`timers.due_soon`) and has none yet (`commit.send_due_timer`), with the countdown
    left; sends again the timer of a deadline more than OVERDUE late (it was lost) and,
    with `startup` True, of every deadline due soon (a restarted worker or a memory broker
    lost the timers it held; a later deadline is sent once due soon, as ever). `now`
    (aware datetime, default the clock) is the time the sweep acts for. Returns the
    number of timers sent (int)."""
    now = now or timezone.now()
    horizon = now + timedelta(seconds=settings.OKEY_TIMER_HORIZON)
    games = (Game.objects.filter(deadline__isnull=False, deadline__lte=horizon, table__status=Table.Status.PLAYING)
             .exclude(deadline_kind=""))
    if not startup:  # due soon with no timer sent, or overdue
        games = games.filter(Q(timer_sent__isnull=True) | Q(timer_sent__lt=F("deadline"))
                             | Q(timer_sent__gt=F("deadline")) | Q(deadline__lt=now - OVERDUE))
    sent = 0
    for game in games.only("pk", "deadline_kind", "deadline"):
        again = startup or game.deadline < now - OVERDUE
        sent += commit.send_due_timer(game.pk, game.deadline_kind, game.deadline, again=again)
    if startup:
        log.info("start-up sweep: %s timers due soon sent again", sent)
    return sent


def sweep(startup=False):
    """The scheduler and backstop of the timers and the backstop of match recording
    (ARCHITECTURE.md invariant 5).

    Sends the timers due soon and again those lost (`send_due_timers`; `startup` True:
    every one due soon, since a restarted worker or memory broker lost what it held), then
    records the finished matches not yet recorded (`leaderboards.recording.record_pending`:
    a crash between a match's commit and its after-commit recording loses nothing), and
    drops the presence rows of sockets that stopped refreshing them
    (`presence.expire_connections`: at an online table a seat whose sockets all died goes
    on autoplay; a solo table waits for its player).
    Returns {"timers": timers sent, "recorded": matches recorded, "connections": rows dropped}.
    """
    return {"timers": send_due_timers(startup), "recorded": record_pending(),
            "connections": presence.expire_connections()}
