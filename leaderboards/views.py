"""Public leaderboard and solo-record pages (function views, read-only)."""
from datetime import timedelta

from django.db.models import Q
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
        active = RatingChange.objects.filter(ruleset=ruleset, played__gte=since).values("user_id")
        ratings_qs = ratings_qs.filter(user_id__in=active)
    order = ("-ordinal", "user_id")
    established = ratings_qs.filter(matches__gte=ratings.PROVISIONAL_MATCHES)
    provisional = ratings_qs.filter(matches__lt=ratings.PROVISIONAL_MATCHES).order_by(*order)[:50]
    keep = f"period={period}&" if period != "all" else ""
    page = ranking_page(established, order, request.GET, "user", "user__player_settings", keep=keep)
    rows = page.rows
    gains = {}
    if since is not None:
        users = [r.user_id for r in rows] + [r.user_id for r in provisional]
        for change in RatingChange.objects.filter(ruleset=ruleset, played__gte=since, user_id__in=users):
            gains[change.user_id] = gains.get(change.user_id, 0) + change.delta
    for row in rows:
        row.gain = gains.get(row.user_id)
    provisional = list(provisional)
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
