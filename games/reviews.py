"""Stored round reviews: written once per finished round and human seat, read back for
their owner (docs/review.md).

`store_round_reviews` is what the `review_round` Celery task runs after a round commits
(and what the sweeper sends again for a round left without its reviews); it reviews each
human seat with `games.review` and stores one `RoundReview` row each, idempotently (a row
that exists is kept, two workers racing keep one). The reads apply the privacy rule: a
review is shown to the seat's own player, and to everyone only when that player's settings
make their marks public.
"""
import logging
import secrets
import time
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import review
from games.models import Round, RoundReview, Seat
from games.records import stored_moves

log = logging.getLogger("games.reviews")

TREND_ROUNDS = 50
"""Rounds in a player's accuracy trend (profile)."""
SWEEP_WINDOW = timedelta(days=1)
"""How far back the sweeper looks for finished rounds still without their reviews."""
SWEEP_GRACE = timedelta(minutes=2)
"""A round finished less long ago still has its own review task on the way."""
SWEEP_EVERY = 300.0
"""Seconds between two looks for lost reviews (the sweep itself runs every couple of seconds)."""
SWEEP_ROUNDS = 3
"""Rounds reviewed per look: a review costs up to about a second of CPU, and the sweep
also re-arms the tables' timers."""
_next_look = [0.0]


def human_seats(rnd):
    """{seat index: user id} of the seats of `rnd`'s table a person holds (computers have no user)."""
    return dict(Seat.objects.filter(table_id=rnd.match.table_id, user__isnull=False).values_list("index", "user_id"))


def store_round_reviews(round_id):
    """Review every human seat of finished round `round_id` not reviewed yet and store it.

    Args: `round_id` (int). Returns the number of reviews written (0 for a round that is
    not over, not of a reviewed ruleset, or already reviewed). Never raises for a round
    that is gone (returns 0); a seat whose review fails gets an empty one (no accuracy, no
    turns), logged, so the sweeper does not try it again and again."""
    rnd = Round.objects.select_related("match__table").filter(pk=round_id).first()
    if rnd is None or not rnd.is_over or rnd.initial_position is None:
        return 0
    ruleset = rnd.match.table.ruleset
    if not review.reviewable(ruleset):
        return 0
    done = set(RoundReview.objects.filter(round=rnd).values_list("seat", flat=True))
    todo = {seat: user for seat, user in human_seats(rnd).items() if seat not in done}
    if not todo:
        return 0
    actions = [move["action"] for move in stored_moves(rnd)]
    seed = secrets.token_hex(8)
    written = 0
    for seat, user_id in sorted(todo.items()):
        try:
            judged = review.review_seat(rnd.initial_position, actions, seat, seed)
        except Exception:  # noqa: BLE001 - a review that fails is stored empty, not retried by every sweep
            log.exception("the review of seat %s in round %s failed", seat, rnd.pk)
            judged = {"version": review.VERSION, "accuracy": None, "cost": 0, "marks": {}, "turns": []}
        row = RoundReview(round=rnd, seat=seat, user_id=user_id, ruleset=ruleset, method=judged["version"],
                          seed=seed, accuracy=judged["accuracy"], cost=judged["cost"], marks=judged["marks"],
                          turns=judged["turns"])
        try:
            with transaction.atomic():
                row.save()
            written += 1
        except IntegrityError:  # another worker stored this seat's review meanwhile
            continue
    return written


def missing_round_ids(now=None, limit=SWEEP_ROUNDS):
    """Ids of rounds finished within `SWEEP_WINDOW` of `now` (aware datetime, default now)
    but at least `SWEEP_GRACE` ago, whose table has a human seat and that have no review
    yet, oldest first, at most `limit`."""
    now = now or timezone.now()
    return list(Round.objects.filter(finished__gte=now - SWEEP_WINDOW, finished__lte=now - SWEEP_GRACE,
                                     reviews__isnull=True,
                                     match__table__ruleset__in=review.RULESETS,
                                     match__table__seats__user__isnull=False)
                .order_by("finished").values_list("pk", flat=True).distinct()[:limit])


def review_lost_when_due(every=SWEEP_EVERY, now=None):
    """Review the rounds whose review task was lost (`missing_round_ids`: a worker that died,
    the embedded broker's tasks gone with its process), at most once per `every` seconds in
    this process, since the sweep calls it every couple of seconds. Returns the number of
    reviews written (0 when not due)."""
    moment = time.monotonic()
    if moment < _next_look[0]:
        return 0
    _next_look[0] = moment + every
    return sum(store_round_reviews(pk) for pk in missing_round_ids(now))


def may_see(row, viewer):
    """True when `viewer` (a user or AnonymousUser) may see review `row`: it is theirs, or
    its owner made their marks public (`PlayerSettings.public_review_marks`)."""
    if row.user_id is None:
        return False
    if viewer is not None and viewer.is_authenticated and viewer.pk == row.user_id:
        return True
    settings_row = getattr(row.user, "player_settings", None) if row.user_id else None
    return bool(settings_row and settings_row.public_review_marks)


def visible_reviews(rnd, viewer):
    """{seat: RoundReview} of round `rnd` that `viewer` may see (`may_see`)."""
    rows = RoundReview.objects.filter(round=rnd).select_related("user__player_settings")
    return {row.seat: row for row in rows if may_see(row, viewer)}


def visible_accuracy(match, viewer):
    """{round index: {seat: accuracy}} of the reviews of `match` `viewer` may see."""
    rows = (RoundReview.objects.filter(round__match=match).select_related("user__player_settings", "round"))
    out = {}
    for row in rows:
        if may_see(row, viewer):
            out.setdefault(row.round.index, {})[row.seat] = row.accuracy
    return out


def accuracy_trend(user, limit=TREND_ROUNDS):
    """The accuracy of `user`'s last `limit` reviewed rounds, oldest first:
    [{"ruleset", "accuracy" (0-100), "table_id", "round" (number from 1), "finished"}]."""
    rows = (RoundReview.objects.filter(user=user, accuracy__isnull=False).select_related("round__match")
            .order_by("-round__finished")[:limit])
    return [{"ruleset": r.ruleset, "accuracy": r.accuracy, "table_id": r.round.match.table_id,
             "round": r.round.number, "finished": r.round.finished} for r in reversed(rows)]
