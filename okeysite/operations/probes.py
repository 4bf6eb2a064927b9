"""`/healthz` and `/readyz`: the probes a load balancer or a supervisor asks.

`/healthz` says only that this process answers HTTP. `/readyz` checks, each within
READY_TIMEOUT seconds, that the database, the cache (Redis in the scaled set-up) and the
Celery broker answer; a load balancer takes a process that is not ready out of rotation.
Neither needs a login, and neither says more than which dependency failed.
"""
import concurrent.futures
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

READY_TIMEOUT = 1.0  # seconds per dependency


def _database():
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def _cache():
    # FailOpenRedisCache answers as an empty cache while Redis is down: write then read
    # back, so that an unreachable Redis reads as not ready.
    key = "okeysite:readyz"
    stamp = str(time.time_ns())
    cache.set(key, stamp, 10)
    if cache.get(key) != stamp:
        raise ConnectionError("the cache did not keep a value")


def _broker():
    from okeysite.celery import app

    if app.conf.broker_url.startswith("memory"):
        return  # the embedded worker's broker lives in this process
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=0, timeout=READY_TIMEOUT)


CHECKS = {"database": _database, "cache": _cache, "broker": _broker}


def _run(check):
    # a check in a thread of its own: database connections are per thread, closed after it
    try:
        check()
    finally:
        connections.close_all()


def readiness():
    """Run every dependency check with READY_TIMEOUT seconds each. Returns
    {name: "ok" | "failed" | "timeout"} for "database", "cache" and "broker"."""
    answers = {}
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=len(CHECKS), thread_name_prefix="readyz")
    futures = {name: pool.submit(_run, check) for name, check in CHECKS.items()}
    deadline = time.monotonic() + READY_TIMEOUT
    for name, future in futures.items():
        try:
            future.result(timeout=max(0.0, deadline - time.monotonic()))
            answers[name] = "ok"
        except concurrent.futures.TimeoutError:
            answers[name] = "timeout"
        except Exception:  # noqa: BLE001 - any failure of a dependency is "not ready"
            answers[name] = "failed"
    # a hung dependency must not hold the answer: its thread is left to finish on its own
    pool.shutdown(wait=False, cancel_futures=True)
    return answers


@never_cache
@require_GET
def healthz(request):
    """200 {"status": "ok"} whenever this process serves HTTP."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_GET
def readyz(request):
    """200 when the database, cache and broker all answered within READY_TIMEOUT s, else
    503; the body is {"status": "ready" | "not ready", "checks": readiness()}."""
    checks = readiness()
    ready = all(v == "ok" for v in checks.values())
    body = {"status": "ready" if ready else "not ready", "checks": checks}
    if settings.DEBUG:
        body["embedded"] = settings.EMBEDDED
    return JsonResponse(body, status=200 if ready else 503)
