"""games.services with real transactions on the test database (PostgreSQL in CI).

Celery tasks are run by calling them directly with the version they were armed for.
"""
import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.engine import api
from games.models import Game, Match, Move, Round, Seat, Table

pytestmark = pytest.mark.django_db(transaction=True)


def game_of(table):
    return Game.objects.get(table=table)


def run_timer(game):
    """Run the task the game's timer is armed for, as the worker would. Returns its result."""
    task = {"move": tasks.turn_timeout, "bot": tasks.bot_turn, "next_round": tasks.next_round}[game.deadline_kind]
    return task(game.pk, game.version)


def play_out(table, until=lambda game: False, max_steps=3000):
    """Fire timers (past deadlines first) until the match ends or `until(game)`. Returns the game."""
    for _ in range(max_steps):
        game = game_of(table)
        if not game.deadline_kind or until(game):
            return game
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        game.refresh_from_db()
        assert run_timer(game) is True
    raise AssertionError("the match did not end")


def test_it_creates_a_solo_table_with_three_computers_and_deals(alice):
    table = services.create_table(alice, "okey51", {"rounds": 1}, mode="solo", move_time=30, bot_level="easy")
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("index"))
    assert [s.user_id for s in seats] == [alice.pk, None, None, None]
    assert [s.bot_level for s in seats[1:]] == ["easy", "easy", "easy"]
    game = game_of(table)
    assert game.version == 1
    assert game.position["turn"] == 0 and len(game.position["seats"][0]["rack"]) == 15
    assert game.deadline_kind == Game.Deadline.MOVE
    assert 29 <= (game.deadline - timezone.now()).total_seconds() <= 30
    rnd = game.round
    assert rnd.commitment == hashlib.sha256(rnd.seed.encode()).hexdigest()
    assert rnd.seed == hashlib.sha256(f"{game.match.seed}:0".encode()).hexdigest()
    assert game.match.seed not in rnd.seed  # revealing a round's seed must not reveal the next deals
    # the deal is reproducible from the seed (verifiable deals)
    assert api.deal("okey51", table.options, rnd.seed, 4, 0) == rnd.initial_position == game.position


def test_it_seats_the_second_human_face_to_face(alice, bob, carol):
    table = services.create_table(alice, "okey51", {}, mode="online")
    assert services.join_table(bob, table.pk).index == 2
    assert services.join_table(carol, table.pk).index == 1
    assert services.join_table(bob, table.pk).index == 2  # joining again keeps the seat
    assert table.seats.filter(user__isnull=False).count() == 3


def test_it_refuses_to_start_for_anyone_but_the_creator(alice, bob):
    table = services.create_table(alice, "okey51", {}, mode="online")
    services.join_table(bob, table.pk)
    with pytest.raises(services.ServiceError) as err:
        services.start_match(bob, table.pk)
    assert err.value.code == "not_creator"
    assert not Match.objects.filter(table=table).exists()


def test_start_fills_free_seats_with_computers(alice, bob, carol):
    table = services.create_table(alice, "okey51", {}, mode="online", bot_level="strong")
    services.join_table(bob, table.pk)
    services.start_match(alice, table.pk)
    seats = {s.index: s for s in Seat.objects.filter(table=table)}
    assert seats[0].user_id == alice.pk and seats[2].user_id == bob.pk
    assert seats[1].bot_level == seats[3].bot_level == "strong"
    assert seats[1].user_id is None
    with pytest.raises(services.ServiceError) as err:
        services.join_table(carol, table.pk)
    assert err.value.code == "table_not_open"


def test_an_accepted_action_logs_the_move_and_bumps_the_version(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    outcome = services.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version)
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
    table = services.create_table(alice, "okey51", {}, mode="online")
    services.join_table(bob, table.pk)
    services.start_match(alice, table.pk)
    before = game_of(table)
    user = {"alice": alice, "bob": bob, "carol": carol}[who]
    outcome = services.submit_action(user, table.pk, action, before.version)
    assert not outcome.ok
    if code:
        assert outcome.code == code
    else:
        assert outcome.code in ("tile_not_in_rack", "bad_action")
    after = game_of(table)
    assert (after.version, after.position, after.deadline) == (before.version, before.position, before.deadline)
    assert not Move.objects.filter(round=after.round).exists()


def test_a_stale_version_is_refused(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    outcome = services.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version - 1)
    assert (outcome.ok, outcome.code, outcome.version) == (False, "stale_version", game.version)
    assert game_of(table).position == game.position


def test_a_late_timeout_does_nothing(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    armed_version = game.version
    tile = game.position["seats"][0]["rack"][0]
    assert services.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, armed_version).ok
    after_move = game_of(table)
    assert tasks.turn_timeout(game.pk, armed_version) is False
    assert tasks.bot_turn(game.pk, armed_version) is False
    again = game_of(table)
    assert (again.version, again.position) == (after_move.version, after_move.position)
    assert Move.objects.filter(round=game.round).count() == 1


def test_a_timeout_before_the_deadline_does_not_play(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    assert tasks.turn_timeout(game.pk, game.version) is False
    assert game_of(table).version == game.version


def test_on_timeout_the_computer_plays_the_turn_and_two_in_a_row_mean_autoplay(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.turn_timeout(game.pk, game.version) is True
    game.refresh_from_db()
    assert game.position["turn"] == 1
    moves = list(Move.objects.filter(round=game.round))
    assert moves and {m.actor for m in moves} == {"timeout"} and moves[-1].action["type"] == "discard"
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.consecutive_timeouts, seat.autoplay) == (1, False)
    # the computers play around to seat 0 again; its second timeout puts it on autoplay
    game = play_out(table, until=lambda g: g.deadline_kind == "move")
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.turn_timeout(game.pk, game.version) is True
    seat.refresh_from_db()
    assert (seat.consecutive_timeouts, seat.autoplay) == (2, True)


def test_a_computer_turn_task_plays_one_action(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    services.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version)
    game.refresh_from_db()
    assert game.deadline_kind == "bot"
    assert tasks.bot_turn(game.pk, game.version) is True
    after = game_of(table)
    assert after.version == game.version + 1
    last = Move.objects.filter(round=game.round).last()
    assert (last.seat, last.actor, last.result) == (1, "computer", "ok")
    assert last.action["type"] in ("draw", "take_discard")


def test_a_player_acting_again_leaves_autoplay(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True, consecutive_timeouts=2)
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    assert services.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.autoplay, seat.consecutive_timeouts) == (False, 0)


def test_a_whole_match_is_played_stored_and_replays_from_the_log(alice):
    table = services.create_table(alice, "okey51", {"rounds": 3}, mode="solo")
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
        position = api.deal("okey51", table.options, rnd.seed, 4, rnd.first)
        assert position == rnd.initial_position
        for move in Move.objects.filter(round=rnd).order_by("number"):
            assert move.result == "ok"
            position = api.apply(position, move.action)
        assert position == rnd.final_position
    assert match.totals == [sum(r.totals[s] for r in rounds) for s in range(4)]
    assert match.standings == api.standings("okey51", match.totals)
    assert game.deadline is None and game.deadline_kind == ""


def test_next_round_waits_for_its_version(alice):
    table = services.create_table(alice, "okey51", {"rounds": 3}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: g.deadline_kind == "next_round")
    assert game.round.is_over and game.round.index == 0
    assert tasks.next_round(game.pk, game.version - 1) is False
    assert tasks.next_round(game.pk, game.version) is True
    game.refresh_from_db()
    assert game.round.index == 1 and game.position["turn"] == 1


def test_sweep_rearms_only_overdue_deadlines(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    assert services.sweep() == 0
    Game.objects.filter(table=table).update(deadline=timezone.now() - timedelta(seconds=10))
    assert services.sweep() == 1
    assert services.sweep(startup=True) == 1


def test_disconnect_puts_the_seat_on_autoplay_and_reconnect_gives_it_back(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    assert services.set_connected(alice, table.pk, True) == 0
    assert services.set_connected(alice, table.pk, False) == 0
    assert Seat.objects.get(table=table, index=0).autoplay is True
    assert services.set_connected(alice, table.pk, True) == 0
    seat = Seat.objects.get(table=table, index=0)
    assert (seat.autoplay, seat.connections) == (False, 1)


def test_the_snapshot_shows_only_the_own_rack(alice, bob):
    table = services.create_table(alice, "okey51", {}, mode="online")
    services.join_table(bob, table.pk)
    services.start_match(alice, table.pk)
    game = game_of(table)
    version, view, seat = services.snapshot(table.pk, bob)
    assert (version, seat) == (game.version, 2)
    assert view["rack"] == game.position["seats"][2]["rack"]
    assert "pile" not in view and "seats" not in view and view["seed"] is None
    assert view["players"][0]["name"] == "alice" and view["players"][1]["computer"] == "normal"
    assert view["commitment"] == game.round.commitment


def test_two_simultaneous_actions_at_one_version_are_applied_once(alice):
    """The row lock plus the version check let exactly one of two racing actions through."""
    import threading

    from django.db import connection

    table = services.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    rack = game.position["seats"][0]["rack"]
    outcomes = []
    barrier = threading.Barrier(2)

    def play(tile):
        try:
            barrier.wait()
            outcomes.append(services.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version))
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
    from django.core.management import CommandError, call_command

    table = services.create_table(alice, "okey51", {}, mode="solo")
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table)
    call_command("verify_round", game.round.pk)
    Round.objects.filter(pk=game.round.pk).update(seed=game.round.seed + "x")
    with pytest.raises(CommandError):
        call_command("verify_round", game.round.pk)
