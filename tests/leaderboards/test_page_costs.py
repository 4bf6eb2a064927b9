"""The pages a player opens cost the same queries whatever the number of matches behind
them: the lobby, a profile, the rankings and the solo records of a player with six
matches or eighteen (bench/data_growth.py measures them at a hundred thousand players)."""
import math

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import LEGACY_SHUFFLE, Round, Seat, Table
from leaderboards import record_result
from leaderboards.stats import rating_series
from leaderboards.views import period_start
from tests.leaderboards.helpers import BASE_TIME, finished_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dave(make_user):
    return make_user("dave")


def play(players, count, first_minute=0):
    """`count` rated online matches and `count` solo matches of players[0], each with one
    finished round, recorded."""
    for k in range(count):
        seats = players[k % len(players):] + players[:k % len(players)]
        for match in (finished_match(seats, [10 + k, 20, 30 + k, 40], minutes=first_minute + 2 * k),
                      finished_match([players[0], None, None, None], [5 + k, 20, 30, 40], mode="solo",
                                     minutes=first_minute + 2 * k + 1)):
            Round.objects.create(match=match, index=0, server_seed="s" * 64, commitment="c" * 64,
                                 algorithm=LEGACY_SHUFFLE, scores=match.totals, penalties=[0, 0, 0, 0],
                                 totals=match.totals, finished=match.finished,
                                 final_position={"seats": [{"opened": "yes"}] * 4})
            record_result(match)


def in_this_week_and_month():
    """Minutes after BASE_TIME from which a match is finished within this week and this
    month (`period_start`): BASE_TIME is a day ago, which on a Monday or a 1st is in the
    period before, and a period's ranking with nobody in it costs fewer queries."""
    start = max(period_start("week"), period_start("month"))
    return max(0, math.ceil((start - BASE_TIME).total_seconds() / 60))


def costs(alice):
    """{page: (status, queries)} of the pages alice opens."""
    client = Client()
    client.force_login(alice)
    pages = {
        "lobby": reverse("lobby"),
        "profile": reverse("player_profile", args=[alice.username]),
        "rankings": reverse("leaderboard", args=["okey51"]),
        "rankings this week": reverse("leaderboard", args=["okey51"]) + "?period=week",
        "rankings last page": reverse("leaderboard", args=["okey51"]) + "?last=1",
        "solo records last page": reverse("solo_records", args=["okey51"]) + "?last=1",
        "solo records": reverse("solo_records", args=["okey51"]),
    }
    out = {}
    for name, url in pages.items():
        client.get(url)  # the session and the language are read once
        with CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        out[name] = (response.status_code, len(ctx.captured_queries))
    return out


def test_the_pages_cost_the_same_queries_with_six_matches_or_eighteen(alice, bob, carol, dave):
    players = [alice, bob, carol, dave]
    first = in_this_week_and_month()
    play(players, 6, first_minute=first)  # past the provisional matches: everyone ranked, on a first page
    few = costs(alice)
    assert {status for status, _q in few.values()} == {200}
    play(players, 12, first_minute=first + 100)
    # a live table of hers: the lobby lists it, and still at the same cost
    Seat.objects.create(table=Table.objects.create(creator=alice, status=Table.Status.OPEN), index=0, user=alice)
    assert costs(alice) == few
    assert max(q for _s, q in few.values()) <= 30


def test_the_lobby_lists_the_players_live_and_latest_finished_tables(alice, bob):
    finished = [finished_match([alice, bob, None, None], [1, 2, 3, 4], minutes=k) for k in range(12)]
    live = Table.objects.create(creator=bob, status=Table.Status.PLAYING)
    Seat.objects.create(table=live, index=0, user=bob)
    Seat.objects.create(table=live, index=1, user=alice)
    elsewhere = Table.objects.create(creator=bob, status=Table.Status.OPEN)
    Seat.objects.create(table=elsewhere, index=0, user=bob)
    client = Client()
    client.force_login(alice)
    context = client.get(reverse("lobby")).context
    assert [t.pk for t in context["my_tables"]] == [live.pk]
    assert [t.pk for t in context["finished_tables"]] == [m.table_id for m in reversed(finished)][:10]


def test_the_profile_chart_draws_the_latest_rated_matches(alice, bob, monkeypatch):
    for k in range(6):
        record_result(finished_match([alice, bob, None, None], [10, 20 + k, 30, 40], minutes=k))
    full = rating_series(alice)
    assert len(full["okey51"]) == 7  # the rating before the first, then after each of the six
    latest = rating_series(alice, window=4)["okey51"]
    # the last four: the rating before the first of them (drawn at its time), then after each one
    assert [rating for _t, rating in latest] == [rating for _t, rating in full["okey51"][-5:]]
    assert latest[1:] == full["okey51"][-4:]
    assert latest[0][0] == latest[1][0]
