"""Racing moves over two servers: the scaled deployment runs several daphne processes on one
PostgreSQL and one Redis, so the frames of one player's tabs reach different processes, each
with its own pool of database threads. Nothing in memory is shared between them; only the
game's row lock and version check (games/play/commit.py) decide, and they must still let
exactly one of fifty racing moves through, whose new version reaches the other player's
sockets on both servers through the Redis channel layer.

The two servers are real `daphne okeysite.asgi:application` processes on this test's
database (pytest-django's, with committed transactions) and this run's Redis, channel
prefix and Celery queue (tests/conftest.py)."""
import asyncio
import json
import sys

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

from bench.live.wsclient import connect
from bench.stack import Stack, daphne, free_port, site_env, wait_for_port
from games.engine import api
from games.models import Game, Move
from okeysite.celery import app as celery_app
from tests.games.test_consumers import two_player_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TABS_PER_SERVER = (3, 2)  # alice's tabs on the first and on the second server
FRAMES_PER_TAB = 10
TIMEOUT = 10  # seconds for any one frame
# daphne's own command line, after pointing the timers the commit path sends at this run's
# Celery queue (argv[1]), as tests/conftest.py does in this process: no worker takes them,
# and the queue is purged at the end of the session.
BOOT = ("import sys; from okeysite.celery import app; "
        "app.conf.task_default_queue = app.conf.task_default_routing_key = sys.argv.pop(1); "
        "from daphne.cli import CommandLineInterface; CommandLineInterface.entrypoint()")


@pytest.fixture
def servers(tmp_path, transactional_db):
    """Two daphne processes in the scaled mode on the test database; yields (stack, [port, port]).
    They are stopped before pytest-django empties the database."""
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.fail("this test needs the test run's PostgreSQL and Redis (make test)")
    db = connection.settings_dict
    login = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    env = site_env(settings.REDIS_URL, f"postgres://{login}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
                   OKEY_CHANNEL_PREFIX=settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"],
                   SECRET_KEY=settings.SECRET_KEY,  # the sessions made here must be valid there
                   ALLOWED_HOSTS="127.0.0.1,localhost", OKEY_SEED_WINDOW="0")
    ports = [free_port()]
    while len(ports) < 2:
        ports += [port for port in [free_port()] if port not in ports]
    stack = Stack(tmp_path, env)
    queue = celery_app.conf.task_default_queue
    try:
        stack.start({f"web-{port}": [sys.executable, "-c", BOOT, queue, *daphne(port)[3:]] for port in ports})
        for port in ports:
            wait_for_port(port, 60, stack.procs[f"web-{port}"])
        yield stack, ports
    finally:
        stack.stop()


class Tab:
    """One real socket to one server, recording every frame it receives."""

    def __init__(self, port, ws):
        self.port, self.ws, self.frames = port, ws, []

    @classmethod
    async def open(cls, port, table_id, cookie):
        origin = f"http://127.0.0.1:{port}"
        ws = await connect("127.0.0.1", port, f"/ws/table/{table_id}/",
                           {"Origin": origin, "Cookie": cookie.decode()}, timeout=TIMEOUT)
        return cls(port, ws)

    async def recv(self):
        text = await asyncio.wait_for(self.ws.recv(), TIMEOUT)
        assert text is not None, f"socket on port {self.port} closed with {self.ws.close_code}"
        frame = json.loads(text)
        self.frames.append(frame)
        return frame

    async def snapshot_at(self, version):
        while (frame := await self.recv())["type"] != "snapshot" or frame["version"] < version:
            pass
        return frame

    def answers(self):
        return [f for f in self.frames if f["type"] in ("ack", "error") and "id" in f]

    async def all_answers(self, count):
        while len(self.answers()) < count:
            await self.recv()
        return self.answers()


async def test_one_of_fifty_moves_racing_over_two_servers_is_accepted(servers, alice, bob, session_cookie):
    stack, ports = servers
    table = await two_player_table(alice, bob)
    game = await database_sync_to_async(Game.objects.get)(table=table)
    # every tile alice may discard now: any one of them, first under the lock, is accepted
    tiles = [action["tile"] for action in api.legal_actions(game.position, 0) if action["type"] == "discard"]
    assert len(tiles) >= 10
    alice_cookie = await database_sync_to_async(session_cookie)(alice)
    bob_cookie = await database_sync_to_async(session_cookie)(bob)
    tabs = [await Tab.open(port, table.pk, alice_cookie)
            for port, count in zip(ports, TABS_PER_SERVER) for _ in range(count)]
    bobs = {port: await Tab.open(port, table.pk, bob_cookie) for port in ports}
    for socket in [*tabs, *bobs.values()]:  # each is in its groups once it has its first snapshot
        assert (await socket.snapshot_at(game.version))["version"] == game.version

    tile_of = {}
    frames = []
    for t, tab in enumerate(tabs):
        for n in range(FRAMES_PER_TAB):
            frame_id = f"{t}-{n}"
            tile_of[frame_id] = tiles[(t * FRAMES_PER_TAB + n) % len(tiles)]
            frames.append(tab.ws.send(json.dumps({"type": "action", "id": frame_id, "version": game.version,
                                                  "action": {"type": "discard", "tile": tile_of[frame_id]}})))
    assert all(await asyncio.gather(*frames))
    answers = {tab.port: [] for tab in tabs}
    for tab in tabs:
        answers[tab.port] += await tab.all_answers(FRAMES_PER_TAB)

    everything = [f for port_answers in answers.values() for f in port_answers]
    acks = [f for f in everything if f["type"] == "ack"]
    errors = [f for f in everything if f["type"] == "error"]
    assert len(everything) == len(tabs) * FRAMES_PER_TAB == 50
    assert sorted(f["id"] for f in everything) == sorted(tile_of)
    assert len(acks) == 1 and len(errors) == 49, acks
    assert acks[0]["version"] == game.version + 1
    assert {f["code"] for f in errors} <= {"stale_version", "not_your_turn"}
    after = await database_sync_to_async(Game.objects.get)(table=table)
    assert after.version == game.version + 1
    moves = await database_sync_to_async(list)(Move.objects.filter(round_id=game.round_id))
    assert len(moves) == 1
    won = tile_of[acks[0]["id"]]
    assert moves[0].action["tile"] == won

    # bob sees the new version on both servers, the one that did not take the move first
    ack_port = next(port for port, port_answers in answers.items() if acks[0] in port_answers)
    other_port = next(port for port in ports if port != ack_port)
    for port in (other_port, ack_port):
        snapshot = await bobs[port].snapshot_at(game.version + 1)
        assert snapshot["version"] == game.version + 1
        assert snapshot["view"]["discards"][0] == [won] and snapshot["view"]["turn"] == 1

    for socket in [*tabs, *bobs.values()]:
        await socket.ws.close()
    stack.stop()
    for label in stack.procs:
        log = stack.log_text(label)
        assert "Traceback" not in log, f"{label}:\n{log[-3000:]}"
