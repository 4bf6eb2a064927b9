"""A player whose last socket closes during their own turn: the computer plays that turn
after OKEY_DISCONNECT_GRACE instead of the whole move clock (PLAYERS.md complaints 3 and
4), and a player back within the grace keeps the turn with the clock they had."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Move, Seat
from games.play import presence, tables
from tests.games.play.helpers import assert_armed, game_of, play_out, run_timer

pytestmark = pytest.mark.django_db(transaction=True)


def long_clock_table(alice, bob):
    """An online okey51 table with a 120 s move clock: alice (seat 0) moves first, bob faces
    her (seat 2), both connected. Returns the table."""
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=120)
    tables.join_table(bob, table.pk)
    tables.start_match(alice, table.pk)
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(bob, table.pk, True)
    return table


def seconds_left(game):
    return (game.deadline - timezone.now()).total_seconds()


def test_a_disconnect_in_ones_own_turn_hands_it_to_the_computer_after_the_grace(alice, bob, published, settings):
    table = long_clock_table(alice, bob)
    before = game_of(table)
    assert (before.position["turn"], before.deadline_kind) == (0, "move") and seconds_left(before) > 100
    presence.set_connected(alice, table.pk, False)
    after = game_of(table)
    assert Seat.objects.get(table=table, index=0).autoplay is True
    assert after.version == before.version + 1  # who plays the seat to move changed
    assert_armed(published, after, "bot")
    assert settings.OKEY_DISCONNECT_GRACE - 1 <= seconds_left(after) <= settings.OKEY_DISCONNECT_GRACE
    # the computer task due at the grace plays the turn, as the seat's stand-in
    assert run_timer(after) is True
    passed = play_out(table, until=lambda g: g.position["turn"] != 0)
    moves = list(Move.objects.filter(round_id=passed.round_id).order_by("number"))
    assert moves and {(m.seat, m.actor) for m in moves} == {(0, Move.Actor.TIMEOUT)}
    assert moves[-1].action["type"] == "discard"
    assert Seat.objects.get(table=table, index=0).consecutive_timeouts == 0  # a disconnect is not a timeout


def test_a_player_back_within_the_grace_keeps_the_turn_and_its_clock(alice, bob, published):
    table = long_clock_table(alice, bob)
    clock = game_of(table).deadline
    presence.set_connected(alice, table.pk, False)
    away = game_of(table)
    presence.set_connected(alice, table.pk, True)
    back = game_of(table)
    assert Seat.objects.get(table=table, index=0).autoplay is False
    assert back.version == away.version + 1 and back.position == away.position
    assert_armed(published, back, "move")
    assert abs((back.deadline - clock).total_seconds()) < 1.0  # not a fresh clock, not the grace
    assert not Move.objects.filter(round_id=back.round_id).exists()


def test_the_grace_never_outlasts_the_players_clock(alice, bob, published, settings):
    table = long_clock_table(alice, bob)
    game = game_of(table)
    clock = timezone.now() + timedelta(seconds=settings.OKEY_DISCONNECT_GRACE / 2)
    Game.objects.filter(pk=game.pk).update(deadline=clock)
    presence.set_connected(alice, table.pk, False)
    after = game_of(table)
    assert_armed(published, after, "bot")
    assert after.deadline == clock


def test_after_the_grace_the_computer_plays_the_whole_turn_and_the_player_is_back_for_the_next(alice, bob,
                                                                                               published):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=120)
    tables.join_table(bob, table.pk)
    tables.start_match(alice, table.pk)
    presence.set_connected(bob, table.pk, True)
    # alice (seat 0, 15 tiles) and the computer at seat 1 play; bob's turn starts with a draw
    play_out(table, until=lambda g: g.position["turn"] == 2)
    presence.set_connected(bob, table.pk, False)
    assert run_timer(game_of(table)) is True  # the grace is over: the computer plays bob's turn
    played = game_of(table)
    assert played.position["turn"] == 3
    moves = list(Move.objects.filter(round_id=played.round_id, version=played.version))
    assert {(m.seat, m.actor) for m in moves} == {(2, "timeout")} and moves[-1].action["type"] == "discard"
    presence.set_connected(bob, table.pk, True)
    back = game_of(table)
    assert Seat.objects.get(table=table, index=2).autoplay is False
    assert back.position["turn"] == 3 and back.deadline_kind == "bot"
    assert_armed(published, back, "bot")


def test_a_disconnect_in_another_seats_turn_or_of_a_second_tab_moves_no_clock(alice, bob, published):
    table = long_clock_table(alice, bob)
    presence.set_connected(alice, table.pk, True)  # a second tab
    before = game_of(table)
    presence.set_connected(alice, table.pk, False)  # one of two tabs closes: still at the table
    presence.set_connected(bob, table.pk, False)  # bob leaves during alice's turn
    after = game_of(table)
    assert Seat.objects.get(table=table, index=2).autoplay is True
    assert Seat.objects.get(table=table, index=0).autoplay is False
    assert (after.version, after.deadline, after.deadline_kind) == (before.version, before.deadline, "move")
    assert_armed(published, after, "move")
