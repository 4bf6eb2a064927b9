"""Quick match ("Play now"): a seat at a waiting table of the ruleset or a new one, a
start with computers once the wait is over, at once when the table is full."""
from datetime import timedelta

import pytest
from django.urls import reverse

from games import tasks
from games.models import Seat, Table
from games.play import quickmatch

pytestmark = pytest.mark.django_db


def test_play_now_creates_then_fills_a_waiting_table(alice, bob, carol):
    first = quickmatch.play_now(alice, "okey51")
    assert first.quick and first.status == Table.Status.OPEN and first.options == quickmatch.tables.api.ruleset(
        "okey51").normalize_options({})
    assert quickmatch.play_now(alice, "okey51").pk == first.pk  # already waiting there
    assert quickmatch.play_now(bob, "okey51").pk == first.pk
    assert quickmatch.play_now(carol, "rami").pk != first.pk  # another ruleset: its own table
    users = {s.user_id for s in Seat.objects.filter(table=first, user__isnull=False)}
    assert users == {alice.pk, bob.pk}


def test_the_wait_over_the_match_starts_with_computers(alice, bob):
    table = quickmatch.play_now(alice, "okey51")
    quickmatch.play_now(bob, "okey51")
    assert tasks.quick_start(table.pk) is False  # not due yet
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    Table.objects.filter(pk=table.pk).update(created=table.created - timedelta(seconds=60))
    assert tasks.quick_start(table.pk) is True
    assert tasks.quick_start(table.pk) is False  # a duplicate task does nothing
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert sum(1 for s in seats if s.user_id) == 2 and sum(1 for s in seats if s.bot_level) == 2


def test_the_sweeper_starts_a_table_whose_task_was_lost(alice):
    table = quickmatch.play_now(alice, "okey17")
    Table.objects.filter(pk=table.pk).update(created=table.created - timedelta(seconds=120))
    assert tasks.sweep()["quick_started"] == 1
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_full_quick_table_starts_at_once(make_user):
    users = [make_user(f"p{i}") for i in range(4)]
    tables_seen = {quickmatch.play_now(u, "okey51").pk for u in users}
    assert len(tables_seen) == 1
    assert Table.objects.get(pk=tables_seen.pop()).status == Table.Status.PLAYING


def test_the_lobby_button_opens_the_waiting_table(client, alice):
    client.force_login(alice)
    assert reverse("play_now", args=["okey51"]) in client.get(reverse("lobby")).content.decode()
    response = client.post(reverse("play_now", args=["okey51"]))
    table = Table.objects.get(creator=alice)
    assert response["Location"] == reverse("table", args=[table.pk])
    assert 'id="quick-wait"' in client.get(response["Location"]).content.decode()
    assert client.post(reverse("play_now", args=["chess"]))["Location"] == reverse("lobby")


def test_the_first_player_leaving_a_quick_table_leaves_it_to_the_others(alice, bob):
    table = quickmatch.play_now(alice, "okey51")
    quickmatch.play_now(bob, "okey51")
    quickmatch.tables.leave_table(alice, table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
    quickmatch.tables.leave_table(bob, table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN  # empty: the start task closes it
    Table.objects.filter(pk=table.pk).update(created=table.created - timedelta(seconds=60))
    assert tasks.quick_start(table.pk) is False
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


def test_the_lobby_lists_running_public_matches_to_watch(alice, bob, carol):
    from games.snapshot import open_tables
    from tests.games.play.helpers import online_table

    public = online_table(alice, bob)
    hidden = quickmatch.tables.create_table(carol, "okey51", {}, mode="online", private=True)
    quickmatch.tables.start_match(carol, hidden.pk)
    quickmatch.tables.create_table(carol, "okey51", {}, mode="solo")
    Table.objects.filter(pk=public.pk).update(spectators=2)
    running = [t for t in open_tables() if t["status"] == "playing"]
    assert [t["id"] for t in running] == [public.pk]
    item = running[0]
    assert item["round"] == 1 and item["spectators"] == 2
    assert [s["computer"] for s in item["seats"]] == [False, True, False, True]
    assert [s["name"] for s in item["seats"]] == ["alice", "Computer 2 · normal", "bob", "Computer 4 · normal"]
    # a player who left the match: a computer plays the seat for good, the lobby says so
    quickmatch.tables.leave_match(bob, public.pk)
    item = next(t for t in open_tables() if t["id"] == public.pk)
    assert [s["computer"] for s in item["seats"]] == [False, True, True, True]
