"""A seeded, bounded fuzz of the table socket: 10,000 mixed frames (legal moves, moves out
of turn, forged tiles, deep JSON, huge strings, bad Unicode, wrong types, unknown types)
from two players and a spectator over real Channels communicators, against a real table
in PostgreSQL with the Redis channel layer.

Asserts: no error logged by the server and no crash, no close but the ones the frame
asks for (1009 too big, 1007 not UTF-8; the socket then reconnects), every frame answered
in order (each is followed by a marker frame whose `bad_frame` answer closes its answers),
and the game state unchanged by every frame that got no `ack`: only accepted moves and the
computers' turns (run here as the worker would) move it.
"""
import json
import logging
import os
import random

import pytest
from channels.db import database_sync_to_async

from games import tasks
from games.engine import api
from games.models import Game, Move
from games.play.timers import timer_args
from tests.games.test_consumers import Client, connected_pair

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

SEED = 20261201
FRAMES = int(os.environ.get("OKEY_FUZZ_FRAMES", 10_000))
BATCH = 25  # frames sent before the marker that ends their answers
RULES_FIELDS = {"type", "seat", "tile", "melds", "tiles", "meld", "then", "table", "owner"}
TIMERS = {"bot": tasks.bot_turn, "next_round": tasks.next_round}


class Errors(logging.Handler):
    """Collects every record at ERROR or above from the server's loggers."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record)


@database_sync_to_async
def state(table):
    """(version, position, moves logged) of the table's game now."""
    game = Game.objects.get(table=table)
    return game.version, game.position, Move.objects.filter(round__match__table=table).count()


@database_sync_to_async
def only_acked_moves_changed_it(table, before, acks):
    """The game moved from `before` (a `state`) by exactly the `acks` accepted moves: one
    version and one logged move each, and replaying those moves' actions on the position
    of `before` gives the stored position. Returns the state now."""
    version, position, count = before
    game = Game.objects.get(table=table)
    moves = list(Move.objects.filter(round__match__table=table).order_by("pk")[count:])
    assert (game.version, len(moves)) == (version + acks, acks), (game.version, version, len(moves), acks)
    for move in moves:
        assert set(move.action) <= RULES_FIELDS, move.action  # extra fields never reach the log
        stepped = api.step(position, move.action)
        assert stepped.accepted, move.action
        position = stepped.position
    assert position == game.position
    return game.version, game.position, count + acks


@database_sync_to_async
def run_computers(table):
    """Play the computers' turns and deal next rounds, as the worker would. Returns True
    when something moved."""
    moved = False
    for _ in range(60):
        game = Game.objects.get(table=table)
        if game.deadline_kind not in TIMERS:
            return moved
        assert TIMERS[game.deadline_kind](*timer_args(game))
        moved = True
    return moved


def junk(rng):
    return rng.choice(["", "x" * rng.randint(1, 3000), 12, None, [1, [2]], {"a": {"b": "c"}}, True, -1.5])


def forged_tile(rng):
    return rng.choice(["R99", "Z1", "F=Q3", "", "R", "r5", "R5=", "J", "R1=R1=R1", "\u0000", "\ud800", "🀄", "R5 "])


def fuzz_frame(rng, me, view):
    """One frame for a socket with the last `view` it saw (me: "a"/"b" seated, "c" spectator).
    Returns (text or bytes, expected close code or None)."""
    version = view["version"] if view else 0
    rack = (view or {}).get("rack") or ["R1"]
    kind = rng.choices(
        ["legal", "out_of_turn", "forged", "deep", "huge", "unicode", "types", "unknown", "stale", "misc", "close"],
        weights=[5, 6, 8, 8, 8, 12, 16, 8, 4, 12, 0.25])[0]
    action = None
    if kind == "legal" and view:
        if view.get("phase") == "draw":
            action = {"type": "draw"}
        else:
            action = {"type": "discard", "tile": rng.choice(rack)}
        if rng.random() < 0.5:
            action["seat"] = rng.randint(0, 3)
            action[rng.choice(["junk", "x", "\u0000key"])] = junk(rng)
    elif kind == "out_of_turn":
        action = rng.choice([{"type": "discard", "tile": rng.choice(rack)}, {"type": "draw"},
                             {"type": "take_discard"}, {"type": "open", "melds": [rack[:3]]}])
    elif kind == "forged":
        tile = forged_tile(rng)
        action = rng.choice([{"type": "discard", "tile": tile},
                             {"type": "add", "meld": rng.randint(-5, 5), "tile": tile},
                             {"type": "open", "melds": [[tile, tile, tile]]}, {"type": "swap", "meld": 1, "tile": tile},
                             {"type": "meld", "tiles": [tile] * 3, "owner": rng.randint(-3, 9)},
                             {"type": "take_discard", "then": {"type": "meld", "tiles": [tile]}}])
    elif kind == "stale":
        action = {"type": "discard", "tile": rng.choice(rack)}
        version = max(0, version - rng.randint(1, 5))
    if action is not None:
        return json.dumps({"type": "action", "id": f"f{rng.randrange(10**9)}", "version": version,
                           "action": action}), None
    if kind == "deep":
        depth = rng.choice([13, 50, 1000, 5000])
        body = rng.choice(["[" * depth + "]" * depth, '{"type": "action", "action": ' + '{"a": ' * min(depth, 2000)
                           + "1" + "}" * min(depth, 2000) + "}"])
        return body, None
    if kind == "huge":
        size = rng.choice([400, 5000, 15000])
        field = rng.choice([("chat", "text"), ("report", "reason"), ("report", "user"), ("sync", "x")])
        return json.dumps({"type": field[0], field[1]: "h" * size}), None
    if kind == "unicode":
        bad = rng.choice(["\u0000", "\ud800", "\udfff", "a\x07b", "\n", "\x9b", "ok\u202eevil", "é" * 50])
        return json.dumps({"type": rng.choice(["chat", "report"]), "text": bad, "user": rng.choice([None, bad, "bob"]),
                           "reason": bad}), None
    if kind == "types":
        return rng.choice([
            json.dumps({"type": rng.choice([1, None, [], {}, True])}),
            json.dumps({"type": "action", "id": junk(rng), "version": version, "action": {"type": "draw"}}),
            json.dumps({"type": "action", "id": "t", "version": rng.choice(["1", None, 1.5, True, -3, 10**30]),
                        "action": {"type": "draw"}}),
            json.dumps({"type": "action", "id": "t", "version": version, "action": junk(rng)}),
            json.dumps({"type": "chat", "text": junk(rng)}),
            json.dumps({"type": "report", "user": junk(rng), "reason": junk(rng)}),
            json.dumps([1, 2, 3]), "not json", "{", '{"type": NaN}', "1" * 6000, " ",
        ]), None
    if kind == "unknown":
        return json.dumps({"type": rng.choice(["teleport", "seed", "admin", "", "ACTION", "sync2"]), "id": "u"}), None
    if kind == "misc":
        return rng.choice([json.dumps({"type": "sync"}), json.dumps({"type": "resume"}), json.dumps({"type": "ping"}),
                           json.dumps({"type": "chat", "text": f"hello {me}"}),
                           json.dumps({"type": "report", "user": "bob", "reason": "fuzz"})]), None
    # kind == "close": frames the socket is closed for
    return rng.choice([("x" * 17000, 1009), (b"\xff\xfe\xfd", 1007), ('{"type": "chat", "text": "\ud800"}', 1007)])


async def answers_until_marker(client, marker):
    """Frames received up to the `bad_frame` answer of marker id `marker` (excluded)."""
    got = []
    while True:
        out = await client.comm.receive_output(timeout=10)
        assert out["type"] == "websocket.send", f"unexpected close {out.get('code')} before {marker}"
        frame = json.loads(out["text"])
        if frame["type"] == "error" and frame.get("id") == marker:
            assert frame["code"] == "bad_frame"
            return got
        got.append(frame)


async def send_raw(client, payload):
    if isinstance(payload, bytes):
        await client.comm.send_to(bytes_data=payload)
    else:
        await client.comm.send_to(text_data=payload)


async def test_ten_thousand_fuzzed_frames_crash_nothing_and_change_nothing_unacked(
        alice, bob, carol, session_cookie, settings):
    settings.OKEY_WS_RATE = 1e9  # the fuzz measures the frame checks, not the flood limiter
    settings.OKEY_WS_BURST = 1e9
    # nor the probe of a quiet player on turn: a client waiting its batch's turn on a busy
    # machine is silent for seconds (the probe has tests/browser/test_dropped_network.py)
    settings.OKEY_WS_PROBE_DEAD = 3600
    errors = Errors()
    loggers = [logging.getLogger(name) for name in ("", "games", "okeysite", "django", "channels", "daphne")]
    for logger in loggers:
        logger.addHandler(errors)
    rng = random.Random(SEED)
    table, a, b, snap_a, snap_b = await connected_pair(alice, bob, session_cookie)
    cookies = {"a": await database_sync_to_async(session_cookie)(alice),
               "b": await database_sync_to_async(session_cookie)(bob),
               "c": await database_sync_to_async(session_cookie)(carol)}
    c = Client(table.pk, cookies["c"])
    assert (await c.connect())[0]
    clients = {"a": a, "b": b, "c": c}
    views = {"a": dict(snap_a["view"], version=snap_a["version"]), "b": dict(snap_b["view"], version=snap_b["version"]),
             "c": None}
    expected = await state(table)
    counts = {"frames": 0, "acks": 0, "closes": 0, "errors": 0}
    try:
        batch_number = 0
        while counts["frames"] < FRAMES:
            me = rng.choice("aabbc")
            client = clients[me]
            closing = None
            for _ in range(min(BATCH, FRAMES - counts["frames"])):
                payload, close_code = fuzz_frame(rng, me, views[me])
                counts["frames"] += 1
                if close_code is not None:  # sent after this batch's answers
                    closing = payload, close_code
                    break
                await send_raw(client, payload)
            marker = f"m{batch_number}"
            batch_number += 1
            await client.send({"type": "action", "id": marker, "version": -1, "action": {}})
            got = await answers_until_marker(client, marker)
            for frame in got:
                if frame["type"] == "snapshot":
                    views[me] = dict(frame["view"], version=frame["version"])
            acks = sum(frame["type"] == "ack" for frame in got)
            counts["acks"] += acks
            counts["errors"] += sum(frame["type"] == "error" for frame in got)
            expected = await only_acked_moves_changed_it(table, expected, acks)
            if closing is not None:
                await send_raw(client, closing[0])
                out = await client.comm.receive_output(timeout=10)
                while out["type"] == "websocket.send":  # broadcasts queued before the close
                    out = await client.comm.receive_output(timeout=10)
                assert (out["type"], out.get("code")) == ("websocket.close", closing[1]), (closing[0][:40], out)
                counts["closes"] += 1
                await client.close()
                clients[me] = Client(table.pk, cookies[me])
                assert (await clients[me].connect())[0]
                # A seated player's last socket closing and opening again hands the turn to
                # the computer and back (presence): a change of its own, not a frame's.
                expected = await state(table)
            if batch_number % 4 == 0 and await run_computers(table):
                expected = await state(table)  # the other sockets learn of it from its broadcast
        assert await state(table) == expected
    finally:
        for logger in loggers:
            logger.removeHandler(errors)
        for client in clients.values():
            await client.close()
    print(f"fuzz: {counts}")
    assert [r.getMessage() for r in errors.records] == []
    assert counts["acks"] >= 10, counts  # legal moves were played, not only refused
    assert counts["errors"] >= FRAMES // 2 and counts["closes"] >= 10, counts
