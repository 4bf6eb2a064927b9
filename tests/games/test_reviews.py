"""Round reviews stored after a round ends (games/reviews.py, the `review_round` task):
sent after the round's end commits, written once per human seat, reproducible from the
stored seed, and private to their owner unless made public."""
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.player_settings import PlayerSettings
from games import review, reviews, tasks
from games.models import Round, RoundReview
from games.records import stored_moves
from tests.games.play.helpers import play_out
from tests.games.test_records import solo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("ruleset", ["okey51", "okey17", "rami"])
def test_the_end_of_a_round_sends_its_review_and_the_task_stores_one_per_human_seat(alice, published, ruleset):
    table = solo(alice, ruleset=ruleset, options={"rounds": 1} if ruleset != "okey51" else {})
    play_out(table)
    rnd = Round.objects.get(match__table=table, index=0)
    assert {"task": "games.tasks.review_round", "args": [rnd.pk], "eta": None} in published
    assert not RoundReview.objects.exists()  # nothing before the worker runs it

    result = tasks.review_round.apply(args=(rnd.pk,))  # through Celery's task machinery
    assert result.get() == 1
    (row,) = RoundReview.objects.all()
    assert (row.round_id, row.seat, row.user_id, row.ruleset) == (rnd.pk, 0, alice.pk, ruleset)
    assert 0 <= row.accuracy <= 100 and row.turns and row.method == review.VERSION
    assert sum(row.marks.values()) == sum(1 for t in row.turns if t["mark"])
    # the stored seed reproduces the review
    again = review.review_seat(rnd.initial_position, [m["action"] for m in stored_moves(rnd)], 0, row.seed)
    assert again["turns"] == row.turns and again["accuracy"] == row.accuracy

    assert tasks.review_round(rnd.pk) == 0  # idempotent: the seat is reviewed already
    assert RoundReview.objects.count() == 1


def test_a_round_not_over_or_gone_is_not_reviewed(alice):
    table = solo(alice)
    play_out(table, until=lambda g: g.version > 5)
    rnd = Round.objects.get(match__table=table, index=0)
    assert reviews.store_round_reviews(rnd.pk) == 0
    assert reviews.store_round_reviews(10**9) == 0
    assert not RoundReview.objects.exists()


def test_the_sweeper_reviews_a_round_whose_task_was_lost(alice):
    table = solo(alice)
    play_out(table)
    rnd = Round.objects.get(match__table=table, index=0)
    assert reviews.missing_round_ids() == []  # just finished: its own task is on the way
    later = timezone.now() + reviews.SWEEP_GRACE + timedelta(seconds=1)
    assert reviews.missing_round_ids(later) == [rnd.pk]
    reviews._next_look[0] = 0.0
    assert reviews.review_lost_when_due(now=later) == 1
    assert reviews.review_lost_when_due(now=later) == 0  # not due again before SWEEP_EVERY
    assert reviews.missing_round_ids(later) == []
    assert "reviews" in tasks.sweep()


def test_a_review_is_its_owners_unless_they_make_their_marks_public(alice, bob):
    table = solo(alice)
    play_out(table)
    rnd = Round.objects.get(match__table=table, index=0)
    reviews.store_round_reviews(rnd.pk)
    assert list(reviews.visible_reviews(rnd, alice)) == [0]
    assert reviews.visible_reviews(rnd, bob) == {}
    assert reviews.visible_accuracy(rnd.match, bob) == {}
    settings_row = PlayerSettings.for_user(alice)
    settings_row.public_review_marks = True
    settings_row.save()
    assert list(reviews.visible_reviews(rnd, bob)) == [0]
    assert reviews.visible_accuracy(rnd.match, bob) == {0: {0: RoundReview.objects.get().accuracy}}
    assert [t["accuracy"] for t in reviews.accuracy_trend(alice)] == [RoundReview.objects.get().accuracy]
