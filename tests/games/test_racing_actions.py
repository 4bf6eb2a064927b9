"""Racing moves through the sockets: actions now run on a pool of database threads, so
fifty frames for one turn, sent at once from five tabs of the same player, really run
concurrently; the row lock and the version check still let exactly one through."""
import asyncio

import pytest
from channels.db import database_sync_to_async

from games.models import Game, Move
from tests.games.test_consumers import Client, two_player_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TABS = 5
FRAMES_PER_TAB = 10


async def test_one_of_fifty_racing_moves_is_accepted(alice, bob, session_cookie):
    table = await two_player_table(alice, bob)
    cookie = await database_sync_to_async(session_cookie)(alice)
    tabs = [Client(table.pk, cookie) for _ in range(TABS)]
    for tab in tabs:
        assert (await tab.connect())[0]
        await tab.recv_type("snapshot")
    game = await database_sync_to_async(Game.objects.get)(table=table)
    rack = game.position["seats"][0]["rack"]
    sends = [
        tab.send({"type": "action", "id": f"{t}-{n}", "version": game.version,
                  "action": {"type": "discard", "tile": rack[(t * FRAMES_PER_TAB + n) % len(rack)]}})
        for t, tab in enumerate(tabs) for n in range(FRAMES_PER_TAB)
    ]
    await asyncio.gather(*sends)
    answers = []
    for tab in tabs:
        while len([f for f in tab.frames if f["type"] in ("ack", "error") and "id" in f]) < FRAMES_PER_TAB:
            await tab.recv()
        answers += [f for f in tab.frames if f["type"] in ("ack", "error") and "id" in f]
    acks = [f for f in answers if f["type"] == "ack"]
    assert len(answers) == TABS * FRAMES_PER_TAB and len(acks) == 1
    assert acks[0]["version"] == game.version + 1
    assert {f["code"] for f in answers if f["type"] == "error"} == {"stale_version"}
    after = await database_sync_to_async(Game.objects.get)(table=table)
    assert after.version == game.version + 1
    assert await database_sync_to_async(Move.objects.filter(round_id=game.round_id).count)() == 1
    for tab in tabs:
        await tab.close()
