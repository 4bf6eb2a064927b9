"""A player's figures for the profile page, read from the stored matches (read-only).

Per ruleset: matches played, wins, rounds, average round total (okey: points against,
lower is better; rami: score), openings (rounds in which the player opened) and
in-round penalties taken (points). Voided matches do not count.
"""
from django.db.models.fields.json import KeyTransform

from games.models import Match, Round, Seat
from games.results import result_of
from leaderboards.models import RatingChange

MAX_MATCHES = 300  # the most recent matches the figures are computed over


def player_stats(user, recent=10):
    """Figures of `user` over their last `MAX_MATCHES` finished matches, the voided ones left out.

    Returns {"rulesets": {ruleset: {"matches", "wins", "rounds", "average_round" (float
    points or None), "openings", "penalties" (points)}}, "recent": [{"match", "table",
    "ruleset", "mode", "finished", "seat", "total", "place" (1 = best, `games.results`:
    a player who left is last), "won" (★), "left" (the player left the match), "delta"
    (rating points or None)}, ...] newest first, at most `recent`}.
    """
    # The user's seats newest table first (the (user, table) index), stopping at the
    # window: a table's id grows with its creation and its match ends after, so these are
    # their latest finished matches, and a player with twenty thousand costs what one
    # with three hundred does. Voided matches leave the window afterwards (a LEFT
    # JOIN's "no void" here was guessed to keep one row, and PostgreSQL scanned every
    # seat of the player in parallel instead).
    seats = dict(Seat.objects.filter(user=user, table__match__finished__isnull=False)
                 .order_by("-table_id").values_list("table_id", "index")[:MAX_MATCHES])
    matches = list(Match.objects.select_related("table").filter(table_id__in=seats.keys(), void__isnull=True)
                   .only("id", "table_id", "totals", "finished", "table__id", "table__ruleset", "table__mode",
                         "table__options")
                   .order_by("-finished", "-pk"))
    # Wins and places by the one definition of a result (`games.results`): a player who
    # left is last and never wins, whatever their total.
    table_seats = {}
    for row in (Seat.objects.filter(table_id__in=[m.table_id for m in matches]).order_by("table_id", "index")
                .only("id", "table_id", "index", "user_id", "left", "absent", "away_turns")):
        table_seats.setdefault(row.table_id, []).append(row)
    outcome = {m.pk: result_of(m, table_seats.get(m.table_id, [])) for m in matches}
    per = {}
    for match in matches:
        seat = seats[match.table_id]
        row = per.setdefault(match.table.ruleset, {"matches": 0, "wins": 0, "rounds": 0, "round_sum": 0,
                                                   "openings": 0, "penalties": 0})
        row["matches"] += 1
        row["wins"] += 1 if outcome[match.pk].won(seat) else 0
    by_id = {m.pk: m for m in matches}
    # Of each final position only its seats (who opened), not the table and the pile:
    # a sixth of the JSON to send and decode.
    rounds = (Round.objects.filter(match_id__in=by_id.keys(), finished__isnull=False)
              .annotate(final_seats=KeyTransform("seats", "final_position"))
              .values_list("match_id", "totals", "penalties", "final_seats"))
    for match_id, totals, penalties, final_seats in rounds:
        match = by_id[match_id]
        seat = seats[match.table_id]
        row = per[match.table.ruleset]
        if totals:
            row["rounds"] += 1
            row["round_sum"] += totals[seat]
        if penalties:
            row["penalties"] += penalties[seat]
        final_seats = final_seats or []
        if seat < len(final_seats) and final_seats[seat].get("opened", "no") != "no":
            row["openings"] += 1
    for row in per.values():
        row["average_round"] = round(row["round_sum"] / row["rounds"], 1) if row["rounds"] else None
        del row["round_sum"]
    deltas = {c.match_id: c.delta for c in RatingChange.objects.filter(user=user, match_id__in=by_id.keys())}
    latest = []
    for match in matches[:recent]:
        seat = seats[match.table_id]
        latest.append({
            "match": match, "table": match.table, "ruleset": match.table.ruleset, "mode": match.table.mode,
            "finished": match.finished, "seat": seat, "total": match.totals[seat] if match.totals else None,
            "place": outcome[match.pk].place_of(seat) if match.totals else None,
            "won": outcome[match.pk].won(seat), "left": seat in outcome[match.pk].left,
            "delta": deltas.get(match.pk),
        })
    return {"rulesets": dict(sorted(per.items())), "recent": latest}


CHART_CHANGES = 200  # the latest rating changes the chart draws (640 px wide)


def rating_series(user, window=CHART_CHANGES):
    """{ruleset: [(datetime, shown rating)]} for the chart over the user's latest `window`
    rated matches (all rulesets together): per ruleset the rating before the first of
    them, then after each one, oldest first. Bounded, so the chart of a player with ten
    thousand rated matches reads and draws what one with `window` does."""
    latest = list(RatingChange.objects.filter(user=user).order_by("-played", "-match_id")[:window])
    series = {}
    for change in reversed(latest):
        points = series.setdefault(change.ruleset, [])
        if not points:
            points.append((change.played, change.before))
        points.append((change.played, change.after))
    return series


def accuracy_summary(user, limit=50):
    """A player's review accuracy (docs/review.md) over their last `limit` reviewed rounds:
    {"series": {ruleset: [(finished datetime, accuracy)]} oldest first (for `rating_svg`),
    "rulesets": [{"ruleset", "accuracy" (mean, one decimal), "rounds", "levels"
    [{level, accuracy, low, high}] (the computer levels measured, strongest first)}]}."""
    from games.models import RoundReview
    from games.review.levels import LEVEL_ACCURACY

    rows = list(RoundReview.objects.filter(user=user, accuracy__isnull=False, round__finished__isnull=False)
                .order_by("-round__finished").values_list("ruleset", "accuracy", "round__finished")[:limit])
    series = {}
    for ruleset, accuracy, finished in reversed(rows):
        series.setdefault(ruleset, []).append((finished, accuracy))
    rulesets = [{"ruleset": ruleset, "accuracy": round(sum(a for _f, a in points) / len(points), 1),
                 "rounds": len(points),
                 "levels": [{"level": level, **figures} for level, figures in LEVEL_ACCURACY.get(ruleset, {}).items()]}
                for ruleset, points in sorted(series.items())]
    return {"series": series, "rulesets": rulesets}
