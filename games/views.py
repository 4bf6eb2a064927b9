"""Lobby, table and match pages (function views). State changes go through `games.play`."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts.player_settings import PlayerSettings
from games.engine import api
from games.errors import TableError, error_message
from games.forms import CreateTableForm
from games.models import Match, Move, Seat, Table
from games.move_text import describe_move, describe_penalty
from games.play import tables
from games.snapshot import open_tables, players_info


def lobby(request):
    """Home page: create-table form, open online tables (live via /ws/lobby/), my tables."""
    mine = []
    finished = []
    initial = {}
    if request.user.is_authenticated:
        initial = {key: value for key, value in PlayerSettings.for_user(request.user).table_defaults.items()
                   if key in CreateTableForm.base_fields}
        active = Q(status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        mine = Table.objects.filter(active, seats__user=request.user).distinct().order_by("-created")[:20]
        finished = (Table.objects.filter(status=Table.Status.FINISHED, seats__user=request.user)
                    .distinct().order_by("-created")[:10])
    return render(request, "games/lobby.html", {
        "form": CreateTableForm(initial=initial),
        "open_tables": open_tables(),
        "my_tables": mine,
        "finished_tables": finished,
        # strings for the lobby's inline script (the JS catalog only holds djangojs strings)
        "lobby_i18n": {"join": gettext("Join"), "empty": gettext("No open table right now. Create one!"),
                       "teams": gettext("teams")},
    })


@login_required
@require_POST
def create_table(request):
    """POST the lobby form: create the table (solo starts at once) and open its page."""
    form = CreateTableForm(request.POST)
    if not form.is_valid():
        messages.error(request, error_message("bad_options"))
        return redirect("lobby")
    data = form.cleaned_data
    try:
        table = tables.create_table(
            request.user, ruleset=data["ruleset"], options=form.options(), mode=data["mode"],
            move_time=data["move_time"], assisted=data["assisted"], bot_level=data["bot_level"],
        )
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


def _table_config(request, table, seat_index):
    return {
        "table_id": table.pk,
        "ws_path": f"/ws/table/{table.pk}/",
        "seat": seat_index,
        "ruleset": table.ruleset,
        "options": table.options,
        "mode": table.mode,
        "status": table.status,
        "assisted": table.assisted,
        "move_time": table.move_time,
        "players": table.players,
        "is_creator": table.creator_id == request.user.pk,
        "urls": {
            "lobby": reverse("lobby"),
            "join": reverse("table_join", args=[table.pk]),
            "leave": reverse("table_leave", args=[table.pk]),
            "start": reverse("table_start", args=[table.pk]),
            "match": reverse("match", args=[table.pk]),
            "jsi18n": reverse("javascript-catalog"),
        },
    }


@login_required
def table_page(request, table_id):
    """The live table (`templates/games/table.html`, written by the table client)."""
    table = get_object_or_404(Table, pk=table_id)
    seat = Seat.objects.filter(table=table, user=request.user).first()
    seat_index = seat.index if seat else None
    is_creator = table.creator_id == request.user.pk
    seats = list(Seat.objects.filter(table=table).select_related("user"))
    free = any(s.user_id is None and not s.bot_level for s in seats)
    context = {
        "table": table,
        "seat_index": seat_index,
        "ws_path": f"/ws/table/{table.pk}/",
        "is_creator": is_creator,
        "can_start": is_creator and table.status == Table.Status.OPEN,
        "can_join": (seat is None and free and table.status == Table.Status.OPEN
                     and table.mode == Table.Mode.ONLINE),
        "seats": seats,
        "table_config": _table_config(request, table, seat_index),
    }
    # The fallback page is only used until the table client's template exists.
    return render(request, ["games/table.html", "games/table_fallback.html"], context)


def _table_post(request, table_id, fn, success):
    try:
        fn(request.user, table_id)
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("lobby") if exc.code == "not_found" else redirect("table", table_id=table_id)
    return success()


@login_required
@require_POST
def table_join(request, table_id):
    """Take a free seat at an open online table (the one facing the creator first)."""
    return _table_post(request, table_id, tables.join_table, lambda: redirect("table", table_id=table_id))


@login_required
@require_POST
def table_leave(request, table_id):
    """Leave an open table (the creator leaving closes it)."""
    return _table_post(request, table_id, tables.leave_table, lambda: redirect("lobby"))


@login_required
@require_POST
def table_start(request, table_id):
    """The creator starts the match; free seats get computers."""
    return _table_post(request, table_id, tables.start_match, lambda: redirect("table", table_id=table_id))


def match_page(request, table_id):
    """A match's score tables (per round: scores, in-round penalties listed in words, totals;
    okey51 teams: team totals), the revealed seeds and commitments with how to check them
    (`manage.py verify_round`), and the move log as translated sentences. Seats are
    numbered from 1 everywhere."""
    table = get_object_or_404(Table, pk=table_id)
    match = get_object_or_404(Match, table=table)
    seats = list(Seat.objects.filter(table=table).select_related("user", "user__player_settings").order_by("index"))
    players = players_info(table, seats)
    names = [p["name"] or gettext("Seat %(n)s") % {"n": i + 1} for i, p in enumerate(players)]
    rounds = []
    for rnd in match.rounds.all():
        rows = []
        if rnd.is_over:
            events = rnd.penalty_events or []
            for i, player in enumerate(players):
                rows.append({"seat": i, "player": player, "score": rnd.scores[i] if rnd.scores else None,
                             "penalty": rnd.penalties[i] if rnd.penalties else None,
                             "total": rnd.totals[i] if rnd.totals else None,
                             "events": [describe_penalty(names, e) for e in events if e.get("seat") == i]})
        moves = [{"number": m.number, "seat": m.seat, "actor": m.get_actor_display(),
                  "text": describe_move(names[m.seat], m.action, m.result), "refused": m.result != "ok"}
                 for m in Move.objects.filter(round=rnd).order_by("number")]
        rounds.append({"round": rnd, "rows": rows, "moves": moves})
    standings = []
    if match.standings:
        standings = [{"rank": rank + 1, "seat": s, "player": players[s], "total": match.totals[s]}
                     for rank, s in enumerate(match.standings)]
    totals = [{"seat": i, "player": p, "total": match.totals[i]} for i, p in enumerate(players)]
    teams = api.ruleset(table.ruleset).team_totals(table.options, match.totals)
    team_rows = []
    if teams is not None:
        team_rows = sorted(
            ({"team": t, "members": [names[t], names[t + 2]], "total": teams[t]} for t in (0, 1)),
            key=lambda row: (row["total"], row["team"]))
    return render(request, "games/match.html", {
        "table": table, "match": match, "rounds": rounds, "standings": standings, "totals": totals,
        "team_rows": team_rows,
    })
