"""The arena pages: the list of arenas (to come, running, over), one arena's page with its
rules and live standings, its JSON standings (which the page asks for every few seconds,
marking its player present), and join / withdraw / pause."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.player_settings import display_name
from games.arena import live, service
from games.arena.models import Arena, ArenaEntry, ArenaTable
from games.arena.standings import ranked
from games.models import Seat


def upcoming(limit=6, now=None):
    """The arenas to come or running now, soonest first (list of Arena, at most `limit`)."""
    now = now or timezone.now()
    soon = Arena.objects.filter(starts__gt=now - timezone.timedelta(hours=3)).order_by("starts")[:50]
    return [a for a in soon if a.state(now) != "over"][:limit]






def _arena(arena_id):
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        raise Http404
    return arena


@require_GET
def arena_list(request):
    """Every arena of the last day and the next ones."""
    now = timezone.now()
    arenas = list(Arena.objects.filter(starts__gt=now - timezone.timedelta(days=1)).order_by("starts")[:60])
    return render(request, "games/arena_list.html", {
        "coming": [a for a in arenas if a.state(now) != "over"],
        "over": [a for a in reversed(arenas) if a.state(now) == "over"][:20],
    })


def arena_tables(arena):
    """The arena's tables, newest first: [{id, status ("playing", "finished", ...), players
    (display names of the humans)}]."""
    links = list(ArenaTable.objects.filter(arena=arena).select_related("table").order_by("-pk"))
    names = {}
    for seat in (Seat.objects.filter(table_id__in=[link.table_id for link in links], user__isnull=False)
                 .select_related("user", "user__player_settings").order_by("index")):
        names.setdefault(seat.table_id, []).append(display_name(seat.user))
    return [{"id": link.table_id, "status": link.table.status, "players": names.get(link.table_id, [])}
            for link in links]


@require_GET
def arena_page(request, arena_id):
    """One arena: its settings, rules, standings and the player's buttons."""
    arena = _arena(arena_id)
    entry = None
    if request.user.is_authenticated:
        entry = ArenaEntry.objects.filter(arena=arena, user=request.user).first()
    rows = ranked(arena)
    state = arena.state()
    return render(request, "games/arena.html", {
        "arena": arena, "entry": entry, "state": state, "standings": rows,
        "podium": [r for r in rows if r["matches"]][:3] if arena.finished else [],
        "tables": arena_tables(arena), "last_pairing": service.last_pairing(arena),
    })


@require_GET
def arena_standings(request, arena_id):
    """JSON {state, starts, ends (epoch ms), standings, table (the id of the player's
    arena table now, or null), entry {paused, withdrawn} or null}; marks the asking
    player present."""
    arena = _arena(arena_id)
    table = entry = None
    if request.user.is_authenticated:
        service.seen(request.user, arena.pk)
        table = service.current_table(request.user, arena.pk)
        found = ArenaEntry.objects.filter(arena=arena, user=request.user).first()
        if found is not None:
            entry = {"paused": found.paused, "withdrawn": found.withdrawn}
    return JsonResponse({"state": arena.state(), "starts": int(arena.starts.timestamp() * 1000),
                         "ends": int(arena.ends.timestamp() * 1000), "standings": ranked(arena),
                         "table": table, "table_url": reverse("table", args=[table]) if table else None,
                         "entry": entry})


@login_required
@require_POST
def arena_action(request, arena_id, action):
    """join / withdraw / pause / resume, then back to the arena page."""
    arena = _arena(arena_id)
    try:
        if action == "join":
            service.join(request.user, arena.pk)
        elif action == "withdraw":
            service.withdraw(request.user, arena.pk)
        elif action in ("pause", "resume"):
            service.pause(request.user, arena.pk, paused=action == "pause")
        else:
            raise Http404
        live.announce(arena.pk)
    except service.ArenaError as refused:
        messages.error(request, refused.message)
    return redirect("arena", arena_id=arena.pk)
