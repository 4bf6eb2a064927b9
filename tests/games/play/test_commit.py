"""The commit path itself: the timers it schedules reach the real broker, and a version
sends the table group only what someone there reads."""
import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.models import Table
from games.play import tables, turns
from games.play.timers import timer_args
from okeysite import socket_groups
from tests.games.play.helpers import game_of, online_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_scheduled_timers_go_to_the_real_broker_in_this_runs_queue(alice, settings):
    from okeysite.celery import app
    from tests.conftest import TEST_QUEUE

    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("REDIS_URL is not set: the embedded memory broker is the configuration")
    settings.OKEY_TIMER_HORIZON = 3600  # the first move time is due soon: its timer goes out at commit
    with app.connection_for_write() as conn:
        before = conn.default_channel.client.llen(TEST_QUEUE)
        tables.create_table(alice, "okey51", {}, mode="solo")  # arms alice's move timer on commit
        assert conn.default_channel.client.llen(TEST_QUEUE) == before + 1


def test_only_the_commit_path_bumps_versions_logs_moves_or_sets_deadlines():
    """ARCHITECTURE.md invariant 2, read off the source: outside games/play/commit.py no
    module of the project assigns Game.version or a deadline, nor creates Move rows."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    writes = re.compile(r"\.version\s*(\+?=)(?!=)|\.deadline(_kind)?\s*=(?!=)|Move\.objects\.(bulk_)?create|"
                        r"\bMove\((?!models\.Model)|update\([^)]*\b(version|deadline)\b")
    found = []
    for package in ("games", "accounts", "leaderboards", "okeysite"):
        for path in (root / package).rglob("*.py"):
            relative = path.relative_to(root).as_posix()
            if "/migrations/" in relative or relative == "games/play/commit.py" or "/engine/" in relative:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if writes.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []


@pytest.mark.asyncio
async def test_a_version_nobody_watches_sends_the_table_group_nothing_and_a_watched_one_its_public_view(
        alice, bob):
    layer = get_channel_layer()
    table = await database_sync_to_async(online_table)(alice, bob)
    listener = await layer.new_channel()  # what a spectator's socket would hear on the table group
    await layer.group_add(socket_groups.table_group(table.pk), listener)
    game = await database_sync_to_async(game_of)(table)
    tile = game.position["seats"][0]["rack"][0]
    assert (await database_sync_to_async(turns.submit_action)(alice, table.pk, {"type": "discard", "tile": tile},
                                                              game.version)).ok
    # One receive for the whole test: a cancelled one makes the Redis layer drop the listener
    receiving = asyncio.create_task(layer.receive(listener))
    await asyncio.sleep(1.5)
    assert not receiving.done(), receiving.result()
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(spectators=1)  # as `recount` does
    game = await database_sync_to_async(game_of)(table)
    assert await database_sync_to_async(turns.run_bot_turn)(*timer_args(game))  # the computer facing alice
    message = await asyncio.wait_for(receiving, timeout=10)
    assert message["type"] == "table.update" and message["version"] == game.version + 1
    assert json.loads(message["text"])["seat"] is None  # the public view, no seat's
    assert message["seated"] == [alice.pk, bob.pk]  # their sockets drop it: each has its own view
    await layer.group_discard(socket_groups.table_group(table.pk), listener)
