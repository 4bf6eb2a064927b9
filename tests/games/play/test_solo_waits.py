"""A solo table waits for its player: the last socket closing hands no seat to a computer
(RULES.md §6 prescribes that stand-in for online tables, where other humans would wait;
docs/rules-notes.md). A practice table has no deadline in its player's turn, so it waits
for as long as they are away; a timed one keeps the move clock the player chose (D-16):
a turn that times out is the computer's, two in a row put the seat on autoplay. Online
tables keep handing a disconnected seat to the computer (test_disconnect_grace.py,
test_presence.py, test_presence_expiry.py)."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import api
from games.models import Connection, Game, Move, Seat
from games.play import presence, turns
from tests.games.play.helpers import assert_armed, assert_cleared, game_of, play_out, run_timer, solo_table, timers_of

pytestmark = pytest.mark.django_db(transaction=True)


def player_seat(table):
    return Seat.objects.get(table=table, index=0)


def time_runs_out(table):
    # The move deadline passes: its timer finds the turn due and the computer plays it.
    game = game_of(table)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert run_timer(game_of(table)) is True


def test_a_practice_table_waits_in_its_players_turn_and_they_simply_continue(alice, published):
    table = solo_table(alice, practice=True)
    presence.set_connected(alice, table.pk, True, channel="tab")
    before = game_of(table)
    assert before.position["turn"] == 0
    assert_cleared(before)
    sent = len(timers_of(published, before))
    presence.set_connected(alice, table.pk, False, channel="tab")
    away = game_of(table)
    seat = player_seat(table)
    assert (seat.connected, seat.autoplay) == (False, False)
    assert (away.version, away.position) == (before.version, before.position)
    assert_cleared(away)  # no deadline: nothing will play her turn
    assert len(timers_of(published, away)) == sent
    assert not Move.objects.filter(round_id=away.round_id).exists()
    presence.set_connected(alice, table.pk, True, channel="tab-again")
    back = game_of(table)
    assert (player_seat(table).connected, player_seat(table).autoplay) == (True, False)
    assert back.version == before.version
    assert_cleared(back)
    tile = back.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, back.version).ok
    moved = game_of(table)
    assert moved.position["turn"] == 1 and moved.deadline_kind == Game.Deadline.BOT  # the computers play on
    assert {m.actor for m in Move.objects.filter(round_id=moved.round_id, seat=0)} == {Move.Actor.HUMAN}


def test_a_practice_player_who_leaves_in_a_computers_turn_finds_the_table_at_their_turn(alice):
    table = solo_table(alice, practice=True)
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(alice, table.pk, False)  # the tab closes while the computers play
    waiting = play_out(table)  # every timer there is: the computers' turns, then none
    assert waiting.position["turn"] == 0 and not api.is_over(waiting.position)
    assert_cleared(waiting)
    assert waiting.match.finished is None
    assert {m.actor for m in Move.objects.filter(round_id=waiting.round_id, seat=0)} == {Move.Actor.HUMAN}
    assert player_seat(table).autoplay is False
    presence.set_connected(alice, table.pk, True)
    assert game_of(table).version == waiting.version  # back: her turn, as she left it
    assert turns.submit_action(alice, table.pk, {"type": "draw"}, waiting.version).ok


def test_a_timed_solo_table_keeps_its_move_clock_and_its_timeouts(alice, published):
    table = solo_table(alice, move_time=30)
    presence.set_connected(alice, table.pk, True)
    before = game_of(table)
    assert before.position["turn"] == 0 and before.deadline_kind == Game.Deadline.MOVE
    presence.set_connected(alice, table.pk, False)
    away = game_of(table)
    assert player_seat(table).autoplay is False
    assert (away.version, away.deadline) == (before.version, before.deadline)
    assert_armed(published, away, "move")  # the deal's timer, no other
    # her clock runs out: the computer plays that turn (D-16), the next is hers again
    time_runs_out(table)
    assert {m.actor for m in Move.objects.filter(round_id=away.round_id, seat=0)} == {Move.Actor.TIMEOUT}
    assert (player_seat(table).consecutive_timeouts, player_seat(table).autoplay) == (1, False)
    again = play_out(table, until=lambda g: g.position["turn"] == 0)
    assert again.deadline_kind == Game.Deadline.MOVE
    assert 25 <= (again.deadline - timezone.now()).total_seconds() <= 30
    # a second timeout in a row: autoplay (RULES.md §6), until she is back
    time_runs_out(table)
    assert (player_seat(table).consecutive_timeouts, player_seat(table).autoplay) == (2, True)
    presence.set_connected(alice, table.pk, True)
    assert (player_seat(table).consecutive_timeouts, player_seat(table).autoplay) == (0, False)


def test_a_dead_socket_at_a_solo_table_expires_without_a_computer_taking_the_seat(alice, published):
    table = solo_table(alice, move_time=30)
    presence.set_connected(alice, table.pk, True, channel="daphne-1.alice")
    before = game_of(table)
    Connection.objects.filter(channel="daphne-1.alice").update(expires=timezone.now() - timedelta(seconds=1))
    assert turns.sweep()["connections"] == 1
    seat = player_seat(table)
    assert (seat.connections, seat.autoplay) == (0, False)
    after = game_of(table)
    assert (after.version, after.deadline, after.deadline_kind) == (before.version, before.deadline, "move")
    assert_armed(published, after, "move")
