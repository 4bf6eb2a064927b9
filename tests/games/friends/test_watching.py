"""Watching a table's socket: anyone may watch a public table (public view only, no
action, no chat); a private table needs a seat or the invite code in the session; the
players see how many watch."""

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient
from django.urls import reverse

from games.models import Game, Table
from games.play import tables, turns
from tests.games.test_consumers import Client

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def started_table(alice, bob, private=False):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", private=private)
    tables.join_table(bob, table.pk, invite=table.invite_code)
    tables.start_match(alice, table.pk)
    return Table.objects.get(pk=table.pk)


@database_sync_to_async
def anonymous_cookie_with_invite(code):
    http = HttpClient()
    http.get(reverse("table_invite", args=[code]))
    from django.conf import settings
    return f"{settings.SESSION_COOKIE_NAME}={http.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


@database_sync_to_async
def spectators(table):
    return Table.objects.get(pk=table.pk).spectators


def racks_in(frame):
    """Every non-empty rack anywhere in a frame (a spectator must get none)."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "rack" and value:
                    found.append(value)
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(frame)
    return found


async def test_an_anonymous_watcher_gets_no_rack_cannot_act_or_chat_and_is_counted(alice, bob, session_cookie):
    table = await started_table(alice, bob)
    player = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await player.connect())[0]
    await player.recv_type("snapshot")
    watcher = Client(table.pk, None)
    assert (await watcher.connect())[0]
    snap = await watcher.recv_type("snapshot")
    assert snap["view"]["seat"] is None and not racks_in(snap)
    assert snap["view"]["spectators"] == 1 and await spectators(table) == 1
    seen = await player.recv_type("snapshot")
    while seen["view"]["spectators"] != 1:
        seen = await player.recv_type("snapshot")
    await watcher.send({"type": "action", "id": "w1", "version": snap["version"], "action": {"type": "draw"}})
    assert (await watcher.recv_type("error"))["code"] == "not_seated"
    await watcher.send({"type": "chat", "text": "hello"})
    assert (await watcher.recv_type("error"))["code"] == "not_seated"
    await watcher.send({"type": "sync"})
    again = await watcher.recv_type("snapshot")
    assert not racks_in(again) and again["view"]["rack"] == []
    await watcher.close()
    for _ in range(20):
        if await spectators(table) == 0:
            break
        await watcher.comm.receive_nothing(timeout=0.1)
    assert await spectators(table) == 0
    await player.close()


async def test_a_private_table_is_watched_only_with_its_invite(alice, bob, carol, session_cookie):
    table = await started_table(alice, bob, private=True)
    stranger = Client(table.pk, await database_sync_to_async(session_cookie)(carol))
    connected, code = await stranger.connect()
    assert not connected and code == 4404  # as for a table that does not exist
    anonymous = Client(table.pk, None)
    assert not (await anonymous.connect())[0]
    invited = Client(table.pk, await anonymous_cookie_with_invite(table.invite_code))
    assert (await invited.connect())[0]
    snap = await invited.recv_type("snapshot")
    assert snap["view"]["seat"] is None and not racks_in(snap)
    await invited.close()
    seated = Client(table.pk, await database_sync_to_async(session_cookie)(bob))
    assert (await seated.connect())[0]
    assert (await seated.recv_type("snapshot"))["view"]["seat"] == 2
    await seated.close()


@database_sync_to_async
def discard_first_tile(user, table):
    game = Game.objects.get(table=table)
    tile = game.position["seats"][game.position["turn"]]["rack"][0]
    assert turns.submit_action(user, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    return game.version + 1


async def test_a_watcher_follows_each_move_without_a_rack(alice, bob, session_cookie):
    # The watcher's socket is counted before it reads its first snapshot (the count waits
    # for the game's lock), so the writer of every later version knows of it and sends the
    # table group the public view; a table nobody watches gets no table message at all.
    table = await started_table(alice, bob)
    watcher = Client(table.pk, None)
    assert (await watcher.connect())[0]
    await watcher.recv_type("snapshot")
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).spectators == 1
    version = await discard_first_tile(alice, table)
    snap = await watcher.recv_snapshot_at(version)
    assert snap["version"] == version and snap["view"]["seat"] is None and not racks_in(snap)
    assert snap["view"]["moves"][-1]["type"] == "discard"
    await watcher.close()
