"""Presence from expiring per-socket rows: a socket whose process died (no disconnect ever
runs) stops counting once its row expires, and the sweeper hands its seat to the computer."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Connection, Seat
from games.play import presence, tables, turns
from tests.games.play.helpers import assert_armed, game_of

pytestmark = pytest.mark.django_db(transaction=True)


def started(alice, bob):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=120)
    tables.join_table(bob, table.pk)
    tables.start_match(alice, table.pk)
    return table


def die(channel):
    # The process serving `channel` was killed: nobody refreshes its row any more.
    Connection.objects.filter(channel=channel).update(expires=timezone.now() - timedelta(seconds=1))


def test_a_dead_processs_socket_expires_and_the_sweep_hands_its_turn_to_the_computer(alice, bob, published, settings):
    table = started(alice, bob)
    presence.set_connected(alice, table.pk, True, channel="daphne-1.alice")
    presence.set_connected(bob, table.pk, True, channel="daphne-1.bob")
    before = game_of(table)
    assert (before.position["turn"], before.deadline_kind) == (0, "move")
    die("daphne-1.alice")
    assert turns.sweep()["connections"] == 1
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.connections, seat.connected, seat.autoplay) == (0, False, True)
    after = game_of(table)
    assert after.version == before.version + 1
    assert_armed(published, after, "bot")
    assert (after.deadline - timezone.now()).total_seconds() <= settings.OKEY_DISCONNECT_GRACE
    assert Seat.objects.get(table=table, index=2).connected  # bob's live socket still counts
    assert turns.sweep()["connections"] == 0


def test_a_seat_with_another_live_socket_stays_connected(alice, bob):
    table = started(alice, bob)
    presence.set_connected(alice, table.pk, True, channel="dead")
    presence.set_connected(alice, table.pk, True, channel="alive")
    die("dead")
    version = game_of(table).version
    assert presence.expire_connections() == 1
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.connections, seat.autoplay) == (1, False)
    assert game_of(table).version == version
    assert presence.refresh("alive") and not presence.refresh("dead")


def test_a_socket_that_comes_back_after_its_row_expired_takes_the_seat_back(alice, bob):
    table = started(alice, bob)
    presence.set_connected(alice, table.pk, True, channel="stalled")
    die("stalled")
    presence.expire_connections()
    assert Seat.objects.get(table=table, index=0).autoplay is True
    # the consumer's heartbeat finds its row gone and records the socket again
    assert presence.refresh("stalled") is False
    assert presence.open_connection("stalled", alice, "", table.pk, capped=False) is None
    presence.set_connected(alice, table.pk, True, channel="stalled")
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.connections, seat.autoplay) == (1, False)


def test_the_socket_caps_count_live_rows_only(alice, bob, settings):
    settings.OKEY_WS_MAX_PER_USER = 2
    settings.OKEY_WS_MAX_PER_IP = 3
    table = started(alice, bob)
    assert presence.open_connection("a1", alice, "10.0.0.1", table.pk) is None
    assert presence.open_connection("a2", alice, "10.0.0.1", table.pk) is None
    assert presence.open_connection("a3", alice, "10.0.0.1", table.pk) == "too_many_sockets"
    assert presence.open_connection("b1", bob, "10.0.0.1", table.pk) is None
    assert presence.open_connection("b2", bob, "10.0.0.1", table.pk) == "too_many_sockets"  # the address is full
    die("a1")  # a socket of a dead process counts until its row expires, then never again
    assert presence.open_connection("a3", alice, "10.0.0.2", table.pk) is None
    presence.expire_connections()
    assert not Connection.objects.filter(channel="a1").exists()
