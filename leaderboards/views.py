"""Public leaderboard and solo-record pages (function views, read-only)."""
from datetime import timedelta

from django.db.models import F, FloatField, Func, Q, Sum, Value
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.guests import listed
from games.engine import api
from games.models import RULESET_CHOICES
from leaderboards import ratings
from leaderboards.models import Rating, RatingChange, SoloRecord
from leaderboards.pages import ranking_page

RULESETS = dict(RULESET_CHOICES)
PERIODS = {"all": _("all time"), "month": _("this month"), "week": _("this week")}


def period_start(period, now=None):
    """Start (aware datetime) of `period`: "month" = the 1st of this month 00:00 UTC, "week" =
    this Monday 00:00 UTC, "all" = None."""
    now = now or timezone.now()
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "month":
        return day.replace(day=1)
    if period == "week":
        return day - timedelta(days=day.weekday())
    return None


def _shown(mu, sigma):
    """`ratings.display` written in SQL: round(1000 + 40 × (mu − 3σ)) with the same float
    operations in the same order. The double is rounded as it is (PostgreSQL's `round` of
    a double rounds a half to even, as Python's does); Django's `Round` would cast it to
    a 15-digit numeric first, which rounds 1012.4999999999999 up."""
    shown = Value(1000.0) + Value(40.0) * (F(mu) - Value(3.0) * F(sigma))
    return Func(shown, function="ROUND", output_field=FloatField())


def period_gains(ruleset, since, users):
    """The change of the shown rating of each of `users` (ids) in `ruleset` over their
    rated matches ended at `since` or later: the sum of their `RatingChange.delta`s,
    added up by the database (a player can have a thousand changes in a month; only one
    row per player comes back). Returns {user id: int points}, without the users who
    have no change in the period."""
    found = (RatingChange.objects.filter(ruleset=ruleset, played__gte=since, user_id__in=users)
             .order_by().values("user_id")
             .annotate(gain=Sum(_shown("mu_after", "sigma_after") - _shown("mu_before", "sigma_before"))))
    return {row["user_id"]: int(row["gain"]) for row in found}


def _ruleset_or_404(ruleset):
    if ruleset not in RULESETS:
        raise Http404("unknown ruleset")
    return ruleset


def index(request):
    """`/rankings/`: the first ruleset's leaderboard."""
    return redirect("leaderboard", ruleset=RULESET_CHOICES[0][0])


def leaderboard(request, ruleset):
    """Rating leaderboard of `ruleset`: `?period=all|month|week` keeps the players who played a
    rated match in the period (with their rating change in it); pages by keyset
    (`leaderboards.pages`: `?at=`, `?before=`, `?last=1`). Established players
    are ranked; provisional ones (fewer than `ratings.PROVISIONAL_MATCHES`) are listed apart.
    The viewer's own row is highlighted and their rank shown above the table."""
    ruleset = _ruleset_or_404(ruleset)
    period = request.GET.get("period", "all")
    if period not in PERIODS:
        period = "all"
    since = period_start(period)
    # ranked by the stored `Rating.ordinal` (mu − 3σ) through its index
    ratings_qs = Rating.objects.filter(listed(), ruleset=ruleset).select_related("user", "user__player_settings")
    if since is not None:
        # "played a rated match in the period" is the rating's own latest match
        # (`Rating.last_played`, kept with the rating): the period's players are not read
        # from the rating changes of the period, which grow with every match played in it
        ratings_qs = ratings_qs.filter(last_played__gte=since)
    order = ("-ordinal", "user_id")
    established = ratings_qs.filter(matches__gte=ratings.PROVISIONAL_MATCHES)
    # the provisional list's 50 ids first, then those rows with their users: a period's
    # provisional players are sorted from the recent ones' index, and joining every one of
    # them to its user before the sort cost more than the sort
    picked = list(ratings_qs.filter(matches__lt=ratings.PROVISIONAL_MATCHES).select_related(None)
                  .order_by(*order).values_list("pk", flat=True)[:50])
    found = Rating.objects.select_related("user", "user__player_settings").in_bulk(picked)
    provisional = [found[pk] for pk in picked]
    keep = f"period={period}&" if period != "all" else ""
    page = ranking_page(established, order, request.GET, "user", "user__player_settings", keep=keep)
    rows = page.rows
    gains = {}
    if since is not None:
        users = [r.user_id for r in rows] + [r.user_id for r in provisional]
        gains = period_gains(ruleset, since, users)
    for row in rows:
        row.gain = gains.get(row.user_id)
    for row in provisional:
        row.gain = gains.get(row.user_id)
    mine = None
    if request.user.is_authenticated:
        own = ratings_qs.filter(user=request.user).first()
        if own is not None:
            if own.provisional:
                mine = {"rating": own, "rank": None, "page": None}
            else:
                # same order as the table: rating, then user id among equals
                ahead = established.filter(Q(ordinal__gt=own.ordinal)
                                           | Q(ordinal=own.ordinal, user_id__lt=own.user_id)).count()
                on_page = any(row.pk == own.pk for row in rows)
                mine = {"rating": own, "rank": ahead + 1, "link": "" if on_page else f"{keep}at={own.pk}"}
    return render(request, "leaderboards/leaderboard.html", {
        "ruleset": ruleset, "ruleset_name": RULESETS[ruleset], "rulesets": RULESETS, "period": period,
        "periods": PERIODS, "page": page, "rows": rows, "provisional": provisional, "mine": mine,
        "provisional_matches": ratings.PROVISIONAL_MATCHES,
    })


def solo_records(request, ruleset):
    """Public solo ranking of `ruleset`: each player's best completed solo match, only for
    players who chose to appear (their settings). The viewer's own record is always shown
    to them, marked private when hidden. Pages by keyset (`leaderboards.pages`)."""
    ruleset = _ruleset_or_404(ruleset)
    higher_wins = api.ruleset(ruleset).higher_wins
    order = "-total" if higher_wins else "total"
    # "chose to appear" is stored on the record (`leaderboards.solo_visibility`): the page
    # and the count of the ranks ahead of a late page read the public records' index alone
    records = SoloRecord.objects.filter(listed(), public=True, ruleset=ruleset)
    page = ranking_page(records, (order, "played", "pk"), request.GET, "user", "user__player_settings", "match")
    rows = page.rows
    mine = None
    if request.user.is_authenticated:
        mine = SoloRecord.objects.filter(ruleset=ruleset, user=request.user).select_related("match").first()
        if mine is not None:
            mine.public = records.filter(pk=mine.pk).exists()
    return render(request, "leaderboards/solo.html", {
        "ruleset": ruleset, "ruleset_name": RULESETS[ruleset], "rulesets": RULESETS, "page": page,
        "rows": rows, "mine": mine, "lower_is_better": not higher_wins,
    })
