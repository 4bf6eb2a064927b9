"""Table sockets under bad input, floods and too many connections: close codes 1009/1007/
1008/4429, `bad_text`, actions stored and broadcast with their RULES.md §7 fields only,
spectators kept off the game lock, the heartbeat, and suspended users' early frames."""
import json
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from accounts.moderation import Sanction
from games.chat.models import ChatMessage, ChatReport
from games.models import Connection, Game, Move
from tests.games.test_consumers import TIMEOUT, Client, connected_pair, game_state, two_player_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def closed_with(client):
    """Receive until the server closes the socket; returns the close code."""
    for _ in range(40):
        out = await client.comm.receive_output(timeout=TIMEOUT)
        if out["type"] == "websocket.close":
            return out.get("code")
        client.frames.append(json.loads(out["text"]))
    raise AssertionError("the socket was not closed")


@pytest.mark.parametrize("kind, payload, code", [
    ("text", "x" * 20000, 1009),
    ("text", json.dumps({"type": "chat", "text": "y" * 17000}), 1009),
    ("bytes", b"\xff\xfe\x00garbage", 1007),
    ("text", '{"type": "chat", "text": "\ud800"}', 1007),  # a raw lone surrogate: not UTF-8 text
])
async def test_oversized_or_undecodable_frames_close_with_their_code(alice, bob, session_cookie, kind, payload, code):
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)
    before = await game_state(table)
    await a.drain()
    if kind == "bytes":
        await a.comm.send_to(bytes_data=payload)
    else:
        await a.comm.send_to(text_data=payload)
    assert await closed_with(a) == code
    assert await game_state(table) == before
    await b.close()


@pytest.mark.parametrize("frame, stored", [
    ({"type": "chat", "text": "hi\u0000there"}, "chat"),
    ({"type": "chat", "text": "lone \ud800 surrogate"}, "chat"),
    ({"type": "chat", "text": "two\nlines"}, "chat"),
    ({"type": "report", "user": "bob\u0000", "reason": "spam"}, "report"),
    ({"type": "report", "user": "bob", "reason": "\udfff"}, "report"),
])
async def test_text_with_nul_controls_or_lone_surrogates_is_refused_bad_text(alice, bob, session_cookie, frame, stored):
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)
    await a.drain()
    await a.send(json.dumps(frame))  # JSON escapes: valid UTF-8 on the wire
    err = await a.recv_type("error")
    assert err["code"] == "bad_text" and err["message"]
    model = ChatMessage if stored == "chat" else ChatReport
    assert await database_sync_to_async(model.objects.count)() == 0
    # the socket stays usable: a clean line goes through
    await a.send({"type": "chat", "text": "hello"})
    assert (await a.recv_type("chat"))["text"] == "hello"
    await a.close()
    await b.close()


async def test_an_action_is_stored_and_broadcast_with_its_rules_fields_only(alice, bob, session_cookie):
    table, a, b, snap_a, _ = await connected_pair(alice, bob, session_cookie)
    version, _ = await game_state(table)
    tile = snap_a["view"]["rack"][0]
    junk = "j" * 15000
    await a.send({"type": "action", "id": "x1", "version": version,
                  "action": {"type": "discard", "tile": tile, "seat": 3, "junk": junk, "nested": {"a": [1]}}})
    assert (await a.recv_type("ack"))["version"] == version + 1
    move = await database_sync_to_async(Move.objects.get)()
    assert move.action == {"type": "discard", "tile": tile, "seat": 0}
    seen = await b.recv_snapshot_at(version + 1)
    assert junk not in json.dumps(seen) and "nested" not in json.dumps(seen["view"]["moves"])
    await a.close()
    await b.close()


async def test_frames_right_behind_a_suspended_users_handshake_are_ignored(alice, bob, carol, session_cookie):
    table = await two_player_table(alice, bob)
    await database_sync_to_async(Sanction.objects.create)(
        user=carol, kind="suspend", reason="spam", until=timezone.now() + timedelta(days=1))
    c = Client(table.pk, await database_sync_to_async(session_cookie)(carol))
    assert (await c.connect())[0]
    for frame in ({"type": "sync"}, {"type": "action", "id": "a", "version": 1, "action": {"type": "draw"}},
                  {"type": "ping"}, "junk"):
        await c.send(frame)
    assert await closed_with(c) == 4403
    assert [f["code"] for f in c.frames if f["type"] == "error"] == ["suspended"]


def hold_game_lock(table, locked, release):
    # Another connection holds the game row, as a slow commit would.
    from django.db import connection

    with transaction.atomic():
        Game.objects.select_for_update().get(table=table)
        locked.set()
        release.wait(10)
    connection.close()


async def test_spectators_are_refused_without_waiting_for_the_game_lock(alice, bob, carol, session_cookie):
    table = await two_player_table(alice, bob)
    c = Client(table.pk, await database_sync_to_async(session_cookie)(carol))
    assert (await c.connect())[0]
    snap = await c.recv_type("snapshot")
    await c.drain()
    locked, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_game_lock, args=(table, locked, release))
    holder.start()
    try:
        assert locked.wait(5)
        await c.send({"type": "resume"})
        assert (await c.recv_type("error"))["code"] == "not_seated"
        await c.send({"type": "action", "id": "s1", "version": snap["version"], "action": {"type": "draw"}})
        err = await c.recv_type("error")
        assert (err["id"], err["code"]) == ("s1", "not_seated")
    finally:
        release.set()
        holder.join()
    await c.close()


async def test_a_flooding_socket_is_told_a_few_times_then_closed_with_1008(alice, bob, session_cookie, settings):
    settings.OKEY_WS_RATE = 0.001  # no refill during the test
    settings.OKEY_WS_BURST = 3
    settings.OKEY_WS_FLOOD_LIMIT = 20
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)
    await a.drain()
    a.frames.clear()
    for _ in range(40):
        await a.send({"type": "sync"})
    assert await closed_with(a) == 1008
    kinds = [f["type"] for f in a.frames]
    assert kinds.count("snapshot") == 3
    assert [f["code"] for f in a.frames if f["type"] == "error"] == ["rate_limited"] * 10
    # the other player's socket is untouched
    await b.send({"type": "sync"})
    assert (await b.recv_type("snapshot"))["version"] == (await game_state(table))[0]
    await b.close()


async def test_sockets_over_the_per_user_cap_are_refused_with_4429(alice, bob, session_cookie, settings):
    settings.OKEY_WS_MAX_PER_USER = 2
    table = await two_player_table(alice, bob)
    cookie = await database_sync_to_async(session_cookie)(alice)
    first, second, third = (Client(table.pk, cookie) for _ in range(3))
    for client in (first, second):
        assert (await client.connect())[0]
        await client.recv_type("snapshot")
    assert (await third.connect())[0]
    assert await closed_with(third) == 4429
    assert third.frames[-1]["code"] == "too_many_sockets" and third.frames[-1]["message"]
    await first.close()
    again = Client(table.pk, cookie)  # a closed socket frees its place
    assert (await again.connect())[0]
    await again.recv_type("snapshot")
    await again.close()
    await second.close()
    assert await database_sync_to_async(Connection.objects.count)() == 0


async def test_sockets_over_the_per_address_cap_are_refused_with_4429(alice, bob, carol, session_cookie, settings):
    settings.OKEY_WS_MAX_PER_IP = 2
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    table = await two_player_table(alice, bob)
    clients = []
    for user, address in ((alice, b"203.0.113.7"), (bob, b"203.0.113.7"), (carol, b"203.0.113.7"),
                          (carol, b"198.51.100.1")):
        client = Client(table.pk, await database_sync_to_async(session_cookie)(user))
        client.comm.scope["headers"].append((b"x-forwarded-for", address))
        assert (await client.connect())[0]
        clients.append(client)
    for client in clients[:2] + clients[3:]:
        await client.recv_type("snapshot")
    assert await closed_with(clients[2]) == 4429
    for client in clients[:2] + clients[3:]:
        await client.close()


async def test_ping_is_answered_and_a_silent_socket_is_closed(alice, bob, session_cookie, settings):
    settings.OKEY_WS_IDLE_TIMEOUT = 2.0  # long enough for a pong on a loaded machine
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)
    await a.drain()
    await a.send({"type": "ping"})
    assert await a.recv_type("pong") == {"type": "pong"}
    # then silence: the server closes the socket, and its seat's presence goes with it
    assert await closed_with(a) == 4408
    await b.close()


async def test_the_lobby_socket_answers_ping(session_cookie):
    from channels.testing import WebsocketCommunicator

    from tests.games.test_consumers import APP

    comm = WebsocketCommunicator(APP, "/ws/lobby/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    assert (await comm.connect(timeout=TIMEOUT))[0]
    assert json.loads(await comm.receive_from(timeout=TIMEOUT))["type"] == "tables"
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    assert json.loads(await comm.receive_from(timeout=TIMEOUT)) == {"type": "pong"}
    await comm.disconnect()


async def test_lobby_sockets_over_the_per_address_cap_are_refused_with_4429(settings):
    from channels.testing import WebsocketCommunicator

    from tests.games.test_consumers import APP

    settings.OKEY_WS_LOBBY_MAX_PER_IP = 2

    def lobby():
        return WebsocketCommunicator(APP, "/ws/lobby/", headers=[(b"origin", b"http://localhost"),
                                                                  (b"host", b"localhost")])

    async def opened(address):
        comm = lobby()
        comm.scope["client"] = (address, 40000)
        assert (await comm.connect(timeout=TIMEOUT))[0]
        return comm

    first, second = await opened("203.0.113.9"), await opened("203.0.113.9")
    other = await opened("198.51.100.4")  # another address has its own count
    for comm in (first, second, other):
        assert json.loads(await comm.receive_from(timeout=TIMEOUT))["type"] == "tables"
    third = await opened("203.0.113.9")
    refused = json.loads(await third.receive_from(timeout=TIMEOUT))
    assert refused["code"] == "too_many_sockets" and refused["message"]
    assert (await third.receive_output(timeout=TIMEOUT)) == {"type": "websocket.close", "code": 4429}
    # a closed socket frees its place
    await first.disconnect()
    again = await opened("203.0.113.9")
    assert json.loads(await again.receive_from(timeout=TIMEOUT))["type"] == "tables"
    for comm in (second, other, again):
        await comm.disconnect()
