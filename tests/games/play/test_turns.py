"""games.play.turns with real transactions on the test database (PostgreSQL in CI):
players' actions, timeouts, computer turns, whole matches and the sweeper.

Celery tasks are run by calling them directly with the version they were armed for.
"""
import threading
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from games import tasks
from games.engine import api, fairdeal
from games.models import Game, Match, Move, Round, Seat, Table
from games.play import tables, turns
from games.play.timers import timer_args
from tests.deals import stored_deal_seed
from tests.games.play.helpers import game_of, online_table, play_out, solo_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_accepted_action_logs_the_move_and_bumps_the_version(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    outcome = turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version)
    assert outcome.ok and outcome.version == game.version + 1
    game.refresh_from_db()
    assert game.position["turn"] == 1
    assert game.deadline_kind == Game.Deadline.BOT  # seat 1 is a computer
    move = Move.objects.get(round=game.round)
    assert (move.number, move.seat, move.result, move.actor) == (1, 0, "ok", "human")
    assert move.action == {"type": "discard", "tile": tile, "seat": 0}


@pytest.mark.parametrize(
    "who,action,code",
    [
        ("alice", {"type": "draw"}, "wrong_phase"),  # the first player starts with 15 tiles
        ("alice", {"type": "discard", "tile": "NOPE"}, None),
        ("bob", {"type": "discard", "tile": "R1"}, "not_your_turn"),
        ("carol", {"type": "draw"}, "not_seated"),
    ],
)
def test_a_refused_action_changes_nothing(alice, bob, carol, who, action, code):
    table = online_table(alice, bob)
    before = game_of(table)
    user = {"alice": alice, "bob": bob, "carol": carol}[who]
    outcome = turns.submit_action(user, table.pk, action, before.version)
    assert not outcome.ok
    if code:
        assert outcome.code == code
    else:
        assert outcome.code in ("tile_not_in_rack", "bad_action")
    after = game_of(table)
    assert (after.version, after.position, after.deadline) == (before.version, before.position, before.deadline)
    assert not Move.objects.filter(round=after.round).exists()


def test_a_stale_version_is_refused(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    outcome = turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version - 1)
    assert (outcome.ok, outcome.code, outcome.version) == (False, "stale_version", game.version)
    assert game_of(table).position == game.position


def test_actions_before_the_match_or_at_a_closed_table_are_refused(alice, bob):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    assert turns.submit_action(alice, table.pk, {"type": "draw"}, 0).code == "not_started"
    playing = online_table(alice, bob)
    tables.close_table(playing.pk, "stuck table")
    game = game_of(playing)
    tile = game.position["seats"][0]["rack"][0]
    outcome = turns.submit_action(alice, playing.pk, {"type": "discard", "tile": tile}, game.version)
    assert (outcome.ok, outcome.code) == (False, "table_not_open")
    assert game_of(playing).version == game.version


def test_a_late_timeout_does_nothing(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    armed = timer_args(game)  # the move deadline of seat 0's turn
    tile = game.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    after_move = game_of(table)
    assert after_move.deadline_kind == "bot"
    assert tasks.turn_timeout(*armed) is False
    assert tasks.bot_turn(*armed) is False
    again = game_of(table)
    assert (again.version, again.position) == (after_move.version, after_move.position)
    assert Move.objects.filter(round=game.round).count() == 1


def test_a_timeout_before_the_deadline_does_not_play(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    assert tasks.turn_timeout(*timer_args(game)) is False
    assert game_of(table).version == game.version


def test_on_timeout_the_computer_plays_the_turn_and_two_in_a_row_mean_autoplay(alice):
    table = solo_table(alice)
    game = game_of(table)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    assert tasks.turn_timeout(*timer_args(game)) is True
    game.refresh_from_db()
    assert game.position["turn"] == 1
    moves = list(Move.objects.filter(round=game.round))
    assert moves and {m.actor for m in moves} == {"timeout"} and moves[-1].action["type"] == "discard"
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.consecutive_timeouts, seat.autoplay) == (1, False)
    # the computers play around to seat 0 again; its second timeout puts it on autoplay
    game = play_out(table, until=lambda g: g.deadline_kind == "move")
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    assert tasks.turn_timeout(*timer_args(game)) is True
    seat.refresh_from_db()
    assert (seat.consecutive_timeouts, seat.autoplay) == (2, True)


def test_a_computer_turn_task_plays_the_whole_turn_in_one_version(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version)
    game.refresh_from_db()
    assert game.deadline_kind == "bot"
    assert tasks.bot_turn(*timer_args(game)) is True
    after = game_of(table)
    assert after.version == game.version + 1 and after.position["turn"] == 2
    moves = list(Move.objects.filter(round=game.round, version=after.version))
    assert len(moves) >= 2 and {(m.seat, m.actor, m.result) for m in moves} == {(1, "computer", "ok")}
    assert moves[0].action["type"] in ("draw", "take_discard") and moves[-1].action["type"] == "discard"


def test_a_player_acting_again_leaves_autoplay(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True, consecutive_timeouts=2)
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.autoplay, seat.consecutive_timeouts) == (False, 0)


def test_a_whole_match_is_played_stored_and_replays_from_the_log(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 3}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table)
    table.refresh_from_db()
    match = Match.objects.get(table=table)
    assert table.status == Table.Status.FINISHED and match.finished is not None
    rounds = list(Round.objects.filter(match=match).order_by("index"))
    assert [r.index for r in rounds] == [0, 1, 2]
    assert [r.first for r in rounds] == [0, 1, 2]  # the first seat rotates (RULES.md §1)
    for rnd in rounds:
        assert rnd.is_over and len(rnd.scores) == len(rnd.penalties) == len(rnd.totals) == 4
        assert rnd.totals == [s + p for s, p in zip(rnd.scores, rnd.penalties)]
        # deterministic replay: the stored moves rebuild the stored final position
        deal_seed = stored_deal_seed(rnd, table)
        position = api.ruleset("okey51").deal(table.options, deal_seed, 4, rnd.first)
        assert position == rnd.initial_position
        moves = list(Move.objects.filter(round=rnd).order_by("number"))
        replayed = api.replay_all(position, [m.action for m in moves])
        assert all(m.result == "ok" for m in moves) and all(s.accepted for s in replayed.steps)
        assert replayed.position == rnd.final_position
        # the round's penalty list is its moves' stored events, in play order
        assert rnd.penalty_events == [e for m in moves for e in m.events]
        assert [s.events() for s in replayed.steps] == [m.events for m in moves]
    assert match.totals == [sum(r.totals[s] for r in rounds) for s in range(4)]
    assert match.standings == api.ruleset("okey51").standings(table.options, match.totals)
    assert game.deadline is None and game.deadline_kind == ""


def test_next_round_waits_for_its_deadline(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 3}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: g.deadline_kind == "next_round")
    assert game.round.is_over and game.round.index == 0
    game_id, token = timer_args(game)
    assert tasks.next_round(game_id, token - 1) is False  # a timer armed for another deadline
    assert tasks.next_round(*timer_args(game)) is True
    game.refresh_from_db()
    assert game.round.index == 1 and game.position["turn"] == 1


def test_sweep_rearms_only_overdue_deadlines(alice, published):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    assert turns.sweep()["timers"] == 0
    Game.objects.filter(table=table).update(deadline=timezone.now() - timedelta(seconds=10))
    published.clear()
    assert turns.sweep()["timers"] == 1
    game = game_of(table)
    assert [(t["task"], t["args"]) for t in published] == [("games.tasks.turn_timeout", timer_args(game))]
    assert turns.sweep(startup=True)["timers"] == 1


def test_two_simultaneous_actions_at_one_version_are_applied_once(alice):
    """The row lock plus the version check let exactly one of two racing actions through."""
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    rack = game.position["seats"][0]["rack"]
    outcomes = []
    barrier = threading.Barrier(2)

    def play(tile):
        try:
            barrier.wait()
            outcomes.append(turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version))
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(tile,)) for tile in (rack[0], rack[1])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(o.ok for o in outcomes) == [False, True]
    assert [o.code for o in outcomes if not o.ok] == ["stale_version"]
    after = game_of(table)
    assert after.version == game.version + 1
    assert Move.objects.filter(round=game.round).count() == 1


def test_verify_round_checks_a_played_round(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table)
    call_command("verify_round", game.round.pk)
    Round.objects.filter(pk=game.round.pk).update(server_seed=fairdeal.server_seed())
    with pytest.raises(CommandError):
        call_command("verify_round", game.round.pk)


def test_verify_round_finds_a_tampered_move_log(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table)
    last = Move.objects.filter(round=game.round).order_by("number").last()
    Move.objects.filter(pk=last.pk).update(events=[{"seat": 0, "amount": 1, "reason": "add", "tile": None, "by": 1}])
    with pytest.raises(CommandError):
        call_command("verify_round", game.round.pk)
    first = Move.objects.filter(round=game.round).order_by("number").first()
    Move.objects.filter(pk=last.pk).update(events=last.events)
    Move.objects.filter(pk=first.pk).update(action=dict(first.action, seat=(first.seat + 1) % 4))
    with pytest.raises(CommandError):
        call_command("verify_round", game.round.pk)
