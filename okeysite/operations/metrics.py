"""`/metrics`: the site's figures in Prometheus's text format (prometheus_client).

The figures that describe the whole site (live tables, sockets, versions per second, timer
lateness, the Celery queue) are read at scrape time from what every process shares (the
database, the cache, the broker), so any process behind the proxy answers the same.
`okeysite_errors_total` counts the ERROR log records of the answering process (labelled by
its pid): scrape each process for it.

Only staff, or a request carrying `Authorization: Bearer <OKEY_METRICS_TOKEN>`, may read it;
anyone else gets 403 and nothing else.
"""
import hmac
import logging
import os
from datetime import timedelta

from django.conf import settings
from django.db.models import Count
from django.http import HttpResponse, HttpResponseForbidden
from django.utils import timezone
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, generate_latest
from prometheus_client.core import GaugeMetricFamily

from okeysite.operations import lateness

WINDOW = 60  # seconds over which versions per second are counted

ERRORS = Counter("okeysite_errors", "ERROR log records of this process", ["pid"], registry=None)


class ErrorCounter(logging.Handler):
    """A logging handler that counts ERROR and worse records in `ERRORS` (installed on the
    root, `games` and `okeysite` loggers by settings.LOGGING)."""

    def __init__(self):
        super().__init__(level=logging.ERROR)

    def emit(self, record):
        ERRORS.labels(pid=str(os.getpid())).inc()


def queue_length():
    """Messages waiting in the Celery queue (int), or None when the broker is the embedded
    in-process one or cannot be read."""
    from okeysite.celery import app

    if app.conf.broker_url.startswith("memory"):
        return None
    try:
        with app.connection_for_read() as conn:
            return conn.default_channel.client.llen(app.conf.task_default_queue)
    except Exception:  # noqa: BLE001 - an unreadable broker is reported as absent
        return None


class SiteCollector:
    """Reads the site-wide figures at each scrape (see the module docstring)."""

    def collect(self):
        from games.models import Connection, Move, Table

        now = timezone.now()
        tables = GaugeMetricFamily("okeysite_live_tables", "Tables being played", labels=["ruleset"])
        for row in (Table.objects.filter(status=Table.Status.PLAYING).values("ruleset")
                    .order_by().annotate(n=Count("id"))):
            tables.add_metric([row["ruleset"]], row["n"])
        yield tables
        sockets = Connection.objects.filter(expires__gt=now)
        yield GaugeMetricFamily("okeysite_sockets", "Open table sockets (seated and watching)",
                                value=sockets.count())
        yield GaugeMetricFamily("okeysite_players_online", "Distinct signed-in users with a table socket open",
                                value=sockets.exclude(user=None).values("user").distinct().count())
        moves = Move.objects.filter(created__gte=now - timedelta(seconds=WINDOW)).count()
        yield GaugeMetricFamily("okeysite_versions_per_second",
                                f"Game versions committed per second over the last {WINDOW} s", value=moves / WINDOW)
        samples = [s[0] for s in lateness.recent()]
        late = GaugeMetricFamily("okeysite_timer_lateness_seconds",
                                 f"When a timer fired against its deadline, over the last {lateness.SAMPLES} timers",
                                 labels=["quantile"])
        for q in (0.5, 0.99):
            value = lateness.quantile(samples, q)
            if value is not None:
                late.add_metric([str(q)], value)
        yield late
        queued = queue_length()
        if queued is not None:
            yield GaugeMetricFamily("okeysite_celery_queue_length", "Tasks waiting in the Celery queue",
                                    value=queued)


def _registry():
    registry = CollectorRegistry(auto_describe=False)
    registry.register(SiteCollector())
    ERRORS.labels(pid=str(os.getpid()))  # reported as 0 before the first error
    registry.register(ERRORS)
    return registry


def _allowed(request):
    if request.user.is_authenticated and request.user.is_staff:
        return True
    token = getattr(settings, "OKEY_METRICS_TOKEN", "")
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@never_cache
def metrics(request):
    """The Prometheus text exposition of `SiteCollector` and `ERRORS`; 403 unless staff or
    carrying the configured bearer token (settings.OKEY_METRICS_TOKEN)."""
    if not _allowed(request):
        return HttpResponseForbidden()
    return HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)
