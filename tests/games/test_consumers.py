"""The live table socket (docs/protocol.md §1-§4) with WebsocketCommunicator, against the test
database (PostgreSQL) and the configured channel layer (Redis in CI)."""
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import tasks
from games.models import Game, Move
from games.play import commit, tables
from games.play.timers import timer_args
from okeysite import socket_groups
from okeysite.routing import build_application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

APP = build_application()
TIMEOUT = 5


class Client:
    """One socket, recording every frame it receives."""

    def __init__(self, table_id, cookie, origin=b"http://localhost"):
        headers = [(b"origin", origin), (b"host", b"localhost")]
        if cookie:
            headers.append((b"cookie", cookie))
        self.comm = WebsocketCommunicator(APP, f"/ws/table/{table_id}/", headers=headers)
        self.frames = []

    async def connect(self):
        connected, code = await self.comm.connect(timeout=TIMEOUT)
        return connected, code

    async def send(self, frame):
        await self.comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def recv(self):
        frame = json.loads(await self.comm.receive_from(timeout=TIMEOUT))
        self.frames.append(frame)
        return frame

    async def recv_type(self, kind, limit=20):
        """Receive frames until one of type `kind` (at most `limit` frames); returns it."""
        for _ in range(limit):
            frame = await self.recv()
            if frame["type"] == kind:
                return frame
        raise AssertionError(f"no {kind} frame")

    async def recv_snapshot_at(self, version):
        """Receive until the snapshot of `version` (earlier refresh snapshots may be queued)."""
        for _ in range(20):
            frame = await self.recv_type("snapshot")
            if frame["version"] >= version:
                return frame
        raise AssertionError(f"no snapshot at version {version}")

    async def drain(self):
        """Receive whatever is pending (until a short silence)."""
        while not await self.comm.receive_nothing(timeout=0.3):
            await self.recv()

    async def close(self):
        await self.comm.disconnect()


@database_sync_to_async
def two_player_table(alice, bob):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=30)
    tables.join_table(bob, table.pk)
    tables.start_match(alice, table.pk)
    return table


@database_sync_to_async
def game_state(table):
    game = Game.objects.get(table=table)
    return game.version, game.position


async def connected_pair(alice, bob, session_cookie):
    table = await two_player_table(alice, bob)
    a = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    b = Client(table.pk, await database_sync_to_async(session_cookie)(bob))
    assert (await a.connect())[0] and (await b.connect())[0]
    snap_a = await a.recv_type("snapshot")
    snap_b = await b.recv_type("snapshot")
    return table, a, b, snap_a, snap_b


async def test_two_players_at_one_table_see_their_own_seats(alice, bob, session_cookie):
    table, a, b, snap_a, snap_b = await connected_pair(alice, bob, session_cookie)
    version, position = await game_state(table)
    assert snap_a["view"]["seat"] == 0 and snap_b["view"]["seat"] == 2
    assert snap_a["version"] == snap_b["version"] == version
    assert snap_a["view"]["rack"] == position["seats"][0]["rack"]
    assert snap_b["view"]["rack"] == position["seats"][2]["rack"]
    assert snap_a["view"]["rack_counts"] == [15, 14, 14, 14]
    assert snap_a["view"]["players"][2]["name"] == "bob" and snap_a["view"]["players"][1]["computer"]
    assert isinstance(snap_a["view"]["deadline"], int)

    # alice discards: ack + snapshot for her, a snapshot for bob, both at the new version
    tile = snap_a["view"]["rack"][0]
    await a.send({"type": "action", "id": "a1", "version": version, "action": {"type": "discard", "tile": tile}})
    ack = await a.recv_type("ack")
    assert ack == {"type": "ack", "id": "a1", "version": version + 1}
    after_a = await a.recv_type("snapshot")
    after_b = await b.recv_snapshot_at(version + 1)
    assert after_a["version"] == after_b["version"] == version + 1
    assert after_b["view"]["discards"][0] == [tile] and after_b["view"]["turn"] == 1
    await a.close()
    await b.close()


def record_seat_views(monkeypatch):
    """[(group, version)] of every `table.view` the writer hands to the door out, still sent."""
    sent = []
    real = commit._on_commit_send

    def recording(messages, order):
        sent.extend((group, m["version"]) for group, m in messages if m["type"] == "table.view")
        real(messages, order)

    monkeypatch.setattr(commit, "_on_commit_send", recording)
    return sent


async def test_the_actors_view_goes_to_its_socket_once_and_to_its_other_tabs(alice, bob, session_cookie,
                                                                           monkeypatch):
    sent = record_seat_views(monkeypatch)
    table, a, b, snap_a, _ = await connected_pair(alice, bob, session_cookie)
    # alice has a second tab: her move reaches it through her seat group
    tab = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await tab.connect())[0]
    await tab.recv_type("snapshot")
    version = snap_a["version"]
    await a.send({"type": "action", "id": "m1", "version": version,
                  "action": {"type": "discard", "tile": snap_a["view"]["rack"][0]}})
    await a.recv_type("ack")
    assert (await a.recv_snapshot_at(version + 1))["view"]["seat"] == 0
    assert (await tab.recv_snapshot_at(version + 1))["view"]["seat"] == 0
    assert (socket_groups.seat_group(table.pk, alice.pk), version + 1) in sent

    # bob has one socket: it sends his view itself, his seat group is sent no copy
    for _ in range(30):
        game = await database_sync_to_async(Game.objects.get)(table=table)
        if game.deadline_kind != "bot":
            break
        await database_sync_to_async(tasks.bot_turn)(*timer_args(game))
    version, position = await game_state(table)
    assert position["turn"] == 2
    await b.recv_snapshot_at(version)
    await b.send({"type": "action", "id": "m2", "version": version, "action": {"type": "draw"}})
    assert (await b.recv_type("ack"))["version"] == version + 1
    own = await b.recv_snapshot_at(version + 1)
    assert own["view"]["seat"] == 2 and len(own["view"]["rack"]) == 15
    assert (socket_groups.seat_group(table.pk, alice.pk), version + 1) in sent  # the others still hear
    assert (socket_groups.seat_group(table.pk, bob.pk), version + 1) not in sent
    for client in (a, b, tab):
        await client.close()


async def test_each_players_frames_never_contain_the_others_tiles(alice, bob, session_cookie):
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)
    history = {}  # version -> position, to check every frame against the racks of its time

    async def remember():
        version, position = await game_state(table)
        history[version] = position
        return version, position

    version, position = await remember()
    tile = position["seats"][0]["rack"][0]
    await a.send({"type": "action", "id": "x", "version": version, "action": {"type": "discard", "tile": tile}})
    await a.recv_type("ack")
    await remember()
    # the computer at seat 1 plays its turn as the worker would; both sockets follow
    for _ in range(30):
        game = await database_sync_to_async(Game.objects.get)(table=table)
        if game.deadline_kind != "bot":
            break
        await database_sync_to_async(tasks.bot_turn)(*timer_args(game))
        await remember()
    await a.send({"type": "sync"})
    await b.send({"type": "sync"})
    await a.drain()
    await b.drain()
    for client, own in ((a, 0), (b, 2)):
        snapshots = [f for f in client.frames if f["type"] == "snapshot"]
        assert len(snapshots) >= 3
        for frame in snapshots:
            position = history[frame["version"]]
            view = frame["view"]
            assert view["seat"] == own
            assert view["rack"] == position["seats"][own]["rack"]
            assert view["rack_counts"] == [len(seat["rack"]) for seat in position["seats"]]
            assert view["pile_count"] == len(position["pile"])
            assert "pile" not in view and "seats" not in view and view["seed"] is None
            text = json.dumps(frame)
            for seat in range(4):
                if seat != own:
                    assert json.dumps(position["seats"][seat]["rack"]) not in text
            assert json.dumps(position["pile"][:3])[1:-1] not in text
    await a.close()
    await b.close()


async def test_a_refused_move_leaves_the_state_unchanged_and_the_socket_usable(alice, bob, session_cookie):
    table, a, b, snap_a, _ = await connected_pair(alice, bob, session_cookie)
    before = await game_state(table)
    await a.send({"type": "action", "id": "d1", "version": before[0], "action": {"type": "draw"}})
    err = await a.recv_type("error")
    assert err["id"] == "d1" and err["code"] == "wrong_phase" and err["message"]
    assert await game_state(table) == before
    assert await database_sync_to_async(Move.objects.count)() == 0
    # out of turn
    await b.send({"type": "action", "id": "b1", "version": before[0], "action": {"type": "discard", "tile": "R1"}})
    err_b = await b.recv_type("error")
    assert err_b["code"] == "not_your_turn"
    assert await game_state(table) == before
    # the same id is answered the same way, once
    await a.send({"type": "action", "id": "d1", "version": before[0], "action": {"type": "draw"}})
    assert await a.recv_type("error") == err
    # still usable: a legal move goes through
    tile = snap_a["view"]["rack"][0]
    await a.send({"type": "action", "id": "d2", "version": before[0], "action": {"type": "discard", "tile": tile}})
    assert (await a.recv_type("ack"))["version"] == before[0] + 1
    await a.close()
    await b.close()


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[1, 2]",
        json.dumps({"no": "type"}),
        json.dumps({"type": "action", "id": "z", "version": "1", "action": {"type": "draw"}}),
        json.dumps({"type": "action", "id": "z", "version": 1, "action": "draw"}),
        json.dumps({"type": "action", "version": 1, "action": {"type": "draw"}}),
        json.dumps({"type": "teleport"}),
        "[" * 5000 + "]" * 5000,
    ],
)
async def test_a_malformed_frame_gets_bad_frame_and_the_socket_still_works(alice, bob, session_cookie, frame):
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)
    before = await game_state(table)
    await a.send(frame)
    err = await a.recv_type("error")
    assert err["code"] == "bad_frame"
    assert await game_state(table) == before
    await a.send({"type": "sync"})
    snap = await a.recv_type("snapshot")
    assert snap["version"] == before[0]
    await a.close()
    await b.close()


async def test_a_stale_version_is_refused_and_a_fresh_snapshot_follows(alice, bob, session_cookie):
    table, a, b, snap_a, _ = await connected_pair(alice, bob, session_cookie)
    version, _ = await game_state(table)
    tile = snap_a["view"]["rack"][0]
    await a.send({"type": "action", "id": "s1", "version": version - 1, "action": {"type": "discard", "tile": tile}})
    err = await a.recv_type("error")
    assert err["code"] == "stale_version"
    snap = await a.recv_type("snapshot")
    assert snap["version"] == version
    assert (await game_state(table))[0] == version
    await a.close()
    await b.close()


async def test_error_messages_follow_the_language_cookie(alice, bob, session_cookie):
    table = await two_player_table(alice, bob)
    cookie = await database_sync_to_async(session_cookie)(alice) + b"; django_language=fr"
    a = Client(table.pk, cookie)
    assert (await a.connect())[0]
    await a.recv_type("snapshot")
    await a.send("{")
    err = await a.recv_type("error")
    assert err["code"] == "bad_frame" and err["message"] == "Message mal formé."
    await a.close()


async def test_a_spectator_gets_no_rack_and_cannot_play(alice, bob, carol, session_cookie):
    table = await two_player_table(alice, bob)
    c = Client(table.pk, await database_sync_to_async(session_cookie)(carol))
    assert (await c.connect())[0]
    snap = await c.recv_type("snapshot")
    assert snap["view"]["seat"] is None and snap["view"]["rack"] == []
    await c.send({"type": "action", "id": "c1", "version": snap["version"], "action": {"type": "draw"}})
    assert (await c.recv_type("error"))["code"] == "not_seated"
    await c.close()


async def test_anonymous_sockets_watch_and_foreign_origin_sockets_are_refused(alice, bob, session_cookie):
    table = await two_player_table(alice, bob)
    anonymous = Client(table.pk, None)
    connected, _ = await anonymous.connect()
    assert connected  # a public table: anyone may watch
    snap = await anonymous.recv_type("snapshot")
    assert snap["view"]["seat"] is None and snap["view"]["rack"] == []
    await anonymous.close()
    foreign = Client(table.pk, await database_sync_to_async(session_cookie)(alice), origin=b"http://evil.example")
    connected, _ = await foreign.connect()
    assert not connected


async def test_reconnecting_gives_the_same_seat_and_rack(alice, bob, session_cookie):
    table, a, b, snap_a, _ = await connected_pair(alice, bob, session_cookie)
    await a.close()
    again = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await again.connect())[0]
    snap = await again.recv_type("snapshot")
    assert snap["view"]["seat"] == 0 and snap["view"]["rack"] == snap_a["view"]["rack"]
    assert snap["view"]["players"][0]["autoplay"] is False
    await again.close()
    await b.close()


async def test_the_lobby_socket_lists_open_tables_live(alice, bob, session_cookie):
    comm = WebsocketCommunicator(APP, "/ws/lobby/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    assert (await comm.connect(timeout=TIMEOUT))[0]
    first = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert first == {"type": "tables", "tables": []}
    table = await database_sync_to_async(tables.create_table)(alice, "okey51", {}, mode="online")
    update = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert [t["id"] for t in update["tables"]] == [table.pk]
    await database_sync_to_async(tables.join_table)(bob, table.pk)
    update = json.loads(await comm.receive_from(timeout=TIMEOUT))
    assert update["tables"][0]["seats_taken"] == 2
    await comm.disconnect()


async def test_players_get_the_round_end_score_table(alice, bob, session_cookie):
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)

    @database_sync_to_async
    def computers_play_the_round():
        from datetime import timedelta

        from django.utils import timezone

        from games.models import Seat

        Seat.objects.filter(table=table).update(autoplay=True)
        task_for = {"move": tasks.turn_timeout, "bot": tasks.bot_turn}
        for _ in range(3000):
            game = Game.objects.select_related("round").get(table=table)
            if game.deadline_kind not in task_for:
                return game
            game.deadline = timezone.now() - timedelta(seconds=1)
            Game.objects.filter(pk=game.pk).update(deadline=game.deadline)
            assert task_for[game.deadline_kind](*timer_args(game))
        raise AssertionError("the round did not end")

    game = await computers_play_the_round()
    for client in (a, b):
        # every version of the round reaches the socket: a snapshot each, then the score table
        frame = await client.recv_type("round_end", limit=game.version + 5)
        assert frame["version"] == game.version
        rnd = game.round
        assert frame["scores"] == rnd.scores and frame["penalties"] == rnd.penalties
        assert frame["round_totals"] == rnd.totals and frame["totals"] == rnd.totals  # one round so far
        assert frame["server_seed"] == rnd.server_seed and frame["commitment"] == rnd.commitment
        assert frame["client_seeds"] == rnd.client_seeds and frame["algorithm"] == rnd.algorithm
        assert frame["match_over"] is True
    await a.close()
    await b.close()


async def test_a_flood_of_frames_is_rate_limited_and_the_socket_survives(alice, bob, session_cookie, settings):
    settings.OKEY_WS_RATE = 0.001  # no refill during the test: only the burst passes
    settings.OKEY_WS_BURST = 3
    table, a, b, _, _ = await connected_pair(alice, bob, session_cookie)
    await a.drain()
    a.frames.clear()
    for _ in range(5):
        await a.send({"type": "sync"})
    kinds = [(await a.recv())["type"] for _ in range(5)]
    assert kinds.count("snapshot") == 3 and kinds.count("error") == 2
    assert [f["code"] for f in a.frames if f["type"] == "error"] == ["rate_limited", "rate_limited"]
    await a.close()
    await b.close()


@pytest.mark.parametrize("action", [
    {"type": "discard", "tile": 123},
    {"type": "open", "melds": "R1"},
    {"type": "add", "meld": "a", "tile": None},
    {"type": "take_discard", "then": 5},
    {"type": "fly"},
])
async def test_nonsense_actions_are_refused_without_closing_the_socket(alice, bob, session_cookie, action):
    table, a, b, snap_a, _ = await connected_pair(alice, bob, session_cookie)
    before = await game_state(table)
    await a.send({"type": "action", "id": "n1", "version": before[0], "action": action})
    err = await a.recv_type("error")
    assert err["id"] == "n1" and err["code"] in ("bad_action", "tile_not_in_rack", "wrong_phase")
    assert await game_state(table) == before
    await a.send({"type": "sync"})
    assert (await a.recv_type("snapshot"))["version"] == before[0]
    await a.close()
    await b.close()
