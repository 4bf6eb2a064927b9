"""Each player's running figures per ruleset (`leaderboards.models.PlayerSummary`): the
profile's "Matches" table, read as one row per ruleset instead of recomputed from every
match, round and seat of the player on every view.

What a match adds for each human seat (the same figures the profile always showed):
one match; a win when the seat won (`games.results`: a player who left never wins); per
finished round with totals, one round and the seat's round total; the in-round penalties
the seat took (points); one opening per finished round in which the seat had opened.

Written on two paths only, both in the transaction that changes what counts:
- `add_match(match)`: `leaderboards.recording.record_result`, when it first marks a
  finished match recorded (so the commit path and the sweeper never count a match twice);
- `remove_match(match)`: `leaderboards.recording.void_match`, when a recorded match is
  voided.
`rebuild(...)` recomputes every summary from the stored matches (the data migration that
created them, or a repair after a manual change to old matches).
"""
from django.db import connection
from django.db.models import F
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Greatest

from games import results

FIELDS = ("matches", "wins", "rounds", "round_sum", "openings", "penalties")
SIGNED = ("round_sum", "penalties")  # figures that are sums of points, not counts
REBUILD_BATCH = 2000  # matches `rebuild` reads at a time (with their seats and rounds)


def contributions(match, seats, rounds):
    """What one finished match adds to each of its players' figures.

    Args: `match` — a Match with its table (`ruleset`, `options`) and `totals`; `seats` —
    its Seats in seat order (`index`, `user_id`, `left`, `absent`, `away_turns`);
    `rounds` — (totals, penalties, final seats) of each of its finished rounds, the lists
    per seat as stored (`Round.totals`, `Round.penalties`, `final_position["seats"]`).
    Returns {user id: {field of `FIELDS`: int}} for the human seats; reads nothing.
    """
    outcome = results.result_of(match, seats)
    rounds = list(rounds)
    per = {}
    for seat in seats:
        if not seat.user_id:
            continue
        index = seat.index
        row = per.setdefault(seat.user_id, dict.fromkeys(FIELDS, 0))
        row["matches"] += 1
        row["wins"] += 1 if outcome.won(index) else 0
        for totals, penalties, final_seats in rounds:
            if totals and index < len(totals):
                row["rounds"] += 1
                row["round_sum"] += totals[index]
            if penalties and index < len(penalties):
                row["penalties"] += penalties[index]
            final_seats = final_seats or []
            if index < len(final_seats) and (final_seats[index] or {}).get("opened", "no") != "no":
                row["openings"] += 1
    return per


def _rounds_of(round_model, match_ids):
    """(match id, totals, penalties, final seats) of the finished rounds of `match_ids`.
    Of each final position only its seats (who opened): a sixth of the JSON to read."""
    return (round_model.objects.filter(match_id__in=match_ids, finished__isnull=False)
            .annotate(final_seats=KeyTransform("seats", "final_position"))
            .values_list("match_id", "totals", "penalties", "final_seats"))


def _match_parts(match_id):
    from games.models import Match, Round, Seat

    match = Match.objects.select_related("table").get(pk=match_id)
    seats = list(Seat.objects.filter(table_id=match.table_id).order_by("index"))
    rounds = [row[1:] for row in _rounds_of(Round, [match.pk])]
    return match, contributions(match, seats, rounds)


def _upsert(ruleset, per):
    """Add `per` ({user id: {field: int}}) to the summaries of `ruleset` in one statement,
    creating the missing rows (PostgreSQL and SQLite both have ON CONFLICT … DO UPDATE)."""
    from leaderboards.models import PlayerSummary

    if not per:
        return
    table = connection.ops.quote_name(PlayerSummary._meta.db_table)
    columns = ", ".join(FIELDS)
    values = ", ".join(["(%s, %s, " + ", ".join(["%s"] * len(FIELDS)) + ")"] * len(per))
    params = []
    for user_id, row in sorted(per.items()):
        params.extend([user_id, ruleset, *(row[field] for field in FIELDS)])
    increments = ", ".join(f"{field} = {table}.{field} + excluded.{field}" for field in FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} (user_id, ruleset, {columns}) VALUES {values} "
                       f"ON CONFLICT (user_id, ruleset) DO UPDATE SET {increments}", params)


def add_match(match):
    """Add the finished `match` (a Match or its id) to its players' summaries. The caller
    (`record_result`) calls it once per match, inside the transaction that marks it
    recorded, and only for a match that is not voided. Returns the {user id: figures}
    added."""
    match, per = _match_parts(getattr(match, "pk", match))
    _upsert(match.table.ruleset, per)
    return per


def remove_match(match):
    """Take the recorded `match` (a Match or its id) out of its players' summaries (it was
    voided). A count never goes below zero (the round totals may: okey's are negative).
    Returns the {user id: figures} removed."""
    from leaderboards.models import PlayerSummary

    match, per = _match_parts(getattr(match, "pk", match))
    for user_id, row in per.items():
        PlayerSummary.objects.filter(user_id=user_id, ruleset=match.table.ruleset).update(
            **{field: F(field) - row[field] if field in SIGNED else Greatest(F(field) - row[field], 0)
               for field in FIELDS})
    return per


def rebuild(match_model, seat_model, round_model, summary_model, batch=REBUILD_BATCH):
    """Recompute every PlayerSummary from the stored matches that count: finished,
    recorded and not voided. The models are passed in so the data migration can give its
    historical ones. Matches are read `batch` at a time by id with their seats and rounds
    in one query each; the figures are summed in memory and written at the end, a few
    thousand rows per insert. Returns the number of matches counted."""
    totals = {}
    counted = 0
    last = 0
    matches = (match_model.objects.select_related("table")
               .filter(finished__isnull=False, recorded__isnull=False, void__isnull=True)
               .only("id", "table_id", "totals", "table__id", "table__ruleset", "table__options")
               .order_by("pk"))
    while True:
        page = list(matches.filter(pk__gt=last)[:batch])
        if not page:
            break
        last = page[-1].pk
        seats = {}
        for seat in (seat_model.objects.filter(table_id__in=[m.table_id for m in page]).order_by("table_id", "index")
                     .only("id", "table_id", "index", "user_id", "left", "absent", "away_turns")):
            seats.setdefault(seat.table_id, []).append(seat)
        rounds = {}
        for match_id, *row in _rounds_of(round_model, [m.pk for m in page]):
            rounds.setdefault(match_id, []).append(row)
        for match in page:
            per = contributions(match, seats.get(match.table_id, []), rounds.get(match.pk, []))
            for user_id, row in per.items():
                into = totals.setdefault((user_id, match.table.ruleset), dict.fromkeys(FIELDS, 0))
                for field in FIELDS:
                    into[field] += row[field]
            counted += 1
    summary_model.objects.all().delete()
    summary_model.objects.bulk_create(
        [summary_model(user_id=user_id, ruleset=ruleset, **row) for (user_id, ruleset), row in totals.items()],
        batch_size=5000)
    return counted
