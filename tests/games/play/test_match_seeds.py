"""Seeds given once per match (okeysite-shuffle-2, docs/fair-deals.md §10): the table's
hash chain is committed at creation, each seat's seed arrives as it takes the seat, the
first deal waits only for connected seats without one (a solo table for its player, a
table the site seats itself for every player), and no later round waits at all; every
round checks against the chain's tip."""
from datetime import timedelta

import pytest
from django.utils import timezone

from games import records
from games.engine import api, fairdeal
from games.models import Game, Match, Round, Seat
from games.play import presence, seeding, tables
from games.snapshot import snapshot
from tests.deals import stored_deal_seed
from tests.games.play.helpers import game_of, play_out, run_timer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _window(settings):
    settings.OKEY_SEED_WINDOW = 3
    settings.OKEY_SOLO_SEED_CAP = 120


def pair(alice, bob, rounds=1, bob_connected=True):
    table = tables.create_table(alice, "okey51", {"rounds": rounds}, mode="online")
    tables.join_table(bob, table.pk, seat_index=2)
    presence.set_connected(alice, table.pk, True)
    presence.set_connected(bob, table.pk, bob_connected)
    return table


def verified(table):
    """Every finished round of the table's match checked from its record alone."""
    record = records.match_record(Match.objects.get(table=table))
    return [(number, [d["code"] for d in diffs]) for number, diffs in fairdeal.verify_record(record)]


def test_the_chain_tip_is_public_before_anyone_sits_and_its_seed_never_is(alice, bob):
    table = tables.create_table(alice, "okey51", {"rounds": 3}, mode="online")
    assert table.chain_length == 3 and fairdeal.chain(table.chain_seed, 3)[0] == table.chain_tip
    _v, view, _s = snapshot(table.pk, None)
    assert view["chain_tip"] == table.chain_tip
    assert table.chain_seed not in repr(view)
    other = tables.create_table(bob, "okey51", {"rounds": 3}, mode="online")
    assert other.chain_tip != table.chain_tip


def test_seeds_sent_before_the_start_deal_every_round_with_no_window(alice, bob):
    table = pair(alice, bob, rounds=3)
    assert seeding.submit_seed(bob, table.pk, 1, " manana ").seed == "manana"
    assert seeding.submit_seed(alice, table.pk, 1, "first").ok
    assert seeding.submit_seed(alice, table.pk, 1, "Zoe").ok  # replaced while the table is open
    tables.start_match(alice, table.pk)
    game = game_of(table)
    assert game.deadline_kind == "move" and game.round.client_seeds == ["Zoe", "", "manana", ""]
    kinds = [Seat.objects.get(table=table, index=i).is_computer for i in range(4)]
    assert kinds == [False, True, False, True]
    Seat.objects.filter(table=table).update(autoplay=True)  # computers play every turn
    seen_kinds = []
    game = play_out(table, until=lambda g: (seen_kinds.append(g.deadline_kind), False)[1])
    assert "seed" not in seen_kinds  # no round waited for seeds
    dealt = list(Round.objects.filter(match__table=table).order_by("index"))
    assert [r.algorithm for r in dealt] == [fairdeal.SHUFFLE_2] * 3
    assert [r.client_seeds for r in dealt] == [["Zoe", "", "manana", ""]] * 3
    chain = fairdeal.chain(table.chain_seed, 3)
    assert [r.server_seed for r in dealt] == chain[1:]
    for rnd in dealt:
        assert rnd.initial_position == api.deal("okey51", table.options, stored_deal_seed(rnd, table), 4, rnd.first)
    assert verified(table) == [(1, []), (2, []), (3, [])]


def test_the_next_round_is_dealt_when_the_pause_ends(alice, bob):
    table = pair(alice, bob, rounds=3)
    seeding.submit_seed(alice, table.pk, 1, "a")
    seeding.submit_seed(bob, table.pk, 1, "b")
    tables.start_match(alice, table.pk)
    Seat.objects.filter(table=table).update(autoplay=True)
    game = play_out(table, until=lambda g: g.deadline_kind == "next_round")
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    run_timer(game_of(table))
    game = game_of(table)
    assert game.round.index == 1 and game.position is not None and game.deadline_kind in ("move", "bot")
    assert game.round.client_seeds == ["a", "", "b", ""]


def test_a_connected_seat_without_a_seed_gets_a_short_window_at_the_start(alice, bob):
    table = pair(alice, bob)
    seeding.submit_seed(alice, table.pk, 1, "a")
    tables.start_match(alice, table.pk)
    game = game_of(table)
    assert game.position is None and game.deadline_kind == "seed"
    assert 2.5 < (game.deadline - timezone.now()).total_seconds() <= 3
    frame = snapshot(table.pk, bob)[1]["seeding"]
    assert frame["round"] == 1 and frame["chain_tip"] == table.chain_tip
    assert frame["sent"] == [True, False, False, False]
    assert seeding.submit_seed(bob, table.pk, 1, "late but in time").dealt
    assert game_of(table).round.client_seeds == ["a", "", "late but in time", ""]
    assert (seeding.submit_seed(bob, table.pk, 1, "again").code) == "seed_closed"


def test_a_seat_closed_for_the_whole_window_gets_an_empty_seed(alice, bob):
    table = pair(alice, bob, bob_connected=False)
    seeding.submit_seed(alice, table.pk, 1, "a")
    tables.start_match(alice, table.pk)  # nobody connected is missing a seed: dealt at once
    game = game_of(table)
    assert game.deadline_kind == "move" and game.round.client_seeds == ["a", "", "", ""]
    assert verified_round_one(table) == []


def verified_round_one(table):
    game = game_of(table)
    entry = records.stored_round(game.round, reveal=True)
    return [d["code"] for d in fairdeal.verify_round(entry, records.header_of(game.match))]


def test_a_solo_table_waits_for_its_players_seed_however_slow_the_page(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo")
    game = game_of(table)
    assert game.position is None and game.deadline_kind == "seed"
    assert (game.deadline - timezone.now()).total_seconds() > 100  # the generous cap, not a 3 s window
    assert run_timer(game) is False  # the timer waits for the cap
    # the page took long to load: its seed is still the one dealt with
    outcome = seeding.submit_seed(alice, table.pk, 1, "c0ffee00c0ffee00c0ffee00c0ffee00")
    assert outcome.dealt
    assert game_of(table).round.client_seeds == ["c0ffee00c0ffee00c0ffee00c0ffee00", "", "", ""]
    assert verified_round_one(table) == []


def test_a_solo_table_whose_page_never_comes_is_dealt_at_the_cap(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo")
    game = game_of(table)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert run_timer(game_of(table)) is True
    assert game_of(table).round.client_seeds == ["", "", "", ""]


def test_a_table_the_site_seats_waits_for_every_players_seed_though_no_page_is_open_yet(alice, bob, carol):
    # an arena's table starts as it is seated, before its players' pages connect: without
    # the wait its first deal would hold none of their seeds
    table = tables.seat_together([alice, bob, carol], "okey51", players=4, seed_wait=10)
    game = game_of(table)
    assert game.position is None and game.deadline_kind == "seed"
    assert 8 <= (game.deadline - timezone.now()).total_seconds() <= 10
    assert not seeding.submit_seed(alice, table.pk, 1, "alice's").dealt
    assert not seeding.submit_seed(carol, table.pk, 1, "carol's").dealt  # bob's page is not open: still waited for
    assert seeding.submit_seed(bob, table.pk, 1, "bob's").dealt  # the last human's seed deals at once
    assert game_of(table).round.client_seeds == ["alice's", "carol's", "bob's", ""]
    assert verified_round_one(table) == []


def test_a_seated_player_whose_page_never_comes_gives_the_empty_seed_when_the_wait_ends(alice, bob):
    table = tables.seat_together([alice, bob], "okey51", players=4, seed_wait=10)
    seeding.submit_seed(alice, table.pk, 1, "alice's")
    game = game_of(table)
    assert game.position is None
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert run_timer(game_of(table)) is True
    assert game_of(table).round.client_seeds == ["alice's", "", "", ""]
    assert verified_round_one(table) == []


def test_a_seed_leaving_with_its_player_is_not_dealt(alice, bob, carol):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online")
    tables.join_table(bob, table.pk, seat_index=2)
    seeding.submit_seed(bob, table.pk, 1, "bob's")
    tables.remove_player(alice, table.pk, 2)
    tables.join_table(carol, table.pk, seat_index=2)
    tables.start_match(alice, table.pk)
    assert game_of(table).round.client_seeds[2] == ""


def test_refusals_change_nothing(alice, bob, carol):
    table = pair(alice, bob)
    for user, number, seed, code in [(carol, 1, "x", "not_seated"), (alice, 2, "x", "seed_closed"),
                                     (alice, 1, "tab\there", "bad_seed"), (alice, 1, None, "bad_seed")]:
        assert seeding.submit_seed(user, table.pk, number, seed).code == code
    assert Seat.objects.get(table=table, index=0).client_seed is None
