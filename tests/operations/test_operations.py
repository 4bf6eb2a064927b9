"""The operator's tools against the real PostgreSQL, Redis cache and Redis broker: the
probes, the metrics endpoint and its token, timer lateness from a real task run, the
JSON log lines of a locked write, and the staff dashboard."""
import io
import json
import logging
import time

import pytest
from django.test import override_settings
from django.urls import reverse

from games import tasks
from games.play import commit
from games.play.timers import timer_args
from okeysite.celery import app as celery_app
from okeysite.operations import lateness, logs
from tests.games.play.helpers import game_of, solo_table

pytestmark = pytest.mark.django_db(transaction=True)

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


def test_healthz_answers_without_a_login(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json() == {"status": "ok"}
    assert "no-cache" in answer["Cache-Control"]


def test_readyz_checks_the_database_cache_and_broker(client):
    assert celery_app.conf.broker_url.startswith("redis"), "the test run uses the real Redis broker"
    answer = client.get("/readyz")
    assert answer.status_code == 200
    assert answer.json()["checks"] == {"database": "ok", "cache": "ok", "broker": "ok"}


def test_readyz_is_503_when_the_broker_cannot_be_reached(client, monkeypatch):
    monkeypatch.setattr(celery_app.conf, "broker_write_url", UNREACHABLE_REDIS)
    started = time.monotonic()
    answer = client.get("/readyz")
    assert time.monotonic() - started < 3
    assert answer.status_code == 503 and answer.json()["status"] == "not ready"
    assert answer.json()["checks"]["broker"] in ("failed", "timeout")
    assert answer.json()["checks"]["database"] == "ok"


def test_readyz_is_503_when_the_cache_cannot_be_reached(client):
    caches = {"default": {"BACKEND": "okeysite.cache.FailOpenRedisCache", "LOCATION": UNREACHABLE_REDIS,
                          "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    with override_settings(CACHES=caches):
        answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.json()["checks"]["cache"] != "ok"


def test_metrics_are_refused_without_staff_or_the_token(client, make_user):
    with override_settings(OKEY_METRICS_TOKEN="s3cret-token"):
        assert client.get("/metrics").status_code == 403
        assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
        client.force_login(make_user("notstaff"))
        answer = client.get("/metrics")
        assert answer.status_code == 403 and b"okeysite" not in answer.content
    with override_settings(OKEY_METRICS_TOKEN=""):
        client.logout()
        assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 403


def test_metrics_count_live_tables_sockets_and_errors(client, make_user):
    solo_table(make_user("opsplayer"))
    before = _metric(_scrape(client), "okeysite_errors_total")
    logging.getLogger("games.operations_test").error("a deliberate error for the counter")
    text = _scrape(client)
    assert _metric(text, 'okeysite_live_tables{ruleset="okey51"}') == 1.0
    assert _metric(text, "okeysite_sockets") == 0.0
    assert _metric(text, "okeysite_errors_total") == before + 1
    assert _metric(text, "okeysite_celery_queue_length") >= 0


def test_a_late_timer_task_is_measured_and_reported(client, make_user, staff):
    table = solo_table(make_user("opslate"))
    game = game_of(table)
    token = timer_args(game)[1]
    game_id = game.pk
    # the task runs as a worker runs it (signals included), 2 s after a deadline
    late_token = int((time.time() - 2.0) * 1_000_000)
    tasks.turn_timeout.apply(args=[game_id, late_token])
    samples = [s for s in lateness.recent() if s[1] == game_id]
    assert samples and 1.9 < samples[0][0] < 5 and samples[0][2] == "games.tasks.turn_timeout"
    assert token != late_token  # the task found its deadline moved on and did nothing
    text = _scrape(client)
    assert _metric(text, 'okeysite_timer_lateness_seconds{quantile="0.99"}') >= 1.9
    client.force_login(staff)
    page = client.get(reverse("operations"))
    assert page.status_code == 200
    body = page.content.decode()
    assert f'href="/admin/games/table/{table.pk}/change/"' in body and "turn_timeout" in body


def test_the_dashboard_is_for_staff_only(client, make_user, staff):
    solo_table(make_user("opsdash"))
    assert client.get(reverse("operations")).status_code == 302
    client.force_login(make_user("opsnostaff"))
    assert client.get(reverse("operations")).status_code == 302
    client.force_login(staff)
    page = client.get(reverse("operations"))
    assert '<td data-figure="live_tables">1</td>' in page.content.decode()
    assert reverse("operations") in client.get("/admin/").content.decode()


def test_a_game_log_line_carries_the_table_and_version_as_json(make_user):
    table = solo_table(make_user("opslog"))
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.GameContext())
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("games.operations_test")
    logger.addHandler(handler)
    try:
        with commit.locked(table.pk) as write:
            logger.warning("inside the write of %s", write.game.pk)
        logger.warning("outside any write")
    finally:
        logger.removeHandler(handler)
    inside, outside = (json.loads(line) for line in stream.getvalue().splitlines())
    assert inside["table"] == table.pk and inside["version"] == game_of(table).version
    assert inside["level"] == "WARNING" and inside["logger"] == "games.operations_test"
    assert "table" not in outside and outside["message"] == "outside any write"


def _scrape(client):
    with override_settings(OKEY_METRICS_TOKEN="scrape-token"):
        answer = client.get("/metrics", HTTP_AUTHORIZATION="Bearer scrape-token")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")
    return answer.content.decode()


def _metric(text, name):
    # the sum over the sample lines whose name (with labels, when given) is `name`
    total = None
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        key, _, value = line.rpartition(" ")
        if key == name or (("{" not in name) and key.split("{")[0] == name):
            total = (total or 0.0) + float(value)
    assert total is not None, f"{name} not in the metrics"
    return total
