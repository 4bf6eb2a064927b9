"""The Celery application (bot turns, move timeouts, the deadline sweeper).

Configuration comes from Django settings (`CELERY_*`): `memory://` broker when
`REDIS_URL` is unset (worker embedded in the daphne process, see
`okeysite.embedded`), Redis otherwise (`celery -A okeysite worker` and one
`celery -A okeysite beat`, deploy/supervisord.conf).
"""
import logging
import os
import sys

from celery import Celery, signals
from celery.app.amqp import AMQP
from kombu import Connection

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")


class BrokerConnection(Connection):
    """kombu's Connection, trying a lost broker again every second.

    kombu's default backs off 2 s, 4 s, 6 s ... up to 30 s between two tries: after a
    longer Redis outage the worker would still sleep up to 30 s once Redis is back, with
    every table's timers waiting for it. Once a second costs a refused TCP connect."""

    def ensure_connection(self, errback=None, max_retries=None, interval_start=1.0, interval_step=0.0,
                          interval_max=1.0, *args, **kwargs):
        return super().ensure_connection(errback, max_retries, interval_start, interval_step, interval_max,
                                         *args, **kwargs)


class BrokerAMQP(AMQP):
    """Celery's AMQP helper with `BrokerConnection` for every broker connection."""

    Connection = BrokerConnection


@signals.task_prerun.connect
@signals.task_postrun.connect
def close_old_connections(sender=None, **_kwargs):
    """Around each task, drop the database connections that are too old (CONN_MAX_AGE)
    or broken, and keep the rest, as Django does around each request: with
    CELERY_DB_REUSE_MAX set, Celery itself no longer closes them all every task. Not for
    a task applied eagerly, which runs inside its caller's transaction."""
    from django.db import close_old_connections as close_old

    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old()


def _forget_connection_pools():
    # A forked child (Celery's prefork pool) opens its own pool: the parent's sessions,
    # and the pool's threads that keep them, are the parent's.
    wrapper = sys.modules.get("django.db.backends.postgresql.base")
    if wrapper is not None:
        wrapper.DatabaseWrapper._connection_pools.clear()


os.register_at_fork(after_in_child=_forget_connection_pools)

@signals.worker_ready.connect
def sweep_at_start(sender=None, **_kwargs):
    """A worker that starts (or restarts after a crash) asks for a start-up sweep: the
    timers of deadlines due soon that a killed worker held died with it, and the sweep
    sends them again at once (`games.play.turns.sweep`), so they fire on time instead of
    once overdue. Sent by name: this module imports nothing of the site's apps."""
    try:
        app.send_task("games.tasks.sweep", kwargs={"startup": True})
        logging.getLogger("okeysite.celery").info("worker ready: start-up sweep sent")
    except Exception:  # noqa: BLE001 - the periodic sweep is the backstop
        logging.getLogger("okeysite.celery").exception("start-up sweep could not be sent")


app = Celery("okeysite", amqp=BrokerAMQP)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def warm_up():
    """Load now what the first task this process sends would load then: the broker's
    transport module, the producer pool, the result backend and the message builder,
    about 70 ms of imports (380 ms with the first send before). The serving process calls
    it at start, so the first table start after a deploy does not wait for it. Opens no
    connection: a broker that is down is found by the first send, as before. Returns None."""
    app.backend  # noqa: B018 - built on first read
    with app.producer_or_acquire():
        pass
    app.amqp.send_task_message  # noqa: B018 - built on first read
