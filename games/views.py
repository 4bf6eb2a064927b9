"""Lobby, table, match and replay pages, the game record download (function views).
State changes go through `games.play`. What the match, replay and record show of a round
is what anyone may see once it is over: a running round shows its commitment only.

Every per-table URL answers a private table exactly as a missing one to whoever may not
see it (`tables.may_see`): the same 404 page, or for a POST the same "No such table."
redirect. An invite code in the address (`?invite=`) or the invite link is a guess,
limited by `games.invite_limits` (HTTP 429 past the limit)."""
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db.models import Exists, OuterRef
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import guests
from accounts.player_settings import PlayerSettings
from games import hints, invite_limits, invites, records, replays, results, review_text, reviews
from games.arena import views as arena_views
from games.arena.models import Arena
from games.engine import api, fairdeal
from games.errors import TableError, error_message
from games.forms import CreateTableForm, available_rulesets
from games.models import BOT_LEVEL_CHOICES, Match, Seat, Table
from games.module_graph import module_closure
from games.move_text import describe_penalty
from games.play import quickmatch, rematch, tables
from games.snapshot import open_tables, players_info, rematch_invitees
from okeysite.static_storage import BUNDLES, TABLE_BUNDLE


def finished_tables(user, count):
    """The `count` newest finished tables (list, newest first) at which `user` has a
    seat. Read through the user's seats newest table first (their index), stopping at
    `count`: what it costs does not grow with the player's matches."""
    ids = list(Seat.objects.filter(user=user, table__status=Table.Status.FINISHED).order_by("-table_id")
               .values_list("table_id", flat=True)[:count])
    return list(Table.objects.filter(pk__in=ids).order_by("-created"))


def lobby(request):
    """Home page: create-table form, open online tables (live via /ws/lobby/), my tables."""
    mine = []
    finished = []
    initial = {}
    if request.user.is_authenticated:
        initial = {key: value for key, value in PlayerSettings.for_user(request.user).table_defaults.items()
                   if key in CreateTableForm.base_fields}
        # the few live tables of the site, those with a seat of the user's
        seated = Seat.objects.filter(table=OuterRef("pk"), user=request.user)
        mine = list(Table.objects.filter(Exists(seated), status__in=[Table.Status.OPEN, Table.Status.PLAYING])
                    .order_by("-created")[:20])
        finished = finished_tables(request.user, 10)
    listed = open_tables()
    return render(request, "games/lobby.html", {
        "form": CreateTableForm(initial=initial),
        "rulesets": available_rulesets(),
        "quick_wait": int(settings.OKEY_QUICK_MATCH_WAIT),
        "open_tables": [t for t in listed if t["status"] == Table.Status.OPEN],
        "running_tables": [t for t in listed if t["status"] == Table.Status.PLAYING],
        "my_tables": mine,
        "finished_tables": finished,
        "arenas": arena_views.upcoming(),
        # strings for the lobby's inline script (the JS catalog only holds djangojs strings)
        "lobby_i18n": {"join": gettext("Join"), "empty": gettext("No open table right now. Create one!"),
                       "teams": gettext("teams"), "watch": gettext("Watch"),
                       "computer": gettext("computer"), "none_running": gettext("No match being played right now."),
                       # shown if the socket's 4429 comes without the server's message before it
                       "too_many_sockets": error_message("too_many_sockets")},
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
            private=data["private"], practice=data["practice"],
        )
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


def _seen_table(request, table_id):
    """The Table `table_id` when this request may see it (`tables.may_see` with the invite
    code kept in the session, or a right `?invite=` code, which is then kept). Raises
    Http404 for a missing table and for a hidden one alike, and
    invite_limits.TooManyWrongCodes when an `?invite=` code is tried past the limit
    (missing and hidden tables count the same)."""
    table = Table.objects.filter(pk=table_id).first()
    user = request.user if request.user.is_authenticated else None
    if table is not None and tables.may_see(table, user, invites.code_in_session(request.session, table_id)):
        return table
    guess = request.GET.get("invite")
    if guess:
        attempt = invite_limits.attempt(request)
        if table is not None and tables.invite_matches(table, guess):
            attempt.give_back()
            invites.remember(request, table)
            return table
    raise Http404("No Table matches the given query.")


def per_table(view):
    """Decorator of a per-table view (`table_id` first): a table the request may not see
    is answered as a missing one (`_seen_table`: Http404); too many invite codes tried, 429."""
    @wraps(view)
    def answer(request, table_id, *args, **kwargs):
        try:
            _seen_table(request, table_id)
        except invite_limits.TooManyWrongCodes:
            return invite_limits.refusal(request)
        return view(request, table_id, *args, **kwargs)
    return answer


def _table_config(request, table, seat_index):
    """The table client's start-up data (static/js/table/main.js reads it from the page):
    the table, the viewer's seat, the socket path, the page addresses, and ``rules``, the
    ruleset object's facts (``api.client_rules``): the client reads meld rules,
    thresholds, pair and wild rules from it instead of knowing ruleset ids."""
    return {
        "table_id": table.pk,
        "ws_path": f"/ws/table/{table.pk}/",
        "seat": seat_index,
        "ruleset": table.ruleset,
        "rules": api.client_rules(table.ruleset),
        "options": table.options,
        "mode": table.mode,
        "status": table.status,
        "assisted": table.assisted,
        "move_time": table.move_time,
        "players": table.players,
        "is_creator": request.user.is_authenticated and table.creator_id == request.user.pk,
        "urls": {
            "lobby": reverse("lobby"),
            "join": reverse("table_join", args=[table.pk]),
            "leave": reverse("table_leave", args=[table.pk]),
            "start": reverse("table_start", args=[table.pk]),
            "remove": reverse("table_remove", args=[table.pk, 0]).rsplit("0/", 1)[0],
            "match": reverse("match", args=[table.pk]),
            "replay": reverse("replay", args=[table.pk]),
            "record": reverse("match_record", args=[table.pk]),
            "jsi18n": reverse("javascript-catalog"),
        },
    }


@per_table
def table_page(request, table_id):
    """The live table (`templates/games/table.html`, written by the table client).

    Anyone may watch a public table, signed in or not; a private one needs a seat, a
    rematch invitation, staff, or its invite code (`invites.remember`, from the invite link
    or `?invite=`), else it is a 404 as for a missing table. The creator of an open table
    sees the invite link and may remove players; a seated player of a running match may
    leave it for good (the block is on the page of an open table too, hidden until the
    match starts)."""
    table = get_object_or_404(Table, pk=table_id)
    user = request.user if request.user.is_authenticated else None
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("index"))
    seat = next((s for s in seats if user is not None and s.user_id == user.pk), None)
    code = invites.code_in_session(request.session, table.pk)
    if table.private and seat is None and tables.invite_matches(table, code):
        invites.remember(request, table)  # the newest kept: "Take a seat" and the socket read it
    playing = seat is not None and not seat.left
    seat_index = seat.index if playing else None
    is_creator = user is not None and table.creator_id == user.pk
    free = any(s.user_id is None and not s.bot_level for s in seats)
    is_open = table.status == Table.Status.OPEN
    removed = user is not None and seat is None and user.pk in table.removed
    _name_invitees(table, seats)
    context = {
        "table": table,
        "seat_index": seat_index,
        "ws_path": f"/ws/table/{table.pk}/",
        "is_creator": is_creator,
        "can_start": is_creator and is_open,
        "can_join": (seat is None and free and is_open and table.mode == Table.Mode.ONLINE and not removed),
        "was_removed": removed and is_open,
        "can_leave_match": playing and table.status == Table.Status.PLAYING,
        "has_left": seat is not None and seat.left,
        "invite_url": (request.build_absolute_uri(reverse("table_invite", args=[table.invite_code]))
                       if table.private and (seat is not None or is_creator) else ""),
        "seats": seats,
        "quick_starts_at": (int(quickmatch.starts_at(table).timestamp() * 1000)
                            if table.quick and is_open else None),
        "rematch_starts_at": (int(table.rematch_deadline.timestamp() * 1000)
                              if table.rematch_deadline and is_open else None),
        # Rendered (hidden) from the open table on: the match starts and ends over the socket,
        # and watching.js can only show a block that is on the page.
        "can_rematch": playing and table.status != Table.Status.CLOSED,
        # the hint's words follow the seat's phase, so the table client writes it
        "table_config": {**_table_config(request, table, seat_index),
                         "first_game": seat_index is not None and hints.is_first_game(table, user)},
        "arena": Arena.objects.filter(tables__table=table).first(),
        # collected: the modules as one script (okeysite/static_bundle.py); else the whole
        # module graph preloaded at once, not one import level per round trip
        **_table_scripts(),
    }
    # The fallback page is only used until the table client's template exists.
    return render(request, ["games/table.html", "games/table_fallback.html"], context)


def _table_scripts():
    # {"table_bundle": its static name, or None, "table_modules": the modules to preload}
    if staticfiles_storage.collected(TABLE_BUNDLE):
        return {"table_bundle": TABLE_BUNDLE, "table_modules": ()}
    return {"table_bundle": None, "table_modules": module_closure(*BUNDLES[TABLE_BUNDLE])}


def _name_invitees(table, seats):
    # An open rematch names whom each free seat waits for and what the invited players
    # answered (the table client redraws the same from every snapshot): `seat.invitee`.
    invited = rematch_invitees(table, seats)
    pending = [i for i in invited if i["seat"] is None]
    accepted = {i["seat"]: i for i in invited if i["seat"] is not None}
    for s in seats:
        s.invitee = accepted.get(s.index)
        if s.user_id is None and not s.bot_level and pending:
            s.invitee = pending.pop(0)


@login_required
@require_POST
def play_now(request, ruleset):
    """"Play now": a seat at a waiting quick-match table of `ruleset`, or a new one that
    starts with computers after settings.OKEY_QUICK_MATCH_WAIT seconds."""
    if ruleset not in dict(available_rulesets()):
        messages.error(request, error_message("bad_options"))
        return redirect("lobby")
    try:
        table = quickmatch.play_now(request.user, ruleset)
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


@require_POST
def guest_play(request, ruleset, kind):
    """One click to play before signing up: log the visitor in as a guest
    (`accounts.guests.start_guest`; a logged-in player stays themselves), then "Play now"
    at `ruleset` (`kind` "play") or a solo table of `ruleset` with the default options and
    no move clock (`kind` "solo")."""
    if ruleset not in dict(available_rulesets()):
        messages.error(request, error_message("bad_options"))
        return redirect("lobby")
    user = guests.start_guest(request)
    try:
        if kind == "solo":
            table = tables.create_table(user, ruleset=ruleset, mode=Table.Mode.SOLO, practice=True)
        else:
            table = quickmatch.play_now(user, ruleset)
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


def _table_post(request, table_id, fn, success):
    try:
        try:
            _seen_table(request, table_id)
        except Http404:
            raise TableError("not_found") from None
        fn(request.user, table_id)
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("lobby") if exc.code == "not_found" else redirect("table", table_id=table_id)
    except invite_limits.TooManyWrongCodes:
        return invite_limits.refusal(request)
    return success()


@login_required
@require_POST
def table_join(request, table_id):
    """Take a free seat at an open online table (the one facing the creator first); a
    private table needs the invite code the invite link left in the session."""
    def join(user, pk):
        return tables.join_table(user, pk, invite=invites.code_for(request, pk))
    return _table_post(request, table_id, join, lambda: redirect("table", table_id=table_id))


def table_invite(request, code):
    """The invite link of a private table: remembers the code in the session and opens the
    table ("Take a seat" while it is open, else watching). An open table first needs a
    login (allauth's `next` brings the visitor back here after signing up or logging in)."""
    try:
        attempt = invite_limits.attempt(request)
    except invite_limits.TooManyWrongCodes:
        return invite_limits.refusal(request)
    table = Table.objects.filter(private=True, invite_code=code.strip().upper()).first()
    if table is None or table.status == Table.Status.CLOSED:
        messages.error(request, error_message("not_found"))
        return redirect("lobby")
    attempt.give_back()
    if table.status == Table.Status.OPEN and not request.user.is_authenticated:
        # a visitor from a friend's link would otherwise see a bare login form
        messages.info(request, gettext("You are invited to a table of %(game)s: log in or sign up, "
                                       "and you come back to it to take your seat.")
                      % {"game": table.get_ruleset_display()})
        return redirect_to_login(request.get_full_path())
    invites.remember(request, table)
    return redirect("table", table_id=table.pk)


@require_GET
def invite_code_form(request):
    """The lobby's "Have an invite code?" form (GET `code`): the invite link of that code."""
    code = "".join(ch for ch in request.GET.get("code", "") if ch.isalnum()).upper()[:16]
    if not code:
        return redirect("lobby")
    return redirect("table_invite", code=code)


@login_required
@require_POST
def table_remove(request, table_id, seat_index):
    """The creator frees another player's seat before the start."""
    return _table_post(request, table_id, lambda user, pk: tables.remove_player(user, pk, seat_index),
                       lambda: redirect("table", table_id=table_id))


@login_required
@require_POST
def table_leave_match(request, table_id):
    """Leave a running match for good (the page asks to confirm first): a computer plays
    the seat to the end, rated as an abandonment; a solo table closes."""
    def done():
        solo = Table.objects.filter(pk=table_id, mode=Table.Mode.SOLO).exists()
        messages.info(request, gettext("You left the match: the table is closed and the match counts nowhere.")
                      if solo else gettext("You left the match: a computer plays your seat to the end."))
        return redirect("lobby")
    return _table_post(request, table_id, tables.leave_match, done)


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


@login_required
@require_POST
def table_rematch(request, table_id):
    """A player of the finished match offers a rematch (or joins the one offered): the
    same options, the same humans invited; opens the rematch table."""
    try:
        try:
            _seen_table(request, table_id)
        except Http404:
            raise TableError("not_found") from None
        table = rematch.offer(request.user, table_id)
    except invite_limits.TooManyWrongCodes:
        return invite_limits.refusal(request)
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("table", table_id=table_id)
    return redirect("table", table_id=table.pk)


@login_required
@require_POST
@per_table
def table_rematch_answer(request, table_id):
    """An invited player answers the rematch offered from finished table `table_id`:
    POST accept=yes takes a seat at it, anything else declines (a computer plays)."""
    old = get_object_or_404(Table, pk=table_id)
    accept = request.POST.get("accept") == "yes"
    try:
        if old.rematch_table_id is None:
            raise TableError("not_found")
        table = rematch.answer(request.user, old.rematch_table_id, accept)
    except TableError as exc:
        messages.error(request, error_message(exc.code))
        return redirect("table", table_id=table_id)
    if not accept:
        messages.info(request, gettext("You declined the rematch: a computer takes your seat."))
        return redirect("lobby")
    return redirect("table", table_id=table.pk)


def _match_rows(table_id):
    """(table, match, seats in seat order, players_info) of a table's match; 404 without one."""
    table = get_object_or_404(Table, pk=table_id)
    match = get_object_or_404(Match, table=table)
    seats = list(Seat.objects.filter(table=table).select_related("user", "user__player_settings").order_by("index"))
    return table, match, seats, players_info(table, seats)


def _names(players):
    return [p["name"] or gettext("Seat %(n)s") % {"n": i + 1} for i, p in enumerate(players)]


@per_table
def match_page(request, table_id):
    """A match's score tables (per round: scores, in-round penalties listed in words, totals;
    okey51 teams: team totals) and, per finished round, its revealed seeds with a Verify
    button that re-deals it in the browser (`static/js/match.js`), its replay and its move
    log as translated sentences; a running round shows only its commitment. Seats are
    numbered from 1 everywhere. The accuracy of each round and of the match is shown for
    the seats whose review the viewer may see (docs/review.md), beside the computer levels'."""
    table, match, seats, players = _match_rows(table_id)
    names = _names(players)
    header = records.header_of(match, seats)
    rounds, deals = [], []
    accuracy = reviews.visible_accuracy(match, request.user)
    for rnd in match.rounds.order_by("index"):
        item = {"round": rnd, "rows": [], "moves": [], "seeds": [], "reviewed": rnd.index in accuracy}
        if rnd.is_over:
            entry = records.stored_round(rnd)
            deals.append({key: entry[key] for key in ("number", "shuffle", "first", "chain_tip", "commitment",
                                                      "server_seed", "client_seeds", "initial") if key in entry})
            events = rnd.penalty_events or []
            for i, player in enumerate(players):
                item["rows"].append({"seat": i, "player": player, "score": rnd.scores[i] if rnd.scores else None,
                                     "penalty": rnd.penalties[i] if rnd.penalties else None,
                                     "total": rnd.totals[i] if rnd.totals else None,
                                     "accuracy": accuracy.get(rnd.index, {}).get(i),
                                     "events": [describe_penalty(names, e) for e in events if e.get("seat") == i]})
            item["moves"] = replays.move_lines(entry["moves"], names)
            if item["reviewed"]:  # the marks on the move list: at the last move of each marked turn
                marked = {turn["moves"][-1]: turn for row in reviews.visible_reviews(rnd, request.user).values()
                          for turn in row.turns if turn.get("mark") not in (None, "good") and turn["moves"]}
                for line in item["moves"]:
                    turn = marked.get(line["number"])
                    if turn:
                        line.update(mark=turn["mark"], mark_label=review_text.mark_label(turn["mark"]),
                                    mark_href=f"{reverse('replay', args=[table.pk])}?round={rnd.number}"
                                              f"&move={turn['moves'][-1] - 1}")
            item["seeds"] = [{"seat": i, "player": players[i], "seed": seed} for i, seed in enumerate(rnd.client_seeds)]
        rounds.append(item)
    # The result by its one definition (games.results): a player who left is last, no ★.
    outcome = results.result_of(match, seats)
    standings = []
    if match.finished is not None:
        standings = [{"rank": outcome.place_of(s), "seat": s, "player": players[s], "total": match.totals[s],
                      "won": outcome.won(s), "left": s in outcome.left} for s in outcome.order]
    totals = [{"seat": i, "player": p, "total": match.totals[i], "left": bool(p.get("left"))}
              for i, p in enumerate(players)]
    teams = api.ruleset(table.ruleset).team_totals(table.options, match.totals)
    team_rows = []
    if teams is not None:
        team_rows = [{"team": t, "members": [names[t], names[t + 2]], "total": teams[t]}
                     for t in outcome.team_order]
    deal_data = {"table_id": table.pk, "header": {k: header[k] for k in ("format", "ruleset", "table_id", "players")},
                 "rounds": deals}
    match_accuracy = {}
    for per_seat in accuracy.values():
        for seat, value in per_seat.items():
            if value is not None:
                match_accuracy.setdefault(seat, []).append(value)
    accuracy_rows = [{"seat": seat, "player": players[seat], "accuracy": round(sum(v) / len(v), 1), "rounds": len(v)}
                     for seat, v in sorted(match_accuracy.items())]
    return render(request, "games/match.html", {
        "table": table, "match": match, "rounds": rounds, "standings": standings, "totals": totals,
        "team_rows": team_rows, "deal_data": deal_data, "finished_any": bool(deals), "accuracy_rows": accuracy_rows,
        "level_accuracy": level_accuracy_rows(table.ruleset),
    })


@require_GET
@per_table
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


def level_accuracy_rows(ruleset):
    """The computer levels' measured accuracy in `ruleset` (`games.review.levels`), as
    [{level, label, accuracy, low, high, rounds}], strongest first; [] when not measured."""
    from games.review.levels import LEVEL_ACCURACY

    labels = dict(BOT_LEVEL_CHOICES)
    return [{"level": level, "label": labels.get(level, level), **figures}
            for level, figures in LEVEL_ACCURACY.get(ruleset, {}).items()]


@per_table
def replay_page(request, table_id):
    """The replay of a match's finished rounds (`static/js/replay.js`): every move forward
    and back with every rack revealed; `?round=N&move=K` opens round N at move K (move 0:
    the deal). A running round has no replay."""
    table, match, _seats, players = _match_rows(table_id)
    finished = [rnd.number for rnd in records.finished_rounds(match)]
    config = {"mode": "match", "ruleset": table.ruleset, "rules": api.client_rules(table.ruleset), "rounds": finished,
              "running": [rnd.number for rnd in match.rounds.all() if not rnd.is_over],
              "frames_url": reverse("replay_frames", args=[table.pk]), "match_url": reverse("match", args=[table.pk]),
              "training_url": reverse("training")}
    return render(request, "games/replay.html", {"table": table, "replay_config": config,
                                                 "players": replays.players_shown_info(players)})


@require_GET
@per_table
def replay_frames(request, table_id):
    """JSON of one finished round's replay (`?round=N`, N from 1): {ruleset, players, round:
    `replays.round_frames` + reviews [`review_text.review_payload` of each seat review the
    viewer may see]}. 404 for a round that does not exist or is not over."""
    table, match, _seats, players = _match_rows(table_id)
    try:
        number = int(request.GET.get("round", "1"))
    except ValueError:
        raise Http404("no such round") from None
    rnd = match.rounds.filter(index=number - 1, finished__isnull=False).first()
    if rnd is None:
        raise Http404("no such finished round")
    names = _names(players)
    replay = replays.round_frames(records.stored_round(rnd), names)
    # the marks belong to their owner unless they made them public (docs/review.md)
    replay["reviews"] = [review_text.review_payload(row, names[seat], request.user)
                         for seat, row in sorted(reviews.visible_reviews(rnd, request.user).items())]
    return JsonResponse({"ruleset": table.ruleset, "players": replays.players_shown_info(players), "round": replay})


@require_http_methods(["GET", "POST"])
def replay_file(request):
    """GET: the replay page for a game record file. POST (multipart, field `record`): the
    file checked and replayed by the engine (`replays.load_record`, `record_replay`), as
    JSON {ruleset, players, rounds}; a file that is not a record that replays gets 400
    {"error": the reason, in the user's language}."""
    if request.method == "GET":
        config = {"mode": "file", "ruleset": None, "rules": None, "rounds": [], "running": []}
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
    # the rule facts the tiles are drawn with (which tile is wild), as the table page has them
    return JsonResponse({**replay, "rules": api.client_rules(replay["ruleset"])})


@require_GET
def fairdeal_checker(request):
    """The standalone deal checker, `games/engine/fairdeal.py` (Python standard library
    only), as a download: `python3 fairdeal.py RECORD.json` checks a downloaded record
    without the site's source."""
    return FileResponse(open(fairdeal.__file__, "rb"), as_attachment=True, filename="fairdeal.py",
                        content_type="text/x-python; charset=utf-8")
