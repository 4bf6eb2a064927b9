"""The arena's live side on the real database and channel layer: a player who stays on
the table page after their arena match counts as present and is paired again, and both
their table page and their arena page hear of the new table; the standings frame is one
query whatever the arena's size and carries the top of the standings only; a lone human
among computers places 1st."""
import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.arena import live, service, socket as arena_socket
from games.arena.models import Arena, ArenaEntry, ArenaTable
from games.models import Connection, Seat, Table
from okeysite import socket_groups
from okeysite.routing import build_application

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 5


def running(seats=2, **kwargs):
    return Arena.objects.create(name="Live arena", ruleset="okey51", starts=timezone.now() - timedelta(minutes=1),
                                minutes=45, seats=seats, **kwargs)


def finish_match(table, totals_by_user):
    """End the match of arena table `table` with `totals_by_user` ({user id: total}; the
    computers' seats get the totals under their seat index, key ("seat", index))."""
    match = table.game.match
    totals = [0] * table.players
    for seat in Seat.objects.filter(table=table):
        totals[seat.index] = totals_by_user.get(seat.user_id if seat.user_id else ("seat", seat.index), 0)
    match.totals, match.finished = totals, timezone.now()
    match.save(update_fields=["totals", "finished"])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)


def tables_of(arena):
    return [link.table for link in ArenaTable.objects.filter(arena=arena).select_related("table").order_by("pk")]


def humans(table):
    return sorted(Seat.objects.filter(table=table, user__isnull=False).values_list("user__username", flat=True))


def socket(path, cookie=None):
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(build_application(), path, headers=headers)


async def frame_of_type(comm, kind):
    for _ in range(30):
        frame = json.loads(await comm.receive_from(timeout=TIMEOUT))
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


@pytest.mark.asyncio
async def test_a_player_left_on_the_table_page_is_paired_again_and_offered_the_next_table(make_user, session_cookie):
    ana, ben = await database_sync_to_async(lambda: (make_user("ana"), make_user("ben")))()
    arena = await database_sync_to_async(running)(seats=2, bot_wait=0)
    await database_sync_to_async(lambda: [service.join(u, arena.pk) for u in (ana, ben)])()
    ben_arena = socket(f"/ws/arena/{arena.pk}/", await database_sync_to_async(session_cookie)(ben))
    assert (await ben_arena.connect(timeout=TIMEOUT))[0]
    await frame_of_type(ben_arena, "standings")
    await database_sync_to_async(service.tick)()
    [first] = await database_sync_to_async(tables_of)(arena)
    told = await frame_of_type(ben_arena, "arena_table")  # ben's arena page is taken to the table
    assert (told["table"], told["url"]) == (first.pk, reverse("table", args=[first.pk]))
    await ben_arena.disconnect()

    # ana stays on the table page of the finished match; nobody has the arena page open
    ana_table = socket(f"/ws/table/{first.pk}/", await database_sync_to_async(session_cookie)(ana))
    assert (await ana_table.connect(timeout=TIMEOUT))[0]
    await frame_of_type(ana_table, "snapshot")
    await database_sync_to_async(finish_match)(first, {ana.pk: 20, ben.pk: 90})
    await database_sync_to_async(
        lambda: ArenaEntry.objects.filter(arena=arena).update(seen=timezone.now() - timedelta(minutes=5)))()
    await database_sync_to_async(service.tick)()
    tables = await database_sync_to_async(tables_of)(arena)
    assert len(tables) == 2
    second = tables[1]
    assert await database_sync_to_async(humans)(second) == ["ana"]  # ben, on no page, is not paired
    offered = await frame_of_type(ana_table, "arena_table")
    assert offered == {"type": "arena_table", "arena": arena.pk, "table": second.pk,
                       "url": reverse("table", args=[second.pk])}

    # a reopened arena page names the table the player sits at now
    ana_arena = socket(f"/ws/arena/{arena.pk}/", await database_sync_to_async(session_cookie)(ana))
    assert (await ana_arena.connect(timeout=TIMEOUT))[0]
    await frame_of_type(ana_arena, "standings")
    assert (await frame_of_type(ana_arena, "arena_table"))["table"] == second.pk
    await ana_arena.disconnect()
    await ana_table.disconnect()
    assert not await database_sync_to_async(
        lambda: Connection.objects.filter(user=ana, table=first).exists())()  # a closed page no longer counts


def test_a_closed_table_page_does_not_keep_a_player_present(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    arena = running(seats=2, bot_wait=0)
    for user in (ana, ben):
        service.join(user, arena.pk)
    service.tick()
    [first] = tables_of(arena)
    finish_match(first, {ana.pk: 20, ben.pk: 90})
    ArenaEntry.objects.filter(arena=arena).update(seen=timezone.now() - timedelta(minutes=5))
    # a socket row whose refreshes stopped (its process died) has expired: absent
    Connection.objects.create(channel="gone", user=ana, table=first, expires=timezone.now() - timedelta(seconds=1))
    service.tick()
    assert len(tables_of(arena)) == 1


def test_the_standings_frame_is_one_query_and_carries_the_top_of_the_standings(make_user, monkeypatch):
    players = [make_user(f"p{i}") for i in range(6)]
    arena = running(seats=2)
    for user in players:
        service.join(user, arena.pk)
    service.tick()  # three tables playing: the frame still reads no seat
    assert len(tables_of(arena)) == 3
    with CaptureQueriesContext(connection) as queries:
        frame = json.loads(live.standings_frame(arena.pk))
    assert len(queries) == 1
    assert frame["players"] == 6 and len(frame["standings"]) == 6 and "playing" not in frame
    monkeypatch.setattr(live, "FRAME_ROWS", 4)
    frame = json.loads(live.standings_frame(arena.pk))
    assert frame["players"] == 6 and [r["rank"] for r in frame["standings"]] == [1, 2, 3, 4]
    assert live.standings_frame(arena.pk + 99) is None


def test_the_frame_ranks_like_the_standings_page_ties_included(make_user, monkeypatch):
    from games.arena.standings import ranked

    arena = running(seats=2)
    now = timezone.now()
    # (score, matches, seconds ago the score was reached): equal scores part by points per
    # match, then by the earliest to the score, then by the earliest to join
    rows = [(8, 4, 50), (8, 2, 10), (8, 4, 90), (3, 1, 5), (0, 0, 0), (0, 3, 40), (8, 4, 90)]
    for i, (score, matches, ago) in enumerate(rows):
        ArenaEntry.objects.create(arena=arena, user=make_user(f"t{i}"), score=score, matches=matches,
                                  reached=now - timedelta(seconds=ago))
    expected = [row["user"] for row in ranked(arena)]
    assert expected[:3] == ["t1", "t2", "t6"]  # 4 a match first; then the earlier of two equal 2s, joined first
    frame = json.loads(live.standings_frame(arena.pk))
    assert [row["user"] for row in frame["standings"]] == expected and frame["players"] == 7
    monkeypatch.setattr(live, "FRAME_ROWS", 3)
    frame = json.loads(live.standings_frame(arena.pk))
    assert [row["user"] for row in frame["standings"]] == expected[:3] and frame["players"] == 7


def test_a_lone_human_among_computers_places_first_and_keeps_a_streak(make_user):
    ana = make_user("ana")
    arena = running(seats=4, bot_wait=0)
    service.join(ana, arena.pk)
    for match in range(3):
        service.tick()
        table = tables_of(arena)[-1]
        assert humans(table) == ["ana"] and table.players == 4
        # okey51: the lowest total wins; every computer beats ana
        finish_match(table, {ana.pk: 200, ("seat", 0): 10, ("seat", 1): 20, ("seat", 2): 30, ("seat", 3): 40})
        service.tick()
        entry = ArenaEntry.objects.get(user=ana)
        assert (entry.matches, entry.streak) == (match + 1, match + 1)
    assert entry.score == 4 + 4 + 8  # 1st among the humans three times; the third doubled (🔥)


def test_computers_take_no_humans_place(make_user):
    ana, ben = make_user("ana"), make_user("ben")
    arena = running(seats=4, bot_wait=0)
    for user in (ana, ben):
        service.join(user, arena.pk)
    service.tick()
    [table] = tables_of(arena)
    assert humans(table) == ["ana", "ben"]
    finish_match(table, {ana.pk: 150, ben.pk: 300, ("seat", 0): 5, ("seat", 1): 5, ("seat", 2): 5, ("seat", 3): 5})
    service.tick()
    assert dict(ArenaEntry.objects.values_list("user__username", "score")) == {"ana": 4, "ben": 2}


def group_members(group):
    """The channels this process's layer (for the running loop) holds in `group` (set)."""
    layer = get_channel_layer()
    if hasattr(layer, "_get_layer"):  # RedisPubSubChannelLayer keeps one layer per event loop
        inner = layer._get_layer()
        return set(inner.groups.get(inner._get_group_channel_name(group), ()))
    return set(layer.groups.get(group, {}))


def change_score(entry_id, score):
    """An arena player's score changes and the standings go out as the sweep sends them."""
    arena_id = ArenaEntry.objects.get(pk=entry_id).arena_id
    cache.delete(f"okey:arena:{arena_id}:sent")  # the once-a-second throttle is the sweep's, not this test's
    with transaction.atomic():
        ArenaEntry.objects.filter(pk=entry_id).update(score=score)
        live.announce(arena_id)


@pytest.mark.asyncio
async def test_every_arena_page_of_a_process_gets_the_standings_through_one_group_member(make_user):
    def arena_with_players():
        arena = running(seats=4)
        entries = [ArenaEntry.objects.create(arena=arena, user=make_user(f"rank{n}"), seen=timezone.now(),
                                             reached=timezone.now()) for n in range(3)]
        return arena, entries[0].pk

    arena, entry = await database_sync_to_async(arena_with_players)()
    group = socket_groups.arena_group(arena.pk)
    pages = []
    for _ in range(30):
        page = socket(f"/ws/arena/{arena.pk}/")
        assert (await page.connect(timeout=TIMEOUT))[0]
        assert (await frame_of_type(page, "standings"))["players"] == 3
        pages.append(page)
    relay = arena_socket._relay(get_channel_layer(), arena.pk)
    assert len(relay.consumers) == 30
    assert group_members(group) == {relay.channel}  # one member, not one per page

    await pages.pop().disconnect()
    await database_sync_to_async(change_score)(entry, 777)
    for page in pages:
        frame = await frame_of_type(page, "standings")
        assert frame["standings"][0]["score"] == 777
        assert await page.receive_nothing(timeout=0.01)  # one frame per change
    for page in pages:
        await page.disconnect()
    assert not relay.consumers
    for _ in range(100):  # the relay leaves the group with the last page
        if not group_members(group):
            break
        await asyncio.sleep(0.02)
    assert not group_members(group)
