"""Ratings from finished online matches, against the real database (PostgreSQL in CI):
places, idempotence, abandonment, unrated matches, teams, voiding and recomputation."""
from datetime import timedelta

import pytest
from django.core.management.base import CommandError
from django.utils import timezone

from games.models import Game, Match, Seat
from games.play import tables
from games.play.timers import timer_args
from leaderboards import ratings, record_result
from leaderboards.models import Rating, RatingChange, SoloRecord, VoidedMatch
from leaderboards.recording import recompute, void_match
from tests.leaderboards.helpers import finished_match
from tests.race import run_together

pytestmark = pytest.mark.django_db(transaction=True)

FRESH = (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)


def state(ruleset="okey51"):
    """Every stored rating of `ruleset` as {username: (mu, sigma, matches, wins)}."""
    return {r.user.username: (round(r.mu, 9), round(r.sigma, 9), r.matches, r.wins)
            for r in Rating.objects.filter(ruleset=ruleset).select_related("user")}


@pytest.fixture
def dave(make_user):
    return make_user("dave")


def test_places_rank_okey_lowest_first_and_rami_highest_first():
    assert ratings.places("okey51", [120, -40, 300, 120]) == [2, 1, 3, 2]
    assert ratings.places("rami", [120, -40, 300, 120]) == [2, 3, 1, 2]


def test_an_abandoning_seat_takes_last_place_whatever_its_total():
    assert ratings.places("okey17", [-80, 200, 400, 300], abandoned={0}) == [4, 1, 3, 2]
    assert ratings.places("rami", [90, 10, -50, -50], abandoned={0, 1}) == [2, 2, 1, 1]


def test_the_winner_gains_and_the_last_loses(alice, bob, carol, dave):
    match = finished_match([alice, bob, carol, dave], [-50, 80, 160, 300])
    assert record_result(match) == 4
    values = {c.user.username: c for c in RatingChange.objects.select_related("user")}
    assert [values[n].place for n in ("alice", "bob", "carol", "dave")] == [1, 2, 3, 4]
    assert values["alice"].mu_after > ratings.DEFAULT_MU > values["dave"].mu_after
    assert values["alice"].delta > 0 > values["dave"].delta
    assert state()["alice"][2:] == (1, 1) and state()["bob"][2:] == (1, 0)


def test_recording_a_match_twice_changes_nothing(alice, bob, carol):
    match = finished_match([alice, None, bob, carol], [10, 20, 30, 40])
    assert record_result(match) == 3
    first = state()
    changes = list(RatingChange.objects.values_list("user_id", "mu_after", "sigma_after").order_by("user_id"))
    assert record_result(match) == 0
    assert record_result(Match.objects.get(pk=match.pk)) == 0
    assert state() == first
    assert list(RatingChange.objects.values_list("user_id", "mu_after", "sigma_after").order_by("user_id")) == changes


def test_two_workers_recording_the_same_match_at_once_rate_it_once(alice, bob, carol, dave):
    match = finished_match([alice, bob, carol, dave], [10, 20, 30, 40])
    results = run_together(lambda: record_result(match), 2)
    assert sorted(results) == [0, 4]
    assert RatingChange.objects.count() == 4
    assert all(m == 1 for _mu, _s, m, _w in state().values())


def test_abandoning_costs_rating_even_with_the_best_total(alice, bob):
    match = finished_match([alice, None, bob, None], [-200, 100, 300, 100], abandoned={0})
    record_result(match)
    alice_change = RatingChange.objects.get(user=alice)
    assert (alice_change.place, alice_change.abandoned) == (2, True)
    assert alice_change.mu_after < ratings.DEFAULT_MU < RatingChange.objects.get(user=bob).mu_after


@pytest.mark.parametrize("seat_users_of, mode", [
    (lambda a, b: [a, None, None, None], "online"),  # one human: unrated
    (lambda a, b: [a, None, None, None], "solo"),
])
def test_matches_with_fewer_than_two_humans_are_unrated(alice, bob, seat_users_of, mode):
    match = finished_match(seat_users_of(alice, bob), [10, 20, 30, 40], mode=mode)
    record_result(match)
    assert Rating.objects.count() == 0 and RatingChange.objects.count() == 0


def test_an_unfinished_match_is_not_rated(alice, bob):
    match = finished_match([alice, bob, None, None], [10, 20, 30, 40], finished=False)
    assert record_result(match) is None
    assert RatingChange.objects.count() == 0


def test_team_matches_rate_teams(alice, bob, carol, dave):
    # seats 0+2 against 1+3 (RULES.md §3 teams); team totals 110 vs 130: alice and carol win.
    match = finished_match([alice, bob, carol, dave], [60, 30, 50, 100], options={"teams": True})
    record_result(match)
    places = dict(RatingChange.objects.values_list("user__username", "place"))
    assert places == {"alice": 1, "carol": 1, "bob": 2, "dave": 2}
    assert state()["alice"][3] == 1 and state()["bob"][3] == 0
    after = dict(RatingChange.objects.values_list("user__username", "mu_after"))
    assert after["alice"] == pytest.approx(after["carol"]) and after["alice"] > after["bob"]


def test_two_humans_in_one_team_against_computers_are_unrated(alice, bob):
    match = finished_match([alice, None, bob, None], [60, 30, 50, 100], options={"teams": True})
    record_result(match)
    assert RatingChange.objects.count() == 0


def test_rami_ranks_the_highest_total_first(alice, bob):
    match = finished_match([alice, bob, None, None], [-30, 90, 10, 0], ruleset="rami")
    record_result(match)
    assert dict(RatingChange.objects.values_list("user__username", "place")) == {"alice": 2, "bob": 1}
    assert state("rami")["bob"][0] > state("rami")["alice"][0]


def test_recomputing_gives_the_ratings_recorded_one_by_one(alice, bob, carol, dave):
    matches = [
        finished_match([alice, bob, carol, dave], [10, 20, 30, 40], minutes=1),
        finished_match([dave, carol, None, alice], [5, 50, 60, 70], minutes=2),
        finished_match([bob, dave, carol, None], [90, 20, 30, 0], minutes=3, abandoned={2}),
    ]
    for match in matches:
        record_result(match)
    incremental = state()
    assert recompute("okey51") == 3
    assert state() == incremental
    assert RatingChange.objects.count() == 4 + 3 + 3


def test_voiding_a_match_reverts_its_changes_and_recomputes(alice, bob, carol, dave):
    first = finished_match([alice, bob, carol, dave], [400, 20, 30, 40], minutes=1)
    second = finished_match([alice, bob, None, None], [10, 20, 30, 40], minutes=2)
    record_result(first)
    record_result(second)
    assert state()["carol"][2] == 1

    void = void_match(first, "collusion between bob and dave", by=carol)
    assert VoidedMatch.objects.get(match=first) == void and void.reason == "collusion between bob and dave"
    assert not RatingChange.objects.filter(match=first).exists()
    # what is left is exactly the second match rated from fresh ratings
    (a_after,), (b_after,) = ratings.rate([[FRESH], [FRESH]], [1, 2])
    got = state()
    assert set(got) == {"alice", "bob"}
    assert got["alice"] == (round(a_after[0], 9), round(a_after[1], 9), 1, 1)
    assert got["bob"] == (round(b_after[0], 9), round(b_after[1], 9), 1, 0)
    # a voided match is never rated again, and voiding twice keeps the first reason
    assert record_result(first) == 0 and RatingChange.objects.filter(match=first).count() == 0
    assert void_match(first, "again").reason == "collusion between bob and dave"
    assert recompute("okey51") == 1


def test_a_player_is_provisional_until_enough_rated_matches(alice, bob):
    for minute in range(ratings.PROVISIONAL_MATCHES):
        record_result(finished_match([alice, bob, None, None], [10, 20, 30, 40], minutes=minute))
        rating = Rating.objects.get(user=alice, ruleset="okey51")
        assert rating.provisional == (minute + 1 < ratings.PROVISIONAL_MATCHES)


def test_a_finished_online_match_is_rated_after_its_commit(alice, bob):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online")
    tables.join_table(bob, table.pk)
    tables.start_match(alice, table.pk)
    Seat.objects.filter(table=table).update(autoplay=True)  # the computers play both humans
    for _ in range(3000):
        game = Game.objects.get(table=table)
        if not game.deadline_kind:
            break
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        game.refresh_from_db()
        from games import tasks

        task = {"move": tasks.turn_timeout, "bot": tasks.bot_turn, "next_round": tasks.next_round}[game.deadline_kind]
        task(*timer_args(game))
    match = Match.objects.get(table=table)
    assert match.finished is not None
    changes = RatingChange.objects.filter(match=match)
    # both left the play to the computer: both abandoned, sharing the last place
    assert sorted(changes.values_list("user__username", "abandoned", "place")) == [
        ("alice", True, 1), ("bob", True, 1)]
    assert SoloRecord.objects.count() == 0


def test_the_recompute_command_rebuilds_the_ratings(alice, bob):
    from io import StringIO

    from django.core.management import call_command

    record_result(finished_match([alice, bob, None, None], [10, 20, 30, 40]))
    before = state()
    Rating.objects.update(mu=1.0, sigma=1.0)  # damaged
    out = StringIO()
    call_command("recompute_ratings", "okey51", stdout=out)
    assert "okey51: 1 rated matches" in out.getvalue()
    assert state() == before
    Rating.objects.update(mu=1.0, sigma=1.0)
    everything = StringIO()
    call_command("recompute_ratings", stdout=everything)  # no argument: every ruleset
    assert everything.getvalue().splitlines() == ["okey51: 1 rated matches", "okey17: 0 rated matches",
                                                  "rami: 0 rated matches"]
    assert state() == before
    with pytest.raises(CommandError, match="unknown ruleset chess"):
        call_command("recompute_ratings", "chess")
