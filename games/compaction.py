"""Old matches stay cheap: a finished match older than `OKEY_COMPACT_AFTER_DAYS` keeps its
game record and loses its move rows.

A round's moves are about 100 rows and most of a match's 40 KB. Once a match is old, its
move rows serve only its record, its replays and its exports, and those read the round's
move entries (`games.records.stored_moves`). So each round of such a match stores those
entries once, in `Round.archived_moves` (the same JSON the record writes, penalties
included), and its Move rows are deleted; every page, replay, export and `verify_round`
reads the entries and gives the same bytes as before. Ratings and solo records were
written when the match finished and recorded; only those matches are compacted, and a
recompute reads the archived entries (`leaderboards.recording.solo_total`).
"""
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import records
from games.models import Match, Move, Round

BATCH = 50  # matches one run compacts at most: a run holds no lock for long


def due(now=None):
    """The matches old enough to compact and not compacted yet: finished more than
    `OKEY_COMPACT_AFTER_DAYS` days before `now` (aware datetime, default now), recorded
    (ratings and solo records written), with a round whose moves are still rows. A
    QuerySet of Match, oldest first; empty when the setting is 0 (compaction off)."""
    days = settings.OKEY_COMPACT_AFTER_DAYS
    if days <= 0:
        return Match.objects.none()
    cutoff = (now or timezone.now()) - timedelta(days=days)
    # one filter() call: the same round is over and still has its rows
    return (Match.objects.filter(finished__lt=cutoff, recorded__isnull=False, rounds__finished__isnull=False,
                                 rounds__archived_moves__isnull=True)
            .distinct().order_by("finished"))


def compact_round(round_id):
    """Fold the move rows of finished round `round_id` into its `archived_moves` and delete
    them, in one transaction under the round's row lock (a second run finds it done).
    Returns the number of move rows deleted, or None when there was nothing to do (the
    round is not over, or already compacted)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().filter(pk=round_id).first()
        if rnd is None or not rnd.is_over or rnd.archived_moves is not None:
            return None
        rnd.archived_moves = records.stored_moves(rnd)
        rnd.save(update_fields=["archived_moves"])
        deleted, _ = Move.objects.filter(round=rnd).delete()
        return deleted


def compact_old_matches(now=None, batch=BATCH):
    """Compact up to `batch` due matches (`due`), oldest first. Returns {"matches", "rounds",
    "moves"}: how many matches were done and rounds and move rows folded (periodic, Celery
    beat `games.tasks.compact_matches`)."""
    done = {"matches": 0, "rounds": 0, "moves": 0}
    for match_id in list(due(now).values_list("pk", flat=True)[:batch]):
        done["matches"] += 1
        rounds = Round.objects.filter(match_id=match_id, archived_moves__isnull=True)
        for round_id in rounds.values_list("pk", flat=True):
            moved = compact_round(round_id)
            if moved is not None:
                done["rounds"] += 1
                done["moves"] += moved
    return done
