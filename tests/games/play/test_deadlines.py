"""Every path that changes a game arms its next deadline (or clears it) and sends that
deadline's timer to the real broker, once per deadline (ARCHITECTURE.md invariant 5): a
version that keeps the deadline sends none, since the timer already on its way plays
the position it finds when the deadline comes; a timer armed for an earlier deadline
does nothing."""
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.moderation import sanction
from games import tasks
from games.models import Game, Move, Seat
from games.play import presence, tables, turns
from games.play.timers import timer_args
from tests.games.play.helpers import (
    assert_armed,
    assert_cleared,
    game_of,
    online_table,
    play_out,
    solo_table,
)
from tests.games.play.test_penalty_events import okey17, scripted_table

pytestmark = pytest.mark.django_db(transaction=True)


def seconds_left(game):
    return (game.deadline - timezone.now()).total_seconds()


def overdue(game):
    """Move `game`'s deadline into the past (as if its time ran out). Returns it read again."""
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    return game


def test_starting_a_match_arms_the_first_players_move_time(alice, bob, published):
    solo = tables.create_table(alice, "okey51", {}, mode="solo", move_time=45)
    game = game_of(solo)
    assert_armed(published, game, "move")
    assert 44 <= seconds_left(game) <= 45
    table = online_table(alice, bob)
    assert_armed(published, game_of(table), "move")


def test_an_accepted_action_arms_the_next_seat(alice, published, settings):
    table = solo_table(alice)
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    after = game_of(table)
    assert_armed(published, after, "bot")  # seat 1 is a computer
    assert seconds_left(after) <= settings.OKEY_BOT_DELAY


def test_an_action_inside_a_turn_keeps_the_turns_clock_and_its_one_timer(alice, bob, published):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=30)
    tables.join_table(bob, table.pk, seat_index=1)
    tables.start_match(alice, table.pk)
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    bobs_turn = game_of(table)
    assert_armed(published, bobs_turn, "move")
    assert turns.submit_action(bob, table.pk, {"type": "draw"}, bobs_turn.version).ok
    drawn = game_of(table)
    assert drawn.deadline == bobs_turn.deadline  # one move time per turn (D-16)
    assert_armed(published, drawn, "move")


def test_a_refused_okey17_discard_whose_penalty_stays_keeps_the_move_timer(alice, bob, published):
    table, game = scripted_table(alice, bob, okey17(["B8", "K2"]))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=20),
                                           deadline_kind=Game.Deadline.MOVE)
    before = game_of(table)
    published.clear()
    outcome = turns.submit_action(alice, table.pk, {"type": "discard", "tile": "B8"}, before.version)
    assert (outcome.ok, outcome.code, outcome.version) == (False, "playable_discard", before.version + 1)
    after = game_of(table)
    assert after.deadline == before.deadline  # the turn's clock runs on
    assert after.position["seats"][0]["penalty"] == 100
    assert timer_args(after) == timer_args(before)  # the timer armed for that deadline still counts
    assert [t["task"] for t in published if t["task"] == "games.tasks.turn_timeout"] == []
    # when the time runs out (the deadline moved here), its timer plays the turn; one armed
    # for the deadline before does nothing
    after = overdue(after)
    assert tasks.turn_timeout(*timer_args(before)) is False
    assert tasks.turn_timeout(*timer_args(after)) is True
    assert Move.objects.filter(round_id=game.round_id, actor=Move.Actor.TIMEOUT).exists()


def test_a_timeout_plays_the_turn_and_arms_the_next_seat(alice, published):
    table = solo_table(alice)
    game = overdue(game_of(table))
    assert tasks.turn_timeout(*timer_args(game)) is True
    assert_armed(published, game_of(table), "bot")


def test_a_timeout_that_fires_early_sends_its_timer_again(alice, published):
    table = solo_table(alice)
    game = game_of(table)
    published.clear()
    assert tasks.turn_timeout(*timer_args(game)) is False
    assert_armed(published, game_of(table), "move")


def test_a_computer_turn_arms_the_next_computers_turn(alice, published, settings):
    table = solo_table(alice)
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version)
    computer = game_of(table)
    assert tasks.bot_turn(*timer_args(computer)) is True
    after = game_of(table)
    assert_armed(published, after, "bot")
    assert after.position["turn"] == 2 and seconds_left(after) <= settings.OKEY_BOT_DELAY


def test_a_computer_timer_for_a_seat_its_player_took_back_arms_their_move_time(alice, published):
    table = solo_table(alice)
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: g.deadline_kind == "bot" and g.position["turn"] == 0
                    and g.position["phase"] == "draw")
    Seat.objects.filter(table=table, index=0).update(autoplay=False)
    assert tasks.bot_turn(*timer_args(game)) is False
    after = game_of(table)
    assert after.version == game.version + 1
    assert_armed(published, after, "move")


def test_the_end_of_a_round_arms_the_next_deal_and_the_deal_arms_the_first_seat(alice, published, settings):
    table = solo_table(alice, options={"rounds": 3})
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: g.deadline_kind == "next_round")
    assert_armed(published, game, "next_round")
    assert seconds_left(game) <= settings.OKEY_NEXT_ROUND_DELAY
    assert tasks.next_round(*timer_args(game)) is True
    dealt = game_of(table)
    assert dealt.round.index == 1 and dealt.position["turn"] == 1
    assert_armed(published, dealt, "bot")


def test_the_end_of_the_match_clears_the_deadline(alice):
    table = solo_table(alice, options={"rounds": 1})
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table)
    assert game.match.finished is not None
    assert_cleared(game)


def test_a_player_coming_back_during_the_computers_move_gets_a_full_move_time(alice, bob, published):
    table = online_table(alice, bob)  # a solo table waits for its player: no computer to come back from
    assert presence.set_connected(alice, table.pk, True) == 0
    assert presence.set_connected(alice, table.pk, False) == 0  # the last socket closes: autoplay
    game = play_out(table, until=lambda g: g.deadline_kind == "bot" and g.position["turn"] == 0)
    assert presence.set_connected(alice, table.pk, True) == 0
    back = game_of(table)
    assert back.version == game.version + 1
    assert_armed(published, back, "move")
    assert 29 <= seconds_left(back) <= 30


def test_resuming_during_the_computers_move_gets_a_full_move_time(alice, published):
    table = solo_table(alice)
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: g.deadline_kind == "bot" and g.position["turn"] == 0)
    assert presence.resume_seat(alice, table.pk) == 0
    back = game_of(table)
    assert back.version == game.version + 1
    assert_armed(published, back, "move")


def test_a_suspended_player_to_move_is_played_by_the_computer_at_once(alice, bob, staff, published, settings):
    table = online_table(alice, bob)
    presence.set_connected(alice, table.pk, True)  # at the table: no disconnect grace for her
    game = game_of(table)
    assert game.position["turn"] == 0  # alice's move
    sanction(alice, "suspend", "stalling", by=staff)
    after = game_of(table)
    assert after.version == game.version + 1
    assert_armed(published, after, "bot")
    assert seconds_left(after) <= settings.OKEY_BOT_STEP_DELAY


def test_a_suspended_player_not_to_move_leaves_the_clock_and_its_timer(alice, bob, staff,
                                                                                          published):
    table = online_table(alice, bob)
    game = game_of(table)
    sanction(bob, "ban", "abusive names", by=staff)
    after = game_of(table)
    assert Seat.objects.get(table=table, user=bob).autoplay is True
    assert (after.version, after.deadline) == (game.version + 1, game.deadline)
    assert_armed(published, after, "move")


def test_closing_a_table_clears_the_deadline(alice, bob):
    table = online_table(alice, bob)
    game = game_of(table)
    assert tables.close_table(table.pk, "stuck table") is True
    after = game_of(table)
    assert after.version == game.version + 1
    assert_cleared(after)
    assert tasks.turn_timeout(*timer_args(game)) is False  # the timer sent before is void


def test_a_timer_whose_deadline_moved_on_changes_nothing_in_one_transaction(alice, published):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = solo_table(alice)
    armed = game_of(table)
    tile = armed.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, armed.version).ok
    moved_on = game_of(table)
    with CaptureQueriesContext(connection) as stale:
        assert tasks.turn_timeout(*timer_args(armed)) is False  # the move was made in time
    assert game_of(table).version == moved_on.version
    assert not any(q["sql"].upper().startswith(("UPDATE", "INSERT")) for q in stale.captured_queries)
    # the computer's timer, still armed, takes the lock and plays, in one transaction
    with CaptureQueriesContext(connection) as live:
        assert tasks.bot_turn(*timer_args(moved_on)) is True
    sql = [q["sql"].upper() for q in live.captured_queries]
    assert "FOR NO KEY UPDATE" in sql[0] or "FOR NO KEY UPDATE" in sql[1]  # the lock is the first read
    assert game_of(table).version == moved_on.version + 1
