"""The staff dashboard (`/admin/operations/`): live tables, players online and the slowest
recent timers, read from what every process shares (see `metrics`)."""
from datetime import UTC, datetime, timedelta

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import Count
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from okeysite.operations import lateness
from okeysite.operations.metrics import WINDOW, queue_length

SLOWEST = 10
SHOWN_TABLES = 50


@staff_member_required
def dashboard(request):
    """Render templates/admin/operations.html: the counts of `metrics.SiteCollector`, the
    SHOWN_TABLES most recent live tables with their humans online, and the SLOWEST
    recent timers (lateness in seconds, table id)."""
    from games.models import Connection, Game, Move, Table

    now = timezone.now()
    live = Connection.objects.filter(expires__gt=now)
    online = (live.exclude(user=None).values_list("user__username", flat=True).distinct().order_by("user__username"))
    tables = list(Table.objects.filter(status=Table.Status.PLAYING).order_by("-pk")[:SHOWN_TABLES]
                  .values("pk", "ruleset", "mode", "players", "private", "spectators"))
    sockets = dict(live.filter(table_id__in=[t["pk"] for t in tables]).values_list("table_id")
                   .order_by().annotate(n=Count("id")))
    for t in tables:
        t["sockets"] = sockets.get(t["pk"], 0)
    samples = sorted(lateness.recent(), key=lambda s: -s[0])[:SLOWEST]
    games = dict(Game.objects.filter(pk__in=[s[1] for s in samples]).values_list("pk", "table_id"))
    slowest = [{"lateness": s[0], "table": games.get(s[1]), "task": s[2].rsplit(".", 1)[-1],
                "at": datetime.fromtimestamp(s[3], UTC)} for s in samples]
    context = {
        **admin.site.each_context(request),
        "title": _("Operations"),
        "live_tables": Table.objects.filter(status=Table.Status.PLAYING).count(),
        "sockets": live.count(),
        "online": list(online[:200]),
        "online_count": online.count(),
        "versions_per_second": Move.objects.filter(created__gte=now - timedelta(seconds=WINDOW)).count() / WINDOW,
        "queue_length": queue_length(),
        "tables": tables,
        "slowest": slowest,
    }
    return render(request, "admin/operations.html", context)

