"""The Celery app of ``bench.floor``: the site's broker settings and one task that does
nothing but count itself, so a worker's CPU per task is Celery's own.

``FLOOR_BROKER`` (a Redis URL, the database ``bench.floor`` claimed) is the broker and
holds the counter. Started by ``bench.floor`` as ``celery -A bench.floor_celery worker``.
"""
import os

import redis
from celery import Celery

app = Celery("okeyfloor", broker=os.environ.get("FLOOR_BROKER", "redis://127.0.0.1:6379/15"))
# The site's choices (okeysite/settings.py): no results, late acks, no ack emulation, the
# timer precision of the bot steps.
app.conf.update(task_ignore_result=True, result_backend=None, task_acks_late=True,
                task_reject_on_worker_lost=True, worker_timer_precision=0.1, worker_hijack_root_logger=False,
                broker_transport_options={"ack_emulation": False, "socket_connect_timeout": 3,
                                          "socket_timeout": 10},
                broker_connection_retry_on_startup=True)
COUNTER = "okeyfloor:done"
_client = None


@app.task(name="floor.touch", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def touch(game_id, token):
    """Count one delivered timer (the shape of the site's timer tasks: a game id and a
    deadline token). Returns None."""
    global _client
    if _client is None:
        _client = redis.Redis.from_url(app.conf.broker_url)
    _client.incr(COUNTER)
