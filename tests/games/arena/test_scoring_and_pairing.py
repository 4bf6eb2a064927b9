"""An arena's scoring and pairing rules on plain values (games.arena.scoring, pairing)."""
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from games.arena import pairing, scoring
from games.arena.pairing import Waiting


@pytest.mark.parametrize(("place", "seats", "points"), [(1, 4, 4), (2, 4, 2), (3, 4, 1), (4, 4, 0),
                                                         (1, 3, 4), (3, 3, 1), (1, 2, 4), (2, 2, 0)])
def test_places_score_four_two_one_nothing_and_four_nothing_at_two_seats(place, seats, points):
    assert scoring.place_points(place, seats) == points


def test_two_wins_in_a_row_double_every_place_until_a_match_is_not_won():
    streak, got = 0, []
    for place in (1, 1, 1, 2, 1, 1, 3):
        points, streak, doubled = scoring.score_match(place, 4, streak)
        got.append((points, streak, doubled))
    assert got == [(4, 1, False), (4, 2, False), (8, 3, True), (4, 0, True), (4, 1, False), (4, 2, False),
                   (2, 0, True)]
    assert scoring.on_fire(2) and not scoring.on_fire(1)


def test_leaving_scores_nothing_and_ends_the_streak():
    assert scoring.score_match(1, 4, 5, left=True) == (0, 0, False)


def test_standings_break_ties_by_points_per_match_then_the_earliest_to_the_score():
    t0 = datetime(2026, 12, 4, 18, tzinfo=UTC)
    rows = {"late": (8, 2, t0 + timedelta(minutes=9)), "early": (8, 2, t0 + timedelta(minutes=3)),
            "grinder": (8, 4, t0), "leader": (12, 5, t0 + timedelta(minutes=20))}
    ranked = sorted(rows, key=lambda name: scoring.standing_key(*rows[name]))
    assert ranked == ["leader", "early", "late", "grinder"]


def test_the_closest_scores_sit_together():
    pool = [Waiting(u, score) for u, score in [(1, 0), (2, 30), (3, 4), (4, 28), (5, 2), (6, 26), (7, 6), (8, 24)]]
    assert pairing.pair(pool, 4, bot_wait=20) == [[2, 4, 6, 8], [7, 3, 5, 1]]


def test_rating_breaks_equal_scores():
    pool = [Waiting(1, 4, rating=10), Waiting(2, 4, rating=30), Waiting(3, 4, rating=20), Waiting(4, 0)]
    assert pairing.pair(pool, 2, bot_wait=20) == [[2, 3], [1, 4]]


def test_the_same_opponents_twice_in_a_row_are_avoided_where_the_pool_allows():
    last = {1: frozenset({2}), 2: frozenset({1})}
    pool = [Waiting(u, s, last=last.get(u, frozenset())) for u, s in [(1, 9), (2, 8), (3, 7), (4, 6)]]
    tables = pairing.pair(pool, 2, bot_wait=20)
    assert sorted(map(sorted, tables)) == [[1, 3], [2, 4]]
    # two players only: they meet again rather than not play
    alone = [Waiting(1, 9, last=frozenset({2})), Waiting(2, 8, last=frozenset({1}))]
    assert pairing.pair(alone, 2, bot_wait=20) == [[1, 2]]


def test_a_short_table_waits_for_humans_then_starts_with_computers():
    pool = [Waiting(1, 0, waited=5), Waiting(2, 0, waited=12)]
    assert pairing.pair(pool, 4, bot_wait=20) == []
    assert pairing.pair([Waiting(1, 0, waited=5), Waiting(2, 0, waited=21)], 4, bot_wait=20) == [[1, 2]]
    full_and_short = [Waiting(u, 0, waited=1) for u in range(1, 6)]
    assert pairing.pair(full_and_short, 4, bot_wait=20) == [[1, 2, 3, 4]]


@st.composite
def pools(draw):
    users = draw(st.lists(st.integers(1, 500), unique=True, max_size=40))
    pool = []
    for user in users:
        last = draw(st.frozensets(st.sampled_from(users), max_size=3)) - {user} if users else frozenset()
        pool.append(Waiting(user, draw(st.integers(0, 60)), draw(st.floats(0, 40)), draw(st.floats(0, 60)), last))
    return pool


@hsettings(max_examples=300, deadline=None)
@given(pools(), st.sampled_from([2, 3, 4]), st.floats(0, 40))
def test_pairing_seats_everyone_at_most_once_at_tables_of_the_right_size(pool, seats, bot_wait):
    tables = pairing.pair(pool, seats, bot_wait)
    seated = [u for table in tables for u in table]
    assert len(seated) == len(set(seated))  # nobody at two tables
    assert set(seated) <= {p.user for p in pool}
    assert all(len(t) == seats for t in tables[:-1]) and all(1 <= len(t) <= seats for t in tables)
    # who is left has a reason: fewer than a table wait, and not yet for bot_wait
    left = [p for p in pool if p.user not in set(seated)]
    assert len(left) < seats
    if left:
        assert max(p.waited for p in left) < bot_wait


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=4, max_size=4))
def test_a_repeat_of_last_opponents_is_avoided_when_another_table_can_take_the_swap(scores):
    # eight players, two full tables: whoever would meet their last table again swaps out
    first = [Waiting(u, 100 - u, last=frozenset({1, 2, 3, 4}) - {u}) for u in (1, 2, 3, 4)]
    second = [Waiting(u, s) for u, s in zip((5, 6, 7, 8), scores)]
    tables = pairing.pair(first + second, 4, bot_wait=99)
    assert all(set(t) != {1, 2, 3, 4} for t in tables)
