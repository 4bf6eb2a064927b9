"""The Celery application (bot turns, move timeouts, the deadline sweeper).

Configuration comes from Django settings (`CELERY_*`): `memory://` broker when
`REDIS_URL` is unset (worker embedded in the daphne process, see
`okeysite.embedded`), Redis otherwise (`celery -A okeysite worker` and one
`celery -A okeysite beat`, deploy/supervisord.conf).
"""
import os

from celery import Celery
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


app = Celery("okeysite", amqp=BrokerAMQP)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
