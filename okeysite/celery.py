"""The Celery application (bot turns, move timeouts, the deadline sweeper).

Configuration comes from Django settings (`CELERY_*`): `memory://` broker when
`REDIS_URL` is unset (worker embedded in the daphne process, see
`okeysite.embedded`), Redis otherwise (`celery -A okeysite worker -B`).
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")

app = Celery("okeysite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
