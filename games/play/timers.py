"""The timer tasks of a game's deadline (ARCHITECTURE.md invariant 5): which Celery task
each kind of deadline sends, the token that ties a task to the one deadline it was
armed for, and the sending. The writer (`games.play.commit`) arms the deadline; a task
armed for a deadline that moved on does nothing (`commit.locked_timer`)."""
import logging
from datetime import UTC, datetime, timedelta

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


def deadline_token(deadline):
    """The token a timer task carries for `deadline` (aware datetime): whole microseconds
    since the epoch (int), exact, so a stored deadline read back compares equal."""
    return (deadline - EPOCH) // timedelta(microseconds=1)


def timer_args(game):
    """The arguments of the timer task for `game`'s stored deadline: [game id, deadline
    token] (`deadline_token`; None when the game has no deadline)."""
    return [game.pk, deadline_token(game.deadline) if game.deadline is not None else None]


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
