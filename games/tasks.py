"""Celery tasks: computer turns, move timeouts, next rounds, seeding windows and the sweeper.

The commit path sends the timer tasks by name (`games.play.timers.TIMER_TASKS`), one per
deadline. Each carries the game and the token of the deadline it was armed for
(`timers.timer_args`) and does nothing when the game's deadline has moved on to another
one (ARCHITECTURE.md invariant 5), so duplicates and late deliveries are harmless —
hence `acks_late` with `reject_on_worker_lost` for a broker that redelivers. On Redis
the worker takes each message off the queue as it reads it (no acknowledgement
emulation, okeysite/settings.py): a timer lost with its worker is the sweeper's to send
again.
"""
import logging
import time

from celery import shared_task

from accounts import erasure
from games import compaction, reviews
from games.arena import service as arena
from games.play import quickmatch, rematch, seeding, turns

log = logging.getLogger("games.tasks")

TIMER_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="games.tasks.bot_turn", **TIMER_OPTIONS)
def bot_turn(game_id, token):
    """A computer plays its turn at `game_id` if its deadline is still the one of `token`
    (int, `timers.deadline_token`). Returns bool (played)."""
    return turns.run_bot_turn(game_id, token)


@shared_task(name="games.tasks.turn_timeout", **TIMER_OPTIONS)
def turn_timeout(game_id, token):
    """The move time of the player to move ran out (RULES.md §6). Logs how late the timer
    fired against the deadline it was armed for (the timers' one scheduler should keep it
    within half a second). Returns bool (played)."""
    if token is not None:
        late = time.time() - token / 1e6  # the token is the deadline in microseconds since the epoch
        log.info("move timer of game %s fired %.3f s after its deadline", game_id, late)
    return turns.expire_turn(game_id, token)


@shared_task(name="games.tasks.next_round", **TIMER_OPTIONS)
def next_round(game_id, token):
    """Deal the next round after the score table pause. Returns bool (dealt)."""
    return turns.next_round(game_id, token)


@shared_task(name="games.tasks.quick_start", **TIMER_OPTIONS)
def quick_start(table_id):
    """A quick-match table's wait is over: start it with computers in the free seats
    (`quickmatch.start_due`). Returns bool (started)."""
    return quickmatch.start_due(table_id)


@shared_task(name="games.tasks.rematch_start", **TIMER_OPTIONS)
def rematch_start(table_id):
    """A rematch's answer time is over: start it with computers in the free seats
    (`rematch.start_due`). Returns bool (started)."""
    return rematch.start_due(table_id)


@shared_task(name="games.tasks.seeding_timeout", **TIMER_OPTIONS)
def seeding_timeout(game_id, token):
    """The seeding window before a deal passed: deal with the seeds that arrived. Returns bool (dealt)."""
    return seeding.close_window(game_id, token)


@shared_task(name="games.tasks.review_round", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def review_round(round_id):
    """Review the human seats of finished round `round_id` (`reviews.store_round_reviews`,
    idempotent: a seat already reviewed is skipped). Returns the number of reviews written."""
    return reviews.store_round_reviews(round_id)


@shared_task(name="games.tasks.sweep", ignore_result=True)
def sweep(startup=False):
    """Re-arm overdue deadlines, record finished matches not yet recorded, drop expired
    socket presence rows, start the quick-match tables and rematches whose start task
    was lost, and run the arenas (`games.arena.service.tick`: the scheduled arenas made,
    finished matches scored, waiting players paired), and every few minutes remove the
    guest accounts unused for 7 days (`accounts.erasure.remove_stale_guests_when_due`), and
    every few minutes review the rounds of the last day whose review task was lost
    (`reviews.review_lost_when_due`)
    (periodic; `startup` re-arms every pending deadline). Returns {"timers", "recorded",
    "connections", "quick_started", "rematches_started", "arenas", "guests_removed",
    "reviews"} counts."""
    done = turns.sweep(startup=startup)
    done["quick_started"] = quickmatch.start_overdue()
    done["rematches_started"] = rematch.start_overdue()
    done["arenas"] = arena.tick()
    done["guests_removed"] = erasure.remove_stale_guests_when_due()
    done["reviews"] = reviews.review_lost_when_due()
    return done


@shared_task(name="games.tasks.compact_matches", ignore_result=True)
def compact_matches():
    """Fold the move rows of old finished matches into their rounds' archived entries
    (`games.compaction.compact_old_matches`; periodic, hourly). Returns its counts."""
    return compaction.compact_old_matches()
