"""`/ws/me/` (docs/protocol.md §15) with WebsocketCommunicator against PostgreSQL and the
configured channel layer (Redis in the test run): a player's pages make their presence,
which reaches the pages of those who follow them; a challenge reaches every open page of
the challenged player, in each page's language; an anonymous socket is closed."""
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.relations import follow
from games.play import tables
from okeysite.routing import build_application
from social import challenges
from social.presence import presence_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

APP = build_application()
TIMEOUT = 5


async def page(cookie, path="/", language="en"):
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
               (b"cookie", cookie + f"; django_language={language}".encode())]
    comm = WebsocketCommunicator(APP, f"/ws/me/?path={path}", headers=headers)
    connected, _code = await comm.connect(timeout=TIMEOUT)
    assert connected
    hello = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert hello["type"] == "hello"
    return comm, hello


async def frame_of(comm, kind):
    while True:
        frame = json.loads(await comm.receive_from(timeout=TIMEOUT))
        if frame["type"] == kind:
            return frame


async def test_an_anonymous_page_socket_is_closed():
    comm = WebsocketCommunicator(APP, "/ws/me/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert not connected and code == 4401


async def test_presence_follows_the_pages_and_reaches_the_followers_pages(alice, bob, session_cookie):
    await database_sync_to_async(follow)(bob, alice)
    bob_page, _hello = await page(await database_sync_to_async(session_cookie)(bob))
    alice_cookie = await database_sync_to_async(session_cookie)(alice)
    rules, _hello = await page(alice_cookie, "/rules/")
    online = await frame_of(bob_page, "presence")
    assert (online["username"], online["state"], online["table"]) == ("alice", "online", None)
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", mode="online")
    await frame_of(bob_page, "notification")  # alice's new public table
    at_table, _hello = await page(alice_cookie, f"/table/{table.pk}/")
    playing = await frame_of(bob_page, "presence")
    assert (playing["state"], playing["table"]) == ("playing", table.pk)
    await at_table.disconnect()
    back = await frame_of(bob_page, "presence")
    assert (back["state"], back["table"]) == ("online", None)
    await rules.disconnect()
    gone = await frame_of(bob_page, "presence")
    assert gone["state"] == "offline"
    assert (await database_sync_to_async(presence_of)([alice.pk]))[alice.pk]["state"] == "offline"
    await bob_page.disconnect()


async def test_watching_a_table_is_watching_and_a_private_tables_id_is_never_told(alice, bob, carol, session_cookie):
    await database_sync_to_async(follow)(carol, alice)
    carol_page, _hello = await page(await database_sync_to_async(session_cookie)(carol))
    public = await database_sync_to_async(tables.create_table)(bob, "rami", mode="online")
    private = await database_sync_to_async(tables.create_table)(bob, "rami", mode="online", private=True)
    alice_cookie = await database_sync_to_async(session_cookie)(alice)
    watching, _hello = await page(alice_cookie, f"/table/{public.pk}/")
    frame = await frame_of(carol_page, "presence")
    assert (frame["state"], frame["table"]) == ("watching", public.pk)
    await watching.disconnect()
    await frame_of(carol_page, "presence")
    hidden, _hello = await page(alice_cookie, f"/table/{private.pk}/")
    frame = await frame_of(carol_page, "presence")
    assert (frame["state"], frame["table"]) == ("watching", None)
    await hidden.disconnect()
    await carol_page.disconnect()


async def test_a_challenge_reaches_every_open_page_in_its_language_and_closes_everywhere(alice, bob, session_cookie):
    cookie = await database_sync_to_async(session_cookie)(bob)
    french, _hello = await page(cookie, "/", "fr")
    turkish, _hello = await page(cookie, "/rankings/", "tr")
    found = await database_sync_to_async(challenges.challenge)(alice, bob, "rami")
    fr = (await frame_of(french, "notification"))["notification"]
    tr = (await frame_of(turkish, "notification"))["notification"]
    assert fr["text"] == "alice vous défie à une partie de Rami."
    assert (fr["challenge"]["accept"], fr["challenge"]["decline"]) == ("Accepter", "Refuser")
    assert tr["text"] == "alice size bir Rami oyunu için meydan okuyor."
    assert fr["challenge"]["accept_url"] == f"/challenges/{found.pk}/accept/"
    # a page opened later still gets it
    late, hello = await page(cookie, "/friends/", "es")
    assert [c["text"] for c in hello["challenges"]] == ["alice te desafía a una partida de Rami."]
    alice_page, _hello = await page(await database_sync_to_async(session_cookie)(alice))
    table = await database_sync_to_async(challenges.accept)(bob, found.pk)
    for comm in (french, turkish, late):
        assert (await frame_of(comm, "challenge_closed"))["id"] == found.pk
    accepted = await frame_of(alice_page, "challenge_accepted")
    assert accepted["url"] == f"/table/{table.pk}/"
    assert accepted["text"] == "bob accepted your challenge: the table is ready."
    for comm in (french, turkish, late, alice_page):
        await comm.disconnect()


async def test_a_page_past_30_open_pages_is_refused_and_the_others_keep_theirs(alice, session_cookie):
    from django.utils import timezone

    from social.models import PageSocket

    await database_sync_to_async(PageSocket.objects.bulk_create)(
        [PageSocket(channel=f"other-{n}", user=alice, seen=timezone.now()) for n in range(30)])
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"),
               (b"cookie", await database_sync_to_async(session_cookie)(alice))]
    comm = WebsocketCommunicator(APP, "/ws/me/?path=/", headers=headers)
    assert (await comm.connect(timeout=TIMEOUT))[0]
    refused = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert refused["code"] == "too_many_sockets" and refused["message"].startswith("Too many open connections")
    assert (await comm.receive_output(timeout=TIMEOUT)) == {"type": "websocket.close", "code": 4429}
    assert await database_sync_to_async(PageSocket.objects.filter(user=alice).count)() == 30
