"""A table socket lives no longer than its login session: logout, a password change (other
sessions), a password reset and the session's expiry close it with code 4401, through real
logins, real sessions, the real channel layer and the site's ASGI stack."""
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import Game
from tests.moderation.sockets import Socket, online_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PASSWORD = "pw-alice-1234"


@pytest.fixture(autouse=True)
def no_heartbeat_close(settings):
    """These sockets never answer the server's ping; on a loaded host a socket quiet on its own
    turn would be closed by the heartbeat (4408) before the session's close (4401) arrives."""
    settings.OKEY_WS_PROBE_DEAD = 3600


@database_sync_to_async
def logged_in(user, password=PASSWORD):
    """A Client logged in through the login form (a real session row). Returns it."""
    client = Client()
    response = client.post("/accounts/login/", {"login": user.email, "password": password})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


def cookie(client):
    return f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}".encode()


async def socket_of(table, client):
    sock = Socket(table.pk, cookie(client))
    connected, _code = await sock.connect()
    assert connected
    await sock.recv_type("snapshot")
    await sock.recv_type("chat_history")
    return sock


async def closed_with(sock):
    """The close code the socket receives next (frames on their way before it are skipped)."""
    for _ in range(30):
        out = await sock.comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return out["code"]
    raise AssertionError("the socket stayed open")


async def still_answers(sock):
    await sock.send({"type": "sync"})
    assert (await sock.recv_type("snapshot"))["type"] == "snapshot"


async def test_logout_closes_the_sockets_of_that_session_only(alice, bob):
    table = await online_table(alice, bob)
    laptop, phone = await logged_in(alice), await logged_in(alice)
    on_laptop, on_phone = await socket_of(table, laptop), await socket_of(table, phone)
    await database_sync_to_async(laptop.post)("/accounts/logout/")
    assert await closed_with(on_laptop) == 4401
    await still_answers(on_phone)
    await on_phone.close()


async def test_a_password_change_closes_the_other_sessions_and_keeps_the_changers(alice, bob, settings):
    table = await online_table(alice, bob)
    laptop, phone = await logged_in(alice), await logged_in(alice)
    on_laptop, on_phone = await socket_of(table, laptop), await socket_of(table, phone)
    response = await database_sync_to_async(laptop.post)("/accounts/password/change/", {
        "oldpassword": PASSWORD, "password1": "Fresh-tiles-77", "password2": "Fresh-tiles-77"})
    assert response.status_code == 302
    assert await closed_with(on_phone) == 4401
    await still_answers(on_laptop)
    settings.OKEY_SESSION_RECHECK = 0  # every frame checks the session again: the laptop's is still good
    await still_answers(on_laptop)
    await on_laptop.close()


async def test_a_password_reset_closes_every_socket_of_the_user(alice, bob):
    table = await online_table(alice, bob)
    phone = await logged_in(alice)
    on_phone = await socket_of(table, phone)

    def reset():
        client = Client()
        client.post("/accounts/password/reset/", {"email": alice.email})
        link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[-1].body).group(1)
        form = client.get(link, follow=True)
        action = form.redirect_chain[-1][0] if form.redirect_chain else link
        assert client.post(action, {"password1": "Fresh-tiles-77", "password2": "Fresh-tiles-77"}).status_code == 302

    await database_sync_to_async(reset)()
    assert await closed_with(on_phone) == 4401


def expire(client):
    key = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    assert Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1)) == 1


async def test_an_expired_session_is_closed_by_the_timer(alice, bob, settings):
    settings.OKEY_SESSION_CHECK_INTERVAL = 0.1
    table = await online_table(alice, bob)
    phone = await logged_in(alice)
    on_phone = await socket_of(table, phone)
    await database_sync_to_async(expire)(phone)
    assert await closed_with(on_phone) == 4401


async def test_a_move_sent_on_an_expired_session_is_refused_by_a_close(alice, bob, settings):
    settings.OKEY_SESSION_CHECK_INTERVAL = 3600
    settings.OKEY_SESSION_RECHECK = 0
    table = await online_table(alice, bob)
    phone = await logged_in(alice)
    on_phone = await socket_of(table, phone)
    game = await database_sync_to_async(Game.objects.get)(table=table)
    await database_sync_to_async(expire)(phone)
    tile = game.position["seats"][0]["rack"][0]
    await on_phone.send({"type": "action", "id": "late", "version": game.version,
                         "action": {"type": "discard", "tile": tile}})
    assert await closed_with(on_phone) == 4401
    after = await database_sync_to_async(Game.objects.get)(table=table)
    assert after.version == game.version
