"""How late the timers fire: each timer task carries its deadline (`timers.deadline_token`,
microseconds since the epoch), so the moment it starts against that deadline is its
lateness. The last SAMPLES of them are kept in the cache, shared by every process (Redis in
the scaled set-up, the file cache in the embedded one), for the metrics and the dashboard.
Losing a sample under a race is harmless: these are figures for an operator, not state.
"""
import time

from celery import signals
from django.core.cache import cache

SAMPLES = 512
KEY = "okeysite:lateness"
TIMER_TASKS = {"games.tasks.bot_turn", "games.tasks.turn_timeout", "games.tasks.next_round",
               "games.tasks.seeding_timeout"}


def record(task, game_id, lateness, *, now=None):
    """Keep one sample: `task` (str, Celery task name), `game_id` (int), `lateness`
    (seconds; negative when early). Never raises (a cache failure drops the sample)."""
    try:
        cache.add(f"{KEY}:n", 0, None)
        n = cache.incr(f"{KEY}:n")
        cache.set(f"{KEY}:{n % SAMPLES}", (round(lateness, 4), game_id, task, now or time.time()), 86_400)
    except Exception:  # noqa: BLE001 - figures only
        pass


def recent():
    """The kept samples, newest first: [(lateness s, game id, task, unix time s)]."""
    found = cache.get_many([f"{KEY}:{i}" for i in range(SAMPLES)])
    return sorted((tuple(v) for v in found.values()), key=lambda s: -s[3])


def quantile(values, q):
    """The `q` quantile (0..1) of `values` (a list of numbers) by nearest rank; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


@signals.task_prerun.connect(dispatch_uid="okeysite.operations.lateness")
def _on_task_start(sender=None, task=None, args=None, **_kwargs):
    name = getattr(task, "name", "")
    if name not in TIMER_TASKS or not args or len(args) < 2 or not isinstance(args[1], int):
        return
    record(name, args[0], time.time() - args[1] / 1_000_000)
