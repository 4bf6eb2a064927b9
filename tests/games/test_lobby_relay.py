"""The lobby relay (`games.lobby_relay`): one member of the lobby group per process (event
loop) writes every change to all of the process's lobby sockets, against the configured
channel layer (Redis pub/sub with REDIS_URL, the in-memory layer without)."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import translation

from bench.stack import PrivateRedis
from games import group_relay, lobby_relay
from games.play import tables
from games.play.lobby import LOBBY_GROUP
from okeysite.settings import redis_layer_host
from tests.games.test_consumers import APP, TIMEOUT

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.fixture(autouse=True)
def _many_lobby_sockets_per_address(settings):
    # every test socket comes from the same address: lift the per-address cap
    settings.OKEY_WS_LOBBY_MAX_PER_IP = 1000


async def open_lobby(language=None):
    """A connected lobby socket whose first list was received; returns (communicator, tables).
    `language`: the browser's Accept-Language (str), else none is sent."""
    headers = HEADERS + ([(b"accept-language", language.encode())] if language else [])
    comm = WebsocketCommunicator(APP, "/ws/lobby/", headers=headers)
    assert (await comm.connect(timeout=TIMEOUT))[0]
    first = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert first["type"] == "tables"
    return comm, first["tables"]


def lobby_members():
    """The channels this process's layer (for the running loop) holds in the lobby group (set)."""
    layer = get_channel_layer()
    if hasattr(layer, "_get_layer"):  # RedisPubSubChannelLayer keeps one layer per event loop
        inner = layer._get_layer()
        return set(inner.groups.get(inner._get_group_channel_name(LOBBY_GROUP), ()))
    return set(layer.groups.get(LOBBY_GROUP, {}))


async def table_ids(comm):
    frame = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert frame["type"] == "tables"
    return [t["id"] for t in frame["tables"]]


async def eventually(predicate, seconds=5.0):
    for _ in range(int(seconds / 0.02)):
        if predicate():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not reached")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_every_lobby_socket_of_a_process_gets_a_change_through_one_group_member(alice):
    sockets = [(await open_lobby())[0] for _ in range(60)]
    relay = lobby_relay.relay_for(get_channel_layer())
    assert len(relay.consumers) == 60
    assert lobby_members() == {relay.channel}
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    for comm in sockets:
        assert await table_ids(comm) == [table.pk]
    for comm in sockets:
        assert await comm.receive_nothing(timeout=0.01)  # one frame per change, not one per member
        await comm.disconnect()


def layer_channels():
    """The channel names the process's layer (for the running loop) holds a queue for (set)."""
    layer = get_channel_layer()
    inner = layer._get_layer() if hasattr(layer, "_get_layer") else layer
    return set(inner.channels)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_lobby_sockets_open_no_channel_of_their_own(alice):
    # The relay writes to them directly: a channel per socket would be a subscription and a
    # receive task for nothing.
    sockets = [(await open_lobby())[0] for _ in range(5)]
    relay = lobby_relay.relay_for(get_channel_layer())
    assert layer_channels() == {relay.channel}
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    for comm in sockets:
        assert await table_ids(comm) == [table.pk]
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_disconnected_lobby_socket_gets_nothing_and_the_others_still_do(alice):
    first, gone, last = [(await open_lobby())[0] for _ in range(3)]
    await gone.disconnect()
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    assert await table_ids(first) == [table.pk]
    assert await table_ids(last) == [table.pk]
    assert gone.output_queue.empty()
    assert len(lobby_relay.relay_for(get_channel_layer()).consumers) == 2
    await first.disconnect()
    await last.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_relay_leaves_the_group_with_the_last_socket_and_joins_again_for_the_next(alice):
    comm, _ = await open_lobby()
    await comm.disconnect()
    await eventually(lambda: not lobby_members())
    again, _ = await open_lobby()
    relay = lobby_relay.relay_for(get_channel_layer())
    assert lobby_members() == {relay.channel}
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    assert await table_ids(again) == [table.pk]
    await again.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_relay_keeps_delivering_after_its_receive_fails(alice):
    sockets = [(await open_lobby())[0] for _ in range(3)]
    relay = lobby_relay.relay_for(get_channel_layer())
    old = relay.channel
    # what a lost subscription looks like to the relay: its pending receive ends by cancellation
    relay.receiver.cancel()
    await eventually(lambda: relay.channel not in (None, old))
    assert relay.restarts == 1
    assert lobby_members() == {relay.channel}  # the old channel left the group
    for comm in sockets:
        assert await table_ids(comm) == []  # back in the group: the list as it is, for the gap
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    for comm in sockets:
        assert await table_ids(comm) == [table.pk]
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_lobby_update_without_a_frame_makes_every_socket_read_the_list(alice):
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    sockets = []
    for _ in range(3):
        comm, listed = await open_lobby()
        assert [t["id"] for t in listed] == [table.pk]
        sockets.append(comm)
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.update"})
    for comm in sockets:
        assert await table_ids(comm) == [table.pk]
        await comm.disconnect()


def computer_names(listed):
    """{table id: [the computers' seat names in seat order]} of the running tables in `listed`."""
    return {t["id"]: [s["name"] for s in t["seats"] if s["computer"]] for t in listed if t["status"] == "playing"}


async def tables_frame(comm):
    frame = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert frame["type"] == "tables"
    return frame["tables"]


@database_sync_to_async
def started_in_spanish(user, table=None, bot_level="normal"):
    # As a Spanish player's request does it: their language is active while the change is
    # committed and the lobby list built.
    with translation.override("es"):
        if table is None:
            table = tables.create_table(user, "okey51", {}, mode="online", bot_level=bot_level)
        tables.start_match(user, table.pk)
    return table


# the labels of locale/{fr,tr}/LC_MESSAGES/django.po ("Computer %(number)s · %(level)s")
FRENCH = ["Ordinateur 2 · fort", "Ordinateur 3 · fort", "Ordinateur 4 · fort"]
TURKISH = ["Bilgisayar 2 · güçlü", "Bilgisayar 3 · güçlü", "Bilgisayar 4 · güçlü"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_each_lobby_socket_names_the_computers_in_its_own_language(alice, bob):
    running = await started_in_spanish(alice, bot_level="strong")
    waiting = await database_sync_to_async(tables.create_table)(bob, "okey51", {}, mode="online")
    french, listed_fr = await open_lobby("fr")
    turkish, listed_tr = await open_lobby("tr-TR,tr;q=0.9")
    # the first list, read when the socket connects
    assert computer_names(listed_fr) == {running.pk: FRENCH}
    assert computer_names(listed_tr) == {running.pk: TURKISH}
    # a change made in a third language rewrites every running table in each socket's own
    await started_in_spanish(bob, waiting)
    assert computer_names(await tables_frame(french)) == {
        running.pk: FRENCH, waiting.pk: [name.replace("fort", "normal") for name in FRENCH]}
    assert computer_names(await tables_frame(turkish)) == {
        running.pk: TURKISH, waiting.pk: [name.replace("güçlü", "normal") for name in TURKISH]}
    # and the list a socket asks for again
    await turkish.send_to(text_data=json.dumps({"type": "sync"}))
    assert computer_names(await tables_frame(turkish))[running.pk] == TURKISH
    await french.disconnect()
    await turkish.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_lobby_update_without_frames_is_read_in_each_socket_s_language(alice):
    running = await started_in_spanish(alice, bot_level="strong")
    french, _ = await open_lobby("fr")
    turkish, _ = await open_lobby("tr")
    english, _ = await open_lobby()
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.update"})
    assert computer_names(await tables_frame(french)) == {running.pk: FRENCH}
    assert computer_names(await tables_frame(turkish)) == {running.pk: TURKISH}
    assert computer_names(await tables_frame(english)) == {
        running.pk: ["Computer 2 · strong", "Computer 3 · strong", "Computer 4 · strong"]}
    for comm in (french, turkish, english):
        assert await comm.receive_nothing(timeout=0.01)
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_whose_language_the_message_lacks_gets_the_list_read_in_it(alice):
    # e.g. from a process whose LANGUAGES differ, during a deploy
    running = await started_in_spanish(alice, bot_level="strong")
    french, _ = await open_lobby("fr")
    turkish, _ = await open_lobby("tr")
    given = json.dumps({"type": "tables", "tables": []})
    await get_channel_layer().group_send(LOBBY_GROUP, {"type": "lobby.update", "frames": {"fr": given}})
    assert await french.receive_from(timeout=TIMEOUT) == given  # written as it came
    assert computer_names(await tables_frame(turkish)) == {running.pk: TURKISH}
    await french.disconnect()
    await turkish.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_relay_left_on_a_closed_event_loop_does_not_stop_the_next_loop_s_sockets(alice):
    async def one_loop(disconnect):
        comm, before = await open_lobby()
        table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
        assert sorted(await table_ids(comm)) == sorted([t["id"] for t in before] + [table.pk])
        if disconnect:
            await comm.disconnect()
        # else the loop closes with the socket and its relay still running, as a test's may

    asyncio.run(one_loop(disconnect=False))
    asyncio.run(one_loop(disconnect=True))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_relay_joins_the_group_again_after_the_layer_dropped_it(alice, monkeypatch):
    monkeypatch.setattr(group_relay, "REJOIN_INTERVAL", 0.1)
    comm, _ = await open_lobby()
    relay = lobby_relay.relay_for(get_channel_layer())
    # what the in-memory layer does to a member after its group expiry
    await get_channel_layer().group_discard(LOBBY_GROUP, relay.channel)
    assert not lobby_members()
    await eventually(lambda: lobby_members() == {relay.channel})
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    assert await table_ids(comm) == [table.pk]
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_lobby_opened_while_redis_is_down_gets_its_list_and_the_changes_once_redis_is_back(
        alice, bob, settings, tmp_path):
    # A private Redis, never the machine's shared one, that is not running yet.
    server = PrivateRedis(tmp_path)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [redis_layer_host(server.url)],
                                                      "prefix": "lobbydown"}}}
    try:
        comm, listed = await open_lobby()  # the list is read from the database, not the layer
        assert listed == []
        # A change while Redis is down reaches nobody; the relay's list once it is back does.
        during = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
        await asyncio.to_thread(server.start)
        relay = lobby_relay.relay_for(get_channel_layer())
        await eventually(lambda: relay.channel in lobby_members(), seconds=15)
        frame = json.loads(await comm.receive_from(timeout=15))
        assert [t["id"] for t in frame["tables"]] == [during.pk]
        table = await database_sync_to_async(tables.create_table)(bob, "okey51", {}, mode="online")
        assert sorted(await table_ids(comm)) == sorted([during.pk, table.pk])
        await comm.disconnect()
        await get_channel_layer().flush()
    finally:
        server.stop()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_running_match_shows_its_round_once_the_seeding_window_dealt_it(alice, bob, settings, monkeypatch):
    # a table from before the hash chain keeps a seeding window before each deal
    from games.play import rounds

    monkeypatch.setattr(rounds, "draw_chain", lambda length: {"chain_seed": "", "chain_tip": "", "chain_length": 0})
    settings.OKEY_SEED_WINDOW = 0.2  # seconds
    comm, _ = await open_lobby()
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    await database_sync_to_async(tables.join_table)(bob, table.pk)
    await database_sync_to_async(tables.start_match)(alice, table.pk)
    frames = [json.loads(await comm.receive_from(timeout=TIMEOUT)) for _ in range(3)]  # create, join, start
    running = [t for t in frames[-1]["tables"] if t["id"] == table.pk]
    assert running and running[0]["round"] is None  # the window is open: nothing dealt yet
    await asyncio.sleep(0.4)  # the window is over; its timer task is run here, as the worker would

    def close_the_window():
        from games.models import Game
        from games.play import seeding
        from games.play.timers import timer_args

        return seeding.close_window(*timer_args(Game.objects.get(table=table)))

    assert await database_sync_to_async(close_the_window)()
    frame = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert [t["round"] for t in frame["tables"] if t["id"] == table.pk] == [1]
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_tables_seated_in_one_transaction_reach_the_lobby_in_one_list(make_user):
    # an arena's pairing seats a whole wave under one transaction: the lobby hears of it
    # once, with every table, not once per table
    from django.db import transaction

    users = [await database_sync_to_async(make_user)(f"wave{k}") for k in range(8)]
    comm, _tables = await open_lobby()

    def seat_wave():
        with transaction.atomic():
            return [tables.seat_together(users[k:k + 4], "okey51").pk for k in (0, 4)]

    made = await database_sync_to_async(seat_wave)()
    assert sorted(await table_ids(comm)) == sorted(made)
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_change_rolled_back_inside_the_transaction_does_not_swallow_the_next_ones_list(make_user):
    from django.db import transaction

    users = [await database_sync_to_async(make_user)(f"undo{k}") for k in range(2)]
    comm, _tables = await open_lobby()

    def undone_then_made():
        with transaction.atomic():
            try:
                with transaction.atomic():
                    tables.create_table(users[0], "okey51", {}, mode="online")  # its list is scheduled here
                    raise RuntimeError("rolled back")
            except RuntimeError:
                pass
            return tables.create_table(users[1], "okey51", {}, mode="online").pk

    made = await database_sync_to_async(undone_then_made)()
    assert await table_ids(comm) == [made]
    assert await comm.receive_nothing(timeout=0.5)
    await comm.disconnect()
