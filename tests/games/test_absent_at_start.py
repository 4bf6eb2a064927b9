"""A "Play now" table of two humans where one closes the page before the start: the match
starts with a computer in the absent seat, which plays its first turn within the short
disconnect grace instead of waiting out the move clock twice (RULES.md §6, PLAYERS.md
complaint about waiting for absent players); the other human's turns keep their clock.
Real sockets (Channels communicators), PostgreSQL and Redis."""
import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Move, Seat, Table
from games.play import presence, quickmatch
from tests.games.play.helpers import game_of, play_out, run_timer
from tests.games.test_consumers import Client

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def seconds_left(game):
    return (game.deadline - timezone.now()).total_seconds()


@database_sync_to_async
def play_now_pair(alice, bob):
    table = quickmatch.play_now(alice, "okey51")
    assert quickmatch.play_now(bob, "okey51").pk == table.pk
    return table


@database_sync_to_async
def start(table, settings):
    settings.OKEY_QUICK_MATCH_WAIT = 0  # the wait is over: computers take the free seats
    assert quickmatch.start_due(table.pk) is True
    return game_of(table)


@database_sync_to_async
def seats_of(table):
    return {s.index: (s.user.username if s.user else None, s.connected, s.autoplay)
            for s in Seat.objects.filter(table=table).select_related("user")}


@database_sync_to_async
def play_to_the_absent_seat(table, settings):
    # the computer of seat 1 plays its turn (its deadline brought forward), then seat 2 is to move
    reached = play_out(table, until=lambda g: g.position["turn"] == 2)
    assert (reached.position["turn"], reached.deadline_kind) == (2, "bot")
    left = seconds_left(reached)
    assert 0 < left <= settings.OKEY_DISCONNECT_GRACE < table.move_time  # never the move clock
    assert run_timer(reached) is True  # the stand-in plays the whole turn
    after = play_out(table, until=lambda g: g.position["turn"] != 2)
    moves = Move.objects.filter(round_id=after.round_id, seat=2)
    assert moves.exists() and {m.actor for m in moves} == {Move.Actor.TIMEOUT}
    # seat 3 (computer) plays, then alice's turn has her own full clock again
    back = play_out(table, until=lambda g: g.position["turn"] == 0)
    assert back.deadline_kind == "move" and table.move_time - 2 <= seconds_left(back) <= table.move_time
    return Seat.objects.get(table=table, index=2).consecutive_timeouts


async def test_a_player_gone_before_the_start_is_played_by_the_computer_at_once(alice, bob, session_cookie,
                                                                                published, settings):
    table = await play_now_pair(alice, bob)
    a = Client(table.pk, await database_sync_to_async(session_cookie)(alice))
    b = Client(table.pk, await database_sync_to_async(session_cookie)(bob))
    assert (await a.connect())[0] and (await b.connect())[0]
    await a.recv_type("snapshot")
    await b.recv_type("snapshot")
    await b.close()  # bob closes the page while the table still waits for its start
    waiting = await seats_of(table)
    assert waiting[2] == ("bob", False, True)
    await a.drain()
    waiting_room = [f for f in a.frames if f["type"] == "snapshot"][-1]["view"]["players"]
    assert not any(p["autoplay"] for p in waiting_room)  # nobody plays yet: bob is "not connected"

    game = await start(table, settings)
    assert (await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).status)()) == "playing"
    assert (game.position["turn"], game.deadline_kind) == (0, "move")  # alice's own clock, unaffected
    assert table.move_time - 2 <= seconds_left(game) <= table.move_time
    seats = await seats_of(table)
    assert seats[0] == ("alice", True, False) and seats[2] == ("bob", False, True)
    snap = await a.recv_snapshot_at(game.version)
    assert snap["view"]["players"][2]["autoplay"] is True  # "a computer plays for now"
    assert snap["view"]["players"][0]["autoplay"] is False

    await a.send({"type": "action", "id": "a1", "version": game.version,
                  "action": {"type": "discard", "tile": snap["view"]["rack"][0]}})
    assert (await a.recv_type("ack"))["version"] == game.version + 1
    timeouts = await play_to_the_absent_seat(table, settings)
    assert timeouts == 0  # an absence is not a timeout

    # bob opens the page again: the seat is his (as after a disconnect in play)
    b2 = Client(table.pk, await database_sync_to_async(session_cookie)(bob))
    assert (await b2.connect())[0]
    back = await b2.recv_type("snapshot")
    assert back["view"]["seat"] == 2 and back["view"]["players"][2]["autoplay"] is False
    assert (await seats_of(table))[2] == ("bob", True, False)
    await a.close()
    await b2.close()
    await database_sync_to_async(presence.expire_connections)()
