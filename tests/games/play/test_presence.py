"""games.play.presence: sockets opening and closing, and taking the seat back."""
import pytest

from games.models import Seat
from games.play import presence, tables
from tests.games.play.helpers import game_of, online_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_disconnect_at_an_online_table_puts_the_seat_on_autoplay_and_reconnect_gives_it_back(alice, bob):
    table = online_table(alice, bob)
    assert presence.set_connected(alice, table.pk, True) == 0
    assert presence.set_connected(alice, table.pk, False) == 0
    assert Seat.objects.get(table=table, index=0).autoplay is True
    assert presence.set_connected(alice, table.pk, True) == 0
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.autoplay, seat.connections) == (False, 1)


def test_a_second_tab_only_counts_and_the_seat_stays_with_the_player(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(alice, table.pk, False)
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.connections, seat.autoplay) == (1, False)


def test_a_page_closed_before_the_start_starts_on_autoplay_and_one_reopened_does_not(alice, bob):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    tables.join_table(bob, table.pk)
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(alice, table.pk, False)
    presence.set_connected(bob, table.pk, True)
    presence.set_connected(bob, table.pk, False)
    presence.set_connected(bob, table.pk, True)
    tables.start_match(alice, table.pk)
    seats = {s.index: (s.connected, s.autoplay) for s in Seat.objects.filter(table=table, user__isnull=False)}
    assert seats == {0: (False, True), 2: (True, False)}


def test_a_seat_left_before_the_start_is_not_away_for_the_next_player(alice, bob, carol):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    tables.join_table(bob, table.pk)
    presence.set_connected(bob, table.pk, True)
    presence.set_connected(bob, table.pk, False)
    assert Seat.objects.get(table=table, index=2).autoplay is True
    tables.leave_table(bob, table.pk)
    tables.join_table(carol, table.pk)
    assert Seat.objects.get(table=table, index=2).autoplay is False


def test_spectators_have_no_seat_to_count_or_resume(alice, bob):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    version = game_of(table).version
    assert presence.set_connected(bob, table.pk, True) is None
    assert presence.resume_seat(bob, table.pk) is None
    assert game_of(table).version == version


def test_resuming_clears_the_timeout_count(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(consecutive_timeouts=1)
    assert presence.resume_seat(alice, table.pk) == 0
    assert Seat.objects.get(table=table, index=0).consecutive_timeouts == 0
