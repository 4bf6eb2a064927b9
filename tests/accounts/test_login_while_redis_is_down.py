"""Logging in while the cache's Redis is down (okeysite.cache.FailOpenRedisCache): the
failed-login limits cannot count then, and a player must still get in rather than a
server error; once Redis is back the limits count again. A private Redis, never the
machine's shared one."""
import uuid

import pytest
from django.core.cache import cache
from django.test import Client

from bench.stack import PrivateRedis

pytestmark = pytest.mark.django_db(transaction=True)
TOO_MANY = "Too many failed login attempts"


@pytest.fixture
def private_cache(settings, tmp_path):
    server = PrivateRedis(tmp_path)
    settings.CACHES = {"default": {"BACKEND": "okeysite.cache.FailOpenRedisCache", "LOCATION": server.url,
                                   "KEY_PREFIX": f"down{uuid.uuid4().hex[:8]}",
                                   "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    yield server
    server.stop()


def login(user, password, address="203.0.113.40"):
    client = Client(REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"login": user.username, "password": password})
    return response.status_code, "_auth_user_id" in client.session, response.content.decode()


def test_a_player_logs_in_while_redis_is_down_and_the_limits_count_again_once_it_is_back(
        private_cache, django_user_model):
    player = django_user_model.objects.create_user(f"down{uuid.uuid4().hex[:8]}", f"{uuid.uuid4().hex}@example.com",
                                                   "Right-password-42")
    status, logged_in, _page = login(player, "Right-password-42")
    assert (status, logged_in) == (302, True)  # not a server error
    status, logged_in, _page = login(player, "wrong-guess")
    assert (status, logged_in) == (200, False)  # the form again, with its error
    assert cache.get("anything", "missing") == "missing"

    private_cache.start()
    for _ in range(5):
        assert login(player, "wrong-guess")[1] is False
    status, logged_in, page = login(player, "Right-password-42")
    assert not logged_in and TOO_MANY in page
