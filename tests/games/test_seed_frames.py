"""The seeding window on the live socket (tables from before the hash chain):
 the `seeding` frame reaches the table before
the deal, `seed` is answered `seeded` (canonical form) or an error that leaves the socket
usable, and a spectator's seed is refused."""
import pytest
from channels.db import database_sync_to_async

from games.models import Game, Round
from games.play import rounds, tables
from tests.games.test_consumers import Client

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _window(settings):
    settings.OKEY_SEED_WINDOW = 5


@pytest.fixture(autouse=True)
def _tables_without_a_chain(monkeypatch):
    """Tables created before the hash chain (okeysite-shuffle-1) keep one window per round."""
    monkeypatch.setattr(rounds, "draw_chain", lambda length: {"chain_seed": "", "chain_tip": "", "chain_length": 0})


@database_sync_to_async
def open_pair(alice, bob):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=30)
    tables.join_table(bob, table.pk)
    return table


@database_sync_to_async
def round_state(table):
    game = Game.objects.select_related("round").get(table=table)
    committed = Round.objects.get(match__table=table, index=0)
    return game, committed


async def test_seeds_travel_on_the_socket_and_the_deal_follows_the_last(alice, bob, carol, session_cookie):
    table = await open_pair(alice, bob)
    a = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    b = Client(table.pk, await database_sync_to_async(session_cookie)(bob))
    spectator = Client(table.pk, await database_sync_to_async(session_cookie)(carol))
    for client in (a, b, spectator):
        assert (await client.connect())[0]
        await client.recv_type("snapshot")
    await database_sync_to_async(tables.start_match)(alice, table.pk)
    game, committed = await round_state(table)
    seeding = await b.recv_type("seeding")
    assert seeding == {"type": "seeding", "round": 1, "commitment": committed.commitment,
                       "deadline": int(game.deadline.timestamp() * 1000), "sent": [False] * 4}
    assert (await spectator.recv_type("seeding"))["commitment"] == committed.commitment
    snap = await a.recv_snapshot_at(game.version)
    assert snap["view"]["seeding"]["commitment"] == committed.commitment and "rack" not in snap["view"]

    await spectator.send({"type": "seed", "round": 1, "seed": "mine"})
    assert (await spectator.recv_type("error"))["code"] == "not_seated"
    await a.send({"type": "seed", "id": "s1", "round": 1, "seed": "bad\tseed"})
    refused = await a.recv_type("error")
    assert (refused["code"], refused["id"]) == ("bad_seed", "s1") and refused["message"]
    await a.send({"type": "seed", "round": "1", "seed": "x"})
    assert (await a.recv_type("error"))["code"] == "bad_frame"
    await a.send({"type": "seed", "round": 1, "seed": " Zoe "})
    assert await a.recv_type("seeded") == {"type": "seeded", "round": 1, "seed": "Zoe"}
    game, _committed = await round_state(table)
    assert game.position is None  # bob has not sent his yet

    await b.send({"type": "seed", "id": "b1", "round": 1, "seed": "ab"})
    assert await b.recv_type("seeded") == {"type": "seeded", "round": 1, "seed": "ab", "id": "b1"}
    dealt = await b.recv_snapshot_at(game.version + 1)
    assert len(dealt["view"]["rack"]) == 14 and "seeding" not in dealt["view"]
    game, committed = await round_state(table)
    assert committed.client_seeds == ["Zoe", "", "ab", ""] and game.round == committed
    await a.send({"type": "seed", "round": 1, "seed": "again"})
    assert (await a.recv_type("error"))["code"] == "seed_closed"
    for client in (a, b, spectator):
        await client.close()


async def test_a_broadcast_older_than_the_sockets_snapshot_is_not_forwarded(alice, bob, session_cookie):
    # A broadcast still in flight when a socket joins its groups arrives after the newer
    # snapshot that socket read itself: the seeding window of a round already dealt must
    # not reach the player again (their seed would be refused seed_closed).
    from channels.layers import get_channel_layer

    table = await open_pair(alice, bob)
    await database_sync_to_async(tables.start_match)(alice, table.pk)
    window, committed = await round_state(table)
    a = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await a.connect())[0]
    await a.recv_snapshot_at(window.version)
    await a.send({"type": "seed", "round": 1, "seed": "a"})
    await a.recv_type("seeded")  # bob is not connected: alice's seed deals the round
    dealt = await a.recv_snapshot_at(window.version + 1)
    assert "seeding" not in dealt["view"]
    await a.drain()

    layer, group = get_channel_layer(), f"table-{table.pk}"
    stale_frame = {"round": 1, "commitment": committed.commitment, "deadline": 0, "sent": [False] * 4}
    await layer.group_send(group, {"type": "table.seeding", "version": window.version, "seeding": stale_frame})
    await layer.group_send(group, {"type": "table.update", "version": window.version, "refresh": True})
    assert await a.comm.receive_nothing(timeout=0.5)
    # a refresh of the version the socket has is still forwarded (seats changed at that version)
    await layer.group_send(group, {"type": "table.update", "version": dealt["version"], "refresh": True})
    again = await a.recv_type("snapshot")
    assert again["version"] == dealt["version"] and "seeding" not in again["view"]
    await a.close()
