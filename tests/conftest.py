"""Shared fixtures for the server tests (tests/games, tests/accounts, tests/moderation,
tests/leaderboards).

The test command sets DATABASE_URL (PostgreSQL) and REDIS_URL (Redis channel layer and
Celery broker). Celery: no worker runs in tests; tasks are idempotent by version, so
tests call the task functions directly. The timers the commit path schedules go to the
real Redis broker, into a queue private to this run (`okeysite-test-<pid>`) that no worker
consumes and that is purged at the end of the session; `published` records each one as
the broker accepted it.
"""
import os

import pytest

from okeysite.celery import app as celery_app

TEST_QUEUE = f"okeysite-test-{os.getpid()}"
celery_app.conf.task_default_queue = TEST_QUEUE
celery_app.conf.task_default_routing_key = TEST_QUEUE


@pytest.fixture(autouse=True, scope="session")
def _private_celery_queue():
    """Purge this run's Celery queue (timers the commit path scheduled, never consumed) at the end."""
    yield
    if not celery_app.conf.broker_url.startswith("redis"):
        return
    with celery_app.connection_for_write() as conn:
        channel = conn.default_channel
        try:
            channel.queue_purge(TEST_QUEUE)
            channel.queue_delete(TEST_QUEUE)
        except Exception:  # noqa: BLE001 - the queue may never have been declared
            pass
        # kombu's exchange-binding sets for the queue
        channel.client.delete(f"_kombu.binding.{TEST_QUEUE}", f"_kombu.binding_permanent.{TEST_QUEUE}")


@pytest.fixture(autouse=True, scope="session")
def _private_channel_prefix():
    """Redis pub/sub channels ignore the database number: give this run its own prefix so
    a dev server or another test run on the same Redis never delivers into our sockets."""
    from channels.layers import channel_layers
    from django.conf import settings

    config = settings.CHANNEL_LAYERS["default"].setdefault("CONFIG", {})
    if "prefix" in config or "redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
        config["prefix"] = f"okeysite-test-{os.getpid()}"
    channel_layers.backends.clear()
    yield

ORIGIN = b"http://localhost"


@pytest.fixture
def make_user(django_user_model):
    """Factory: make_user("alice") -> a user with e-mail alice@example.com, password "pw-alice-1234"."""

    def make(name):
        return django_user_model.objects.create_user(
            username=name, email=f"{name}@example.com", password=f"pw-{name}-1234"
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def session_cookie():
    """Factory: session_cookie(user) -> b"sessionid=..." header value of a logged-in session."""
    from django.conf import settings
    from django.test import Client

    def make(user):
        client = Client()
        client.force_login(user)
        return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()

    return make


@pytest.fixture
def published():
    """The Celery tasks published (to the real broker) during the test, in order: a list of
    {"task" (name), "args" (list), "eta" (aware datetime or None)}, filled by Celery's
    `after_task_publish` signal."""
    from celery.signals import after_task_publish
    from django.utils.dateparse import parse_datetime

    sent = []

    def record(sender=None, headers=None, body=None, **kwargs):
        eta = (headers or {}).get("eta")
        sent.append({"task": sender, "args": list(body[0]) if body else [],
                     "eta": parse_datetime(eta) if isinstance(eta, str) else eta})

    after_task_publish.connect(record, weak=False)
    yield sent
    after_task_publish.disconnect(record)


@pytest.fixture
def staff(django_user_model):
    """A superuser "mod" with an activated TOTP authenticator (allauth.mfa): staff need a
    second factor for /admin/."""
    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

    user = django_user_model.objects.create_superuser("mod", "mod@example.com", "pw-mod-1234")
    TOTP.activate(user, generate_totp_secret())
    return user


@pytest.fixture(autouse=True)
def _no_seeding_window(settings):
    """Deal at once (OKEY_SEED_WINDOW 0): the tests of the seeding window set their own."""
    settings.OKEY_SEED_WINDOW = 0
