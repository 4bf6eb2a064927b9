"""The hidden-information guarantee across a multi-table run (ARCHITECTURE.md invariant
3): every frame each socket receives — two tabs of one seat, the facing human, a
spectator, at two tables where one user sits at the first and watches the second — is
the engine's view of that socket's own seat (or the public view) at that version, of
that table, and names no tile another seat holds privately."""
import json
import re

import pytest
from channels.db import database_sync_to_async

from games import tasks
from games.engine import api
from games.models import Game
from games.play import computer
from games.play.timers import timer_args
from tests.games.test_consumers import Client, two_player_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TILE = re.compile(r'"((?:[RBYK]\d{1,2}|F|J)(?:=[^"]*)?)"')
STEPS = 24  # changes per table


@database_sync_to_async
def _state(table):
    game = Game.objects.get(table=table)
    return game, game.version, game.position, game.deadline_kind


def _tiles(value):
    return {m.split("=", 1)[0] for m in TILE.findall(json.dumps(value))}


async def test_no_frame_of_a_multi_table_run_shows_a_tile_of_another_seat(
        alice, bob, carol, make_user, session_cookie):
    dave = await database_sync_to_async(make_user)("dave")
    first, second = await two_player_table(alice, bob), await two_player_table(carol, dave)
    cookie = database_sync_to_async(session_cookie)
    sockets = {  # name: (client, table, seat index or None)
        "alice": (Client(first.pk, await cookie(alice)), first, 0),
        "alice tab 2": (Client(first.pk, await cookie(alice)), first, 0),
        "bob": (Client(first.pk, await cookie(bob)), first, 2),
        "carol watching": (Client(first.pk, await cookie(carol)), first, None),
        "carol": (Client(second.pk, await cookie(carol)), second, 0),
        "dave": (Client(second.pk, await cookie(dave)), second, 2),
        "alice watching": (Client(second.pk, await cookie(alice)), second, None),
    }
    clients = [client for client, _table, _seat in sockets.values()]
    for client in clients:
        assert (await client.connect())[0]
    positions = {}  # (table id, version) -> position

    async def remember(table):
        _pk, version, position, _kind = await _state(table)
        positions[(table.pk, version)] = position

    for table in (first, second):
        await remember(table)
    players = {(first.pk, 0): "alice", (first.pk, 2): "bob", (second.pk, 0): "carol", (second.pk, 2): "dave"}
    for n in range(STEPS):
        for table in (first, second):
            game, version, position, kind = await _state(table)
            if api.is_over(position):
                continue
            turn = position["turn"]
            if (table.pk, turn) in players:
                client = sockets[players[(table.pk, turn)]][0]
                # A player acts on the version its table shows: the broadcast of the last
                # change reaches the socket before the move, as in a browser (a move sent
                # ahead of it would make the socket skip that older version, rightly).
                while max((f["version"] for f in client.frames if f["type"] == "snapshot"),
                          default=-1) < version:
                    await client.recv()
                action, _step = computer.fallback(position, turn)
                action = {k: v for k, v in action.items() if k != "seat"}
                await client.send({"type": "action", "id": f"{n}", "version": version, "action": action})
                assert (await client.recv_type("ack", limit=200))["version"] == version + 1
            else:
                assert kind == "bot"
                assert await database_sync_to_async(tasks.bot_turn)(*timer_args(game))
            await remember(table)
    for client, table, _own in sockets.values():
        await client.send({"type": "sync"})
        # wait for the table's last version (a loaded machine delivers late), then the rest
        final = (await _state(table))[1]
        while max((f["version"] for f in client.frames if f["type"] == "snapshot"), default=-1) < final:
            await client.recv()
        await client.drain()

    for name, (client, table, own) in sockets.items():
        snapshots = [f for f in client.frames if f["type"] == "snapshot"]
        assert len(snapshots) > STEPS, name  # every version of its table reached the socket
        for frame in snapshots:
            view = frame["view"]
            assert view["table_id"] == table.pk and view["seat"] == own, name
            position = positions[(table.pk, frame["version"])]
            engine_view = api.view(position, own)
            assert {k: view[k] for k in engine_view} == engine_view, name
            assert "pile" not in view and "seats" not in view
            assert own is not None or not view.get("rack"), name  # a spectator has no rack
            # No tile held only by another seat (its rack, not shown anywhere public) or
            # still in the pile appears anywhere else in the frame; the move history names
            # public actions' tiles, and never another seat's draw.
            private = set()
            for seat, state in enumerate(position["seats"]):
                if seat != own:
                    private |= {t.split("=", 1)[0] for t in state["rack"]}
            private |= {t.split("=", 1)[0] for t in position["pile"]}
            shown = _tiles(engine_view)
            rest = {k: v for k, v in view.items() if k != "moves"}
            assert not (_tiles(rest) - shown) & private, name
            for move in view.get("moves", ()):
                if move["type"] == "draw" and move["seat"] != own:
                    assert "tile" not in move, name
    for client in clients:
        await client.close()
