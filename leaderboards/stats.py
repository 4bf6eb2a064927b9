"""A player's figures for the profile page (read-only).

Per ruleset, from the stored summaries (`leaderboards.summaries`): matches played, wins,
rounds, average round total (okey: points against, lower is better; rami: score),
openings (rounds in which the player opened) and in-round penalties taken (points).
Voided matches do not count. Then the latest matches, read from the stored matches.
"""
from games.models import Match, Seat
from games.results import result_of
from leaderboards.models import PlayerSummary, RatingChange


def player_stats(user, recent=10):
    """Figures of `user` over every recorded match they played, the voided ones left out,
    and their latest matches.

    Returns {"rulesets": {ruleset: {"matches", "wins", "rounds", "average_round" (float
    points or None), "openings", "penalties" (points)}} from the stored summaries
    (`leaderboards.summaries`: one row per ruleset, whatever the number of matches),
    "recent": [{"match", "table", "ruleset", "mode", "finished", "seat", "total", "place"
    (1 = best, `games.results`: a player who left is last), "won" (★), "left" (the player
    left the match), "delta" (rating points or None)}, ...] newest first, at most `recent`}.
    """
    per = {row.ruleset: {"matches": row.matches, "wins": row.wins, "rounds": row.rounds,
                         "average_round": row.average_round, "openings": row.openings, "penalties": row.penalties}
           for row in PlayerSummary.objects.filter(user=user, matches__gt=0).order_by("ruleset")}
    return {"rulesets": per, "recent": recent_matches(user, recent)}


def recent_matches(user, count=10):
    """The `count` latest finished, not voided matches of `user` as `player_stats`'s
    "recent" rows (list, newest first)."""
    # The user's seats newest table first (the (user, table) index), stopping at a small
    # window: a table's id grows with its creation and its match ends after, so these are
    # their latest finished matches, and a player with twenty thousand costs what one
    # with ten does. Voided matches leave the window afterwards (a LEFT JOIN's "no void"
    # here was guessed to keep one row, and PostgreSQL scanned every seat of the player);
    # the window has room for a few.
    seats = dict(Seat.objects.filter(user=user, table__match__finished__isnull=False)
                 .order_by("-table_id").values_list("table_id", "index")[:count + RECENT_SPARE])
    matches = list(Match.objects.select_related("table").filter(table_id__in=seats.keys(), void__isnull=True)
                   .only("id", "table_id", "totals", "finished", "table__id", "table__ruleset", "table__mode",
                         "table__options")
                   .order_by("-finished", "-pk")[:count])
    # Places and wins by the one definition of a result (`games.results`): a player who
    # left is last and never wins, whatever their total.
    table_seats = {}
    for row in (Seat.objects.filter(table_id__in=[m.table_id for m in matches]).order_by("table_id", "index")
                .only("id", "table_id", "index", "user_id", "left", "absent", "away_turns")):
        table_seats.setdefault(row.table_id, []).append(row)
    deltas = {c.match_id: c.delta for c in RatingChange.objects.filter(user=user, match_id__in=[m.pk for m in matches])}
    latest = []
    for match in matches:
        seat = seats[match.table_id]
        outcome = result_of(match, table_seats.get(match.table_id, []))
        latest.append({
            "match": match, "table": match.table, "ruleset": match.table.ruleset, "mode": match.table.mode,
            "finished": match.finished, "seat": seat, "total": match.totals[seat] if match.totals else None,
            "place": outcome.place_of(seat) if match.totals else None,
            "won": outcome.won(seat), "left": seat in outcome.left,
            "delta": deltas.get(match.pk),
        })
    return latest


RECENT_SPARE = 5  # seats read beyond the recent matches shown, for voided ones to drop


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
