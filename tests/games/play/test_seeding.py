"""The seeding window before each deal of a table from before the hash chain
(games.play.seeding, docs/fair-deals.md §1): the
commitment is public before the deal, the connected humans' seeds go into it, a missing
seed is "", and refused seeds change nothing."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import api, fairdeal
from games.models import Game, Round, Seat
from games.play import presence, rounds, seeding, tables
from games.snapshot import snapshot
from tests.games.play.helpers import assert_armed, game_of, play_out, run_timer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _window(settings):
    settings.OKEY_SEED_WINDOW = 3


@pytest.fixture(autouse=True)
def _tables_without_a_chain(monkeypatch):
    """Tables created before the hash chain (okeysite-shuffle-1) keep one window per round."""
    monkeypatch.setattr(rounds, "draw_chain", lambda length: {"chain_seed": "", "chain_tip": "", "chain_length": 0})


def started_pair(alice, bob, rounds=1):
    """alice (seat 0) and bob (seat 2) connected at an online table, match started."""
    table = tables.create_table(alice, "okey51", {"rounds": rounds}, mode="online")
    tables.join_table(bob, table.pk, seat_index=2)
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(bob, table.pk, True)
    tables.start_match(alice, table.pk)
    return table


def pending(table):
    return Round.objects.get(match__table=table, initial_position__isnull=True)


def assert_dealt_from(table, seeds):
    """The table's round is dealt from its committed server seed and exactly `seeds`."""
    game = game_of(table)
    rnd = game.round
    assert rnd.client_seeds == seeds and game.position == rnd.initial_position
    deal_seed = fairdeal.deal_seed(rnd.server_seed, rnd.number, str(table.pk), seeds)
    assert rnd.initial_position == api.deal(table.ruleset, table.options, deal_seed, table.players, rnd.first)
    assert game.deadline_kind in ("move", "bot")
    return game


def test_the_commitment_is_public_before_the_deal_and_every_connected_seed_deals_at_once(alice, bob, published):
    table = started_pair(alice, bob)
    game = game_of(table)
    rnd = pending(table)
    assert game.position is None and game.round is None
    assert_armed(published, game, "seed")
    assert 2.5 < (game.deadline - timezone.now()).total_seconds() <= 3
    _v, view, _s = snapshot(table.pk, bob)
    deadline = int(game.deadline.timestamp() * 1000)
    assert view["seeding"] == {"round": 1, "commitment": rnd.commitment, "deadline": deadline, "sent": [False] * 4}
    assert rnd.commitment == fairdeal.commitment(rnd.server_seed) and "rack" not in view

    first = seeding.submit_seed(alice, table.pk, 1, "  Zoe ")
    assert (first.ok, first.seed, first.dealt) == (True, "Zoe", False)  # bob is connected: wait for him
    assert game_of(table).position is None
    assert snapshot(table.pk, bob)[1]["seeding"]["sent"] == [True, False, False, False]
    second = seeding.submit_seed(bob, table.pk, 1, "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99")
    assert (second.ok, second.dealt) == (True, True)
    game = assert_dealt_from(table, ["Zoe", "", "4f3c2a1b0e9d8c7b6a5f4e3d2c1b0a99", ""])
    assert game.round.commitment == rnd.commitment and game.round.server_seed == rnd.server_seed
    assert_armed(published, game, "move")
    assert "seeding" not in snapshot(table.pk, alice)[1]
    late = seeding.submit_seed(alice, table.pk, 1, "again")  # the round is dealt
    assert (late.ok, late.code) == (False, "seed_closed")


def test_when_the_window_passes_a_missing_seed_is_empty(alice, bob):
    table = started_pair(alice, bob)
    assert seeding.submit_seed(bob, table.pk, 1, "manana").ok
    game = game_of(table)
    assert run_timer(game) is False  # fired early: waits for the window's end
    assert game_of(table).position is None and game_of(table).deadline_kind == "seed"
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert run_timer(game_of(table)) is True
    assert_dealt_from(table, ["", "", "manana", ""])


def test_a_disconnected_human_is_not_waited_for(alice, bob):
    table = started_pair(alice, bob)
    presence.set_connected(bob, table.pk, False)
    assert seeding.submit_seed(alice, table.pk, 1, "a").dealt
    assert_dealt_from(table, ["a", "", "", ""])


def test_refused_seeds_change_nothing(alice, bob, carol):
    table = started_pair(alice, bob)
    assert seeding.submit_seed(bob, table.pk, 1, "kept").ok
    before = game_of(table)
    stored = pending(table).client_seeds
    refusals = [
        (carol, 1, "spectator", "not_seated"),  # not seated: a spectator contributes nothing
        (alice, 2, "x", "seed_closed"),  # round 2 is not committed yet
        (alice, 0, "x", "seed_closed"),
        (alice, 1, "tab\there", "bad_seed"),  # a control
        (alice, 1, "zero\u200bwidth", "bad_seed"),  # a format character
        (alice, 1, "x" * 65, "bad_seed"),  # 65 code points
        (alice, 1, "y" * 10_000, "bad_seed"),
        (alice, 1, 42, "bad_seed"),
        (alice, 1, None, "bad_seed"),
    ]
    for user, number, seed, code in refusals:
        outcome = seeding.submit_seed(user, table.pk, number, seed)
        assert (outcome.ok, outcome.code) == (False, code), (number, seed)
    after = game_of(table)
    assert (after.version, after.deadline, after.deadline_kind, after.position) == (
        before.version, before.deadline, before.deadline_kind, None)
    assert pending(table).client_seeds == stored == [None, None, "kept", None]
    assert seeding.submit_seed(alice, table.pk, 1, "fine").dealt  # the window still works
    assert_dealt_from(table, ["fine", "", "kept", ""])


def test_a_solo_table_deals_when_its_player_seed_arrives(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo")
    assert game_of(table).deadline_kind == "seed"  # the player is on the way to the table page
    presence.set_connected(alice, table.pk, True)
    outcome = seeding.submit_seed(alice, table.pk, 1, "c0ffee00c0ffee00c0ffee00c0ffee00")
    assert outcome.dealt
    assert_dealt_from(table, ["c0ffee00c0ffee00c0ffee00c0ffee00", "", "", ""])


def test_every_round_gets_its_own_window(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 3}, mode="solo", bot_level="easy")
    assert seeding.submit_seed(alice, table.pk, 1, "one").dealt
    Seat.objects.filter(table=table, index=0).update(autoplay=True)  # the computer plays alice's turns
    game = play_out(table, until=lambda g: g.deadline_kind == "seed")
    assert game.round.index == 0 and api.is_over(game.position)  # the score table stays up
    view = snapshot(table.pk, alice)[1]
    second = pending(table)
    assert view["seeding"]["round"] == 2 and view["seeding"]["commitment"] == second.commitment
    assert view["round_end"]["server_seed"] == game.round.server_seed != second.server_seed
    assert not seeding.submit_seed(alice, table.pk, 1, "late").ok
    assert seeding.submit_seed(alice, table.pk, 2, "two").dealt
    assert_dealt_from(table, ["two", "", "", ""])


def test_no_window_deals_at_once(alice, settings):
    settings.OKEY_SEED_WINDOW = 0
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo")
    assert_dealt_from(table, ["", "", "", ""])
    assert seeding.submit_seed(alice, table.pk, 1, "x").code == "seed_closed"


def test_a_closed_table_ends_its_window(alice, bob):
    table = started_pair(alice, bob)
    tables.close_table(table.pk, "test")
    game = game_of(table)
    assert (game.deadline_kind, game.position) == ("", None)
    assert seeding.submit_seed(alice, table.pk, 1, "x").code == "seed_closed"
