"""Lobby, table, match and replay pages, the game record download (function views).
State changes go through `games.play`. What the match, replay and record show of a round
is what anyone may see once it is over: a running round shows its commitment only."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.player_settings import PlayerSettings
from games import records, replays
from games.engine import api, fairdeal
from games.errors import TableError, error_message
from games.forms import CreateTableForm
from games.models import Match, Seat, Table
from games.move_text import describe_penalty
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
            "record": reverse("match_record", args=[table.pk]),
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


def _match_rows(table_id):
    """(table, match, seats in seat order, players_info) of a table's match; 404 without one."""
    table = get_object_or_404(Table, pk=table_id)
    match = get_object_or_404(Match, table=table)
    seats = list(Seat.objects.filter(table=table).select_related("user", "user__player_settings").order_by("index"))
    return table, match, seats, players_info(table, seats)


def _names(players):
    return [p["name"] or gettext("Seat %(n)s") % {"n": i + 1} for i, p in enumerate(players)]


def match_page(request, table_id):
    """A match's score tables (per round: scores, in-round penalties listed in words, totals;
    okey51 teams: team totals) and, per finished round, its revealed seeds with a Verify
    button that re-deals it in the browser (`static/js/match.js`), its replay and its move
    log as translated sentences; a running round shows only its commitment. Seats are
    numbered from 1 everywhere."""
    table, match, seats, players = _match_rows(table_id)
    names = _names(players)
    header = records.header_of(match, seats)
    rounds, deals = [], []
    for rnd in match.rounds.order_by("index"):
        item = {"round": rnd, "rows": [], "moves": [], "seeds": []}
        if rnd.is_over:
            entry = records.stored_round(rnd)
            deals.append({key: entry[key] for key in ("number", "shuffle", "first", "commitment", "server_seed",
                                                      "client_seeds", "initial")})
            events = rnd.penalty_events or []
            for i, player in enumerate(players):
                item["rows"].append({"seat": i, "player": player, "score": rnd.scores[i] if rnd.scores else None,
                                     "penalty": rnd.penalties[i] if rnd.penalties else None,
                                     "total": rnd.totals[i] if rnd.totals else None,
                                     "events": [describe_penalty(names, e) for e in events if e.get("seat") == i]})
            item["moves"] = replays.move_lines(entry["moves"], names)
            item["seeds"] = [{"seat": i, "player": players[i], "seed": seed} for i, seed in enumerate(rnd.client_seeds)]
        rounds.append(item)
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
    deal_data = {"table_id": table.pk, "header": {k: header[k] for k in ("format", "ruleset", "table_id", "players")},
                 "rounds": deals}
    return render(request, "games/match.html", {
        "table": table, "match": match, "rounds": rounds, "standings": standings, "totals": totals,
        "team_rows": team_rows, "deal_data": deal_data, "finished_any": bool(deals),
    })


@require_GET
def match_record(request, table_id):
    """The match's game record (`okeysite-record-1`, docs/game-record.md) as a JSON download,
    its finished rounds only; 404 while no round is over."""
    _table, match, seats, _players = _match_rows(table_id)
    record = records.match_record(match, seats)
    if not record["rounds"]:
        raise Http404("no finished round yet")
    response = JsonResponse(record, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="okeysite-table-{table_id}.json"'
    return response


def replay_page(request, table_id):
    """The replay of a match's finished rounds (`static/js/replay.js`): every move forward
    and back with every rack revealed; `?round=N&move=K` opens round N at move K (move 0:
    the deal). A running round has no replay."""
    table, match, _seats, players = _match_rows(table_id)
    finished = [rnd.number for rnd in records.finished_rounds(match)]
    config = {"mode": "match", "ruleset": table.ruleset, "rounds": finished,
              "running": [rnd.number for rnd in match.rounds.all() if not rnd.is_over],
              "frames_url": reverse("replay_frames", args=[table.pk]), "match_url": reverse("match", args=[table.pk])}
    return render(request, "games/replay.html", {"table": table, "replay_config": config,
                                                 "players": replays.players_shown_info(players)})


@require_GET
def replay_frames(request, table_id):
    """JSON of one finished round's replay (`?round=N`, N from 1): {ruleset, players, round:
    `replays.round_frames`}. 404 for a round that does not exist or is not over."""
    table, match, _seats, players = _match_rows(table_id)
    try:
        number = int(request.GET.get("round", "1"))
    except ValueError:
        raise Http404("no such round") from None
    rnd = match.rounds.filter(index=number - 1, finished__isnull=False).first()
    if rnd is None:
        raise Http404("no such finished round")
    replay = replays.round_frames(records.stored_round(rnd), _names(players))
    return JsonResponse({"ruleset": table.ruleset, "players": replays.players_shown_info(players), "round": replay})


@require_http_methods(["GET", "POST"])
def replay_file(request):
    """GET: the replay page for a game record file. POST (multipart, field `record`): the
    file checked and replayed by the engine (`replays.load_record`, `record_replay`), as
    JSON {ruleset, players, rounds}; a file that is not a record that replays gets 400
    {"error": the reason, in the user's language}."""
    if request.method == "GET":
        config = {"mode": "file", "ruleset": None, "rounds": [], "running": []}
        return render(request, "games/replay.html", {"table": None, "replay_config": config, "players": []})
    upload = request.FILES.get("record")
    if upload is None:
        return JsonResponse({"error": gettext("Choose a game record file.")}, status=400)
    if upload.size > replays.MAX_RECORD_BYTES:
        return JsonResponse({"error": gettext("The file is larger than %(mb)s MB.")
                             % {"mb": replays.MAX_RECORD_BYTES >> 20}}, status=400)
    try:
        replay = replays.record_replay(replays.load_record(upload.read()))
    except replays.RecordError as exc:
        return JsonResponse({"error": gettext("This file cannot be replayed: %(reason)s.") % {"reason": exc}},
                            status=400)
    return JsonResponse(replay)


@require_GET
def fairdeal_checker(request):
    """The standalone deal checker, `games/engine/fairdeal.py` (Python standard library
    only), as a download: `python3 fairdeal.py RECORD.json` checks a downloaded record
    without the site's source."""
    return FileResponse(open(fairdeal.__file__, "rb"), as_attachment=True, filename="fairdeal.py",
                        content_type="text/x-python; charset=utf-8")
