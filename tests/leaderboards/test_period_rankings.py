"""The rankings of a period ("this month", "this week") list the players who played a rated
match in it, ranked, each with the change of their shown rating over it. The page reads
each rating's stored latest match (`Rating.last_played`) and adds the changes up in the
database; these tests compare what it shows with the same lists worked out from the
rating changes themselves, after matches recorded in order, late (the sweeper), and voided."""
import importlib
from datetime import timedelta

import pytest
from django.apps import apps as django_apps
from django.db.models import Max
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from leaderboards import ratings, record_result
from leaderboards.models import Rating, RatingChange
from leaderboards.recording import recompute, void_match
from leaderboards.views import period_gains, period_start
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db

PERIODS = ("month", "week")


def times():
    """(long ago, [instants within both periods, oldest first]): the periods' starts may
    be days apart (a week can start in the month before), so the recent instants are
    taken after the later start and before now."""
    now = timezone.now()
    later_start = max(period_start(p, now) for p in PERIODS)
    earlier_start = min(period_start(p, now) for p in PERIODS)
    recent = [later_start + (now - later_start) * k / 40 for k in range(1, 40)]
    return earlier_start - timedelta(days=40), recent


def rated(seats, totals, ended, ruleset="okey51", record=True):
    """An online match between `seats` (users, or None for a computer) ended at `ended`,
    recorded unless `record` is False. Returns the Match."""
    match = finished_match((list(seats) + [None] * 4)[:4], totals, ruleset=ruleset)
    Match.objects.filter(pk=match.pk).update(finished=ended)
    if record:
        record_result(match)
    return match


def from_the_changes(ruleset, since, viewer):
    """What the period's ranking shows, worked out from the rating changes alone: the
    players with a change since `since`, in the ranking's order (stored ordinal, then user
    id), each with the sum of their changes' deltas. Returns (ranked [(rank, name, gain)],
    provisional [(name, gain)], the viewer's rank or None)."""
    changes = list(RatingChange.objects.filter(ruleset=ruleset, played__gte=since))
    gains = {}
    for change in changes:
        gains[change.user_id] = gains.get(change.user_id, 0) + change.delta
    players = sorted(Rating.objects.filter(ruleset=ruleset, user_id__in=gains).select_related("user"),
                     key=lambda r: (-r.ordinal, r.user_id))
    ranked = [r for r in players if r.matches >= ratings.PROVISIONAL_MATCHES]
    provisional = [r for r in players if r.matches < ratings.PROVISIONAL_MATCHES]
    rank = next((i for i, r in enumerate(ranked, start=1) if r.user_id == viewer.pk), None)
    return ([(i, r.user.username, gains[r.user_id]) for i, r in enumerate(ranked, start=1)],
            [(r.user.username, gains[r.user_id]) for r in provisional[:50]], rank)


def shown(client, ruleset, period):
    """What the page shows: (ranked [(rank, name, gain)], provisional [(name, gain)], the
    viewer's rank or None)."""
    response = client.get(reverse("leaderboard", args=[ruleset]), {"period": period})
    assert response.status_code == 200
    context = response.context
    mine = context["mine"]
    return ([(r.rank, r.user.username, r.gain) for r in context["rows"]],
            [(r.user.username, r.gain) for r in context["provisional"]], mine and mine["rank"])


def latest_of_the_changes():
    """{(user id, ruleset): the latest `played` of their rating changes}."""
    return {(row["user_id"], row["ruleset"]): row["latest"]
            for row in RatingChange.objects.values("user_id", "ruleset").annotate(latest=Max("played"))}


def stored_latest():
    return {(r.user_id, r.ruleset): r.last_played for r in Rating.objects.all()}


@pytest.fixture
def history(make_user):
    """Nine players with rated okey51 matches before and in the periods; returns the users
    by name and the matches of interest."""
    users = {name: make_user(name) for name in ("ana", "ben", "cem", "dia", "eda", "fay", "gul", "hal", "ivo")}
    u = users
    old, recent = times()
    # long ago: ana, ben, cem, dia and fay become established
    for k in range(ratings.PROVISIONAL_MATCHES):
        rated([u["ana"], u["ben"], u["cem"]], [10 + k, 20, 30, 40], old + timedelta(hours=k))
        rated([u["dia"], u["fay"], u["cem"]], [30, 20 - k, 10, 40], old + timedelta(hours=k, minutes=30))
    # in the periods: ana and ben many times (one of ben's matches is abandoned by a
    # computer seat: the rating change still counts), eda and gul a few (provisional)
    for k in range(12):
        rated([u["ana"], u["ben"]], [10 + (k % 3) * 7, 20, 15, 40], recent[k])
    rated([u["eda"], u["ana"]], [5, 50, 60, 70], recent[13])
    rated([u["gul"], u["eda"]], [50, 5, 60, 70], recent[14])
    # dia's match in the periods is recorded first, her older one late (the sweeper):
    # her latest match stays the recent one
    rated([u["dia"], u["ben"]], [15, 25, 35, 45], recent[20])
    late = rated([u["dia"], u["hal"]], [25, 15, 35, 45], old + timedelta(days=1), record=False)
    record_result(late)
    # fay's only match in the periods is voided: she leaves them (the ruleset is recomputed)
    voided = rated([u["fay"], u["ivo"]], [10, 20, 30, 40], recent[25])
    # another ruleset, in the periods: not in okey51's lists
    rated([u["cem"], u["hal"]], [10, 20, 30, 40], recent[30], ruleset="okey17")
    return users, voided


@pytest.mark.parametrize("period", PERIODS)
def test_the_period_ranking_shows_what_the_rating_changes_say(history, period):
    users, voided = history
    client = Client()
    client.force_login(users["ben"])
    since = period_start(period)
    before_void = from_the_changes("okey51", since, users["ben"])
    assert shown(client, "okey51", period) == before_void
    ranked_names = [name for _rank, name, _gain in before_void[0]]
    assert set(ranked_names) == {"ana", "ben", "dia", "fay"}
    assert [name for name, _gain in before_void[1]] and "gul" in dict(before_void[1])
    assert "cem" not in ranked_names and "hal" not in dict(before_void[1])  # only long ago, or another ruleset

    void_match(voided, "bench of a test", None)
    after_void = from_the_changes("okey51", since, users["ben"])
    assert "fay" not in [name for _rank, name, _gain in after_void[0]]
    assert shown(client, "okey51", period) == after_void


def test_every_rating_keeps_its_latest_rated_match(history):
    users, voided = history
    assert stored_latest() == latest_of_the_changes()
    void_match(voided, "bench of a test", None)
    assert stored_latest() == latest_of_the_changes()
    recompute("okey17")
    assert stored_latest() == latest_of_the_changes()
    assert Rating.objects.get(user=users["dia"], ruleset="okey51").last_played > period_start("month") - timedelta(
        days=1)


def test_the_gains_are_the_sums_of_the_rating_changes(history):
    users, _voided = history
    since = period_start("month")
    ids = [user.pk for user in users.values()]
    expected = {}
    for change in RatingChange.objects.filter(ruleset="okey51", played__gte=since):
        expected[change.user_id] = expected.get(change.user_id, 0) + change.delta
    assert period_gains("okey51", since, ids) == expected
    assert expected[users["ana"].pk] != 0


def test_the_migration_fills_the_latest_match_from_the_changes(history):
    fill = importlib.import_module("leaderboards.migrations.0008_rating_last_played").fill
    expected = stored_latest()
    Rating.objects.update(last_played=None)
    fill(django_apps, None)
    assert stored_latest() == expected == latest_of_the_changes()
