"""Recording finished matches is durable and idempotent: the rating (or solo record) and
the match's `recorded` mark are one transaction, and the sweeper records the finished
matches whose after-commit recording never ran (a crash right after the commit)."""
import pytest
from django.db import connection, transaction

from games.models import Match, Seat
from games.play import turns
from leaderboards.models import Rating, RatingChange, SoloRecord
from leaderboards.recording import record_pending
from tests.games.play.helpers import online_table, play_out
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def ratings_now():
    return sorted(Rating.objects.values_list("user__username", "mu", "sigma", "matches", "wins"))


def test_a_match_whose_recording_was_lost_with_the_process_is_recorded_by_the_sweep_once(alice, bob):
    table = online_table(alice, bob)
    Seat.objects.filter(table=table).update(autoplay=True)  # the computers play both humans
    with transaction.atomic():
        game = play_out(table)
        assert game.match.finished is not None
        connection.run_on_commit = []  # the process dies right after the commit: no after-commit work runs
    match = Match.objects.get(table=table)
    assert match.finished is not None and match.recorded is None
    assert not RatingChange.objects.filter(match=match).exists()

    assert turns.sweep()["recorded"] == 1
    match.refresh_from_db()
    assert match.recorded is not None
    changes = list(RatingChange.objects.filter(match=match).values_list("user__username", "mu_after", "place"))
    assert sorted(name for name, _mu, _place in changes) == ["alice", "bob"]
    rated = ratings_now()
    assert [row[3] for row in rated] == [1, 1]  # one rated match each

    assert turns.sweep()["recorded"] == 0
    assert list(RatingChange.objects.filter(match=match).values_list("user__username", "mu_after", "place")) == changes
    assert ratings_now() == rated
    assert Match.objects.get(pk=match.pk).recorded == match.recorded


def test_a_match_recorded_after_its_commit_is_not_recorded_again(alice, bob):
    table = online_table(alice, bob)
    Seat.objects.filter(table=table).update(autoplay=True)
    play_out(table)
    match = Match.objects.get(table=table)
    assert match.recorded is not None and RatingChange.objects.filter(match=match).count() == 2
    rated = ratings_now()
    assert record_pending() == 0
    assert ratings_now() == rated


def test_pending_matches_are_recorded_oldest_first_and_marked_even_when_unrated(alice, bob):
    rated = finished_match([alice, bob, None, None], [10, 20, 30, 40], minutes=2)
    unrated = finished_match([alice, None, None, None], [10, 20, 30, 40], minutes=1)  # one human
    solo = finished_match([bob, None, None, None], [5, 20, 30, 40], mode="solo", minutes=3)
    running = finished_match([alice, bob, None, None], [0, 0, 0, 0], finished=False)
    assert record_pending(limit=1) == 1
    assert Match.objects.get(pk=unrated.pk).recorded is not None  # the oldest end first
    assert Match.objects.get(pk=rated.pk).recorded is None
    assert record_pending() == 2
    assert RatingChange.objects.filter(match=rated).count() == 2
    assert not RatingChange.objects.filter(match=unrated).exists()
    assert Match.objects.get(pk=solo.pk).recorded is not None
    assert SoloRecord.objects.count() == 0  # no human move of bob's: not a record (RULES.md §6)
    assert Match.objects.get(pk=running.pk).recorded is None
    assert record_pending() == 0
