"""Table sockets connecting: one snapshot on connect while the others learn of the new
connection, and `resume` from a spectator or a seated player."""
import pytest
from channels.db import database_sync_to_async

from tests.games.test_consumers import Client, two_player_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_connecting_sends_one_snapshot_and_others_see_the_new_connection(alice, bob, session_cookie):
    table = await two_player_table(alice, bob)
    b = Client(table.pk, await database_sync_to_async(session_cookie)(bob))
    assert (await b.connect())[0]
    await b.recv_type("snapshot")
    await b.drain()
    a = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await a.connect())[0]
    await a.drain()
    assert [f["type"] for f in a.frames] == ["snapshot", "chat_history"]
    # bob's socket is told that alice is now connected
    await b.drain()
    seen = [f for f in b.frames if f["type"] == "snapshot"]
    assert seen[-1]["view"]["players"][0]["connected"] is True
    await a.close()
    await b.close()


async def test_resume_from_a_spectator_is_answered_not_seated(alice, bob, carol, session_cookie):
    table = await two_player_table(alice, bob)
    c = Client(table.pk, await database_sync_to_async(session_cookie)(carol))
    assert (await c.connect())[0]
    await c.recv_type("snapshot")
    await c.send({"type": "resume"})
    error = await c.recv_type("error")
    assert error["code"] == "not_seated" and error["message"]
    await c.close()


async def test_resume_from_a_seated_player_is_not_an_error(alice, bob, session_cookie):
    table = await two_player_table(alice, bob)
    a = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await a.connect())[0]
    await a.drain()
    await a.send({"type": "resume"})
    await a.drain()
    assert not [f for f in a.frames if f["type"] == "error"]
    await a.close()
