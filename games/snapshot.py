"""The read side of the games: what one seat (or a spectator) may see, the players, the
round's score table and the lobby's list of open tables. Nothing here writes.

`snapshot()` loads the rows and calls `view_for()`, which only reads what it is given;
the commit path builds every seat's view of a new version once with `version_views()`
from the rows it already holds (ARCHITECTURE.md invariant 3). A view's only
language-dependent text is a computer's name: `localize()` puts it in a socket's language.
"""
import logging
import threading
from collections import OrderedDict
from contextlib import nullcontext
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, F, Q
from django.utils import translation
from django.utils.translation import gettext

from accounts.faces import computer_face_url, face_url
from accounts.player_settings import display_name
from games import history, results, seeding_state
from games.engine import api
from games.errors import TableError
from games.frames import dumps
from games.models import BOT_LEVEL_CHOICES, Game, Move, Seat, Table, ruleset_name
from games.prepared import Prepared, PreparedRows

log = logging.getLogger("games.snapshot")


def _epoch_ms(dt):
    return int(dt.timestamp() * 1000) if dt else None


def computer_label(index, level):
    """A computer seat's name in the active language, numbered by seat like every page.

    Args: `index` (0-based seat), `level` (bot level id). Returns str: seat index 1 ->
    "Computer 2 · normal"."""
    return _computer_label(translation.get_language(), index, level)


@lru_cache(maxsize=1024)
def _computer_label(language, index, level):
    # Every view of every version names its computers again (and once more per socket
    # language): the few labels a language has are looked up once per process.
    levels = dict(BOT_LEVEL_CHOICES)
    with translation.override(language):
        return gettext("Computer %(number)s · %(level)s") % {"number": index + 1, "level": levels.get(level, level)}


def players_info(table, seats):
    """Per seat of `table` (`seats` in seat order, with their users): {"name" (display
    name; a computer's is `computer_label`, in the active language), "user" (username),
    "computer" (bot level or None), "connected", "autoplay" (a computer plays the human's seat
    for now; never before the match starts), "empty", "left" (humans: the
    player left the match, `results.has_left`: they chose to, or had no socket for their
    last OKEY_LEFT_AFTER_TURNS turns; a computer plays the seat), "team" (okey51
    teams: 0 for seats 0+2, 1 for seats 1+3; else None), "avatar" (the address of the
    seat's face, `accounts.faces`: the player's, the computers' one, None for a free
    seat)}."""
    teams = api.ruleset(table.ruleset).team_totals(table.options, [0] * len(seats)) is not None
    # A player who closed the page before the start is on autoplay already (games.play.presence),
    # but no computer plays anything until the match starts: the waiting room says "not connected".
    playing = table.status != table.Status.OPEN
    out = []
    computer_face = None
    for seat in seats:
        if seat.user_id:
            info = {"name": display_name(seat.user), "user": seat.user.get_username(), "computer": None,
                    "connected": seat.connected, "autoplay": seat.autoplay and playing, "empty": False,
                    "left": results.has_left(seat), "avatar": face_url(seat.user_id)}
        elif seat.bot_level:
            computer_face = computer_face or computer_face_url()  # one address for every computer
            info = {"name": computer_label(seat.index, seat.bot_level), "user": None, "computer": seat.bot_level,
                    "connected": True, "autoplay": False, "empty": False, "avatar": computer_face}
        else:
            info = {"name": None, "user": None, "computer": None, "connected": False, "autoplay": False,
                    "empty": True, "avatar": None}
        info["team"] = seat.index % 2 if teams else None
        out.append(info)
    return out


REMATCH_ANSWERS = {None: "waiting", "yes": "accepted", "no": "declined"}


def rematch_invitees(table, seats):
    """The humans a rematch table still open invited, with their answers, for its seat
    list: who is still expected and who declined (`games.play.rematch`).

    Args: `table` (Table), `seats` (its Seats in seat order, with their users). Returns a
    list, in the order they were invited (the old match's seat order), of {"user"
    (username), "name" (display name), "answer" ("waiting" | "accepted" | "declined"),
    "seat" (the seat index an invitee who accepted took, else None)}; the one who offered
    the rematch is left out (they sit in seat 0). [] for any other table. One query when
    not empty."""
    answers = table.rematch_answers or {}
    if table.status != Table.Status.OPEN or not answers:
        return []
    seated = {s.user_id: s.index for s in seats if s.user_id}
    ids = [int(key) for key in answers if int(key) != table.creator_id]
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=ids).select_related("player_settings")}
    out = []
    for pk in ids:
        user = users.get(pk)
        if user is None:
            continue
        answer = REMATCH_ANSWERS.get(answers.get(str(pk)), "waiting")
        out.append({"user": user.get_username(), "name": display_name(user), "answer": answer,
                    "seat": seated.get(pk) if answer == "accepted" else None})
    return out


def round_end_frame(game, table, seats=None):
    """The public score table of the game's round once it is over (docs/protocol.md §6
    `round_end`): {version, round_index, scores, penalties, round_totals, totals (match so
    far), result, commitment (published before the deal) with what checks it, revealed now
    (docs/fair-deals.md): server_seed, client_seeds (per seat), algorithm; match_over,
    standings (seats best first, leavers last: `games.results`), left (the seats that left
    the match, once it is over; else []), team_totals, penalty_events [{seat, amount,
    reason, tile, by}], next_round_at (epoch ms or None)}. Points everywhere; no rack but
    the engine's public `result`. `seats`: the table's Seats (None: read here)."""
    rnd, match = game.round, game.match
    return {
        "version": game.version,
        "round_index": rnd.index,
        "scores": rnd.scores,
        "penalties": rnd.penalties,
        "round_totals": rnd.totals,
        "totals": match.totals,
        "result": rnd.result,
        "commitment": rnd.commitment,
        "server_seed": rnd.revealed_server_seed,
        "client_seeds": rnd.client_seeds if rnd.is_over else None,
        "algorithm": rnd.algorithm,
        "chain_tip": rnd.chain_tip or None,
        "match_over": match.finished is not None,
        "standings": match.standings,
        "left": _left_seats(table, seats) if match.finished else [],
        "team_totals": api.ruleset(table.ruleset).team_totals(table.options, match.totals),
        "penalty_events": rnd.penalty_events or [],
        "next_round_at": _epoch_ms(game.deadline) if game.deadline_kind == Game.Deadline.NEXT_ROUND else None,
    }


def _left_seats(table, seats):
    if seats is None:
        seats = Seat.objects.filter(table=table).order_by("index")
    return sorted(seat.index for seat in seats if results.has_left(seat))


MOVE_FIELDS = ("number", "seat", "actor", "action", "result", "events", "draw_no", "version")  # a history row
CACHED_ROUNDS = 2000  # rounds whose last rows a process keeps (`recent_moves`)


def recent_moves(round_id, committed=None, current=False):
    """The rows `view_for` needs for the round's move history: the round's last
    `history.LIMIT` + 1 moves, oldest first, as dicts of MOVE_FIELDS {number, seat, actor,
    action, result, events, draw_no (the draws of the round up to this move), version (the
    game version the move made)}; [] without a round. Load them once per version: every
    seat's view is built from the same rows; treat them as read-only (they are shared).

    The move log only grows, so a process keeps the last rows of each round it read and
    afterwards reads only the moves after them (one query either way). `committed` (int or
    None): the game version known to be committed when this is called (the locked game's
    version before its transaction changed it); only rows up to it are kept, never a row
    of a transaction that may still roll back. `current` (bool): the caller holds the
    game's row lock at version `committed` and its transaction logged no move yet, so no
    move is newer than that version: rows kept up to a move of that very version are all
    there is, returned without a query (the writer of the next version in the process
    that committed the last one, `keep_moves`)."""
    if round_id is None:
        return []
    with _CACHE_LOCK:
        known = _CACHE.get(round_id)
    if known and current and committed is not None and known[-1]["version"] == committed:
        return list(known)
    if known:
        newer = _MOVES_AFTER.fetch(known[-1]["number"], round_id)
        rows = [_row(m) for m in reversed(newer)]
        if len(newer) <= history.LIMIT:
            rows = (known + rows)[-(history.LIMIT + 1):]
    else:
        rows = [_row(m) for m in reversed(_RECENT_MOVES.fetch(round_id))]
    if committed is not None:
        keep = [row for row in rows if row["version"] <= committed]
        with _CACHE_LOCK:
            if keep:
                _CACHE[round_id] = keep
                _CACHE.move_to_end(round_id)
            while len(_CACHE) > CACHED_ROUNDS:
                _CACHE.popitem(last=False)
    return rows


def keep_moves(round_id, rows):
    """Keep `rows` (the round's last rows, oldest first, as `recent_moves` returns them)
    as what this process knows of round `round_id`: called once the transaction that logged
    the last of them committed, so the writer of the next version here needs no read
    (`recent_moves` `current`). Rows older than those kept already are ignored."""
    if not rows:
        return
    with _CACHE_LOCK:
        known = _CACHE.get(round_id)
        if known and known[-1]["number"] >= rows[-1]["number"]:
            return
        _CACHE[round_id] = rows
        _CACHE.move_to_end(round_id)
        while len(_CACHE) > CACHED_ROUNDS:
            _CACHE.popitem(last=False)


def _row(move):
    return {name: getattr(move, name) for name in MOVE_FIELDS}


_CACHE = OrderedDict()  # round id -> its last committed rows, oldest first (most recently used last)
_CACHE_LOCK = threading.Lock()  # daphne runs the writer on several threads
# Read on every version (compiled once per thread, games.prepared).
_RECENT_MOVES = Prepared(lambda round_id: Move.objects.filter(round_id=round_id).only(*MOVE_FIELDS)
                         .order_by("-number")[:history.LIMIT + 1])
# (the arguments in the order of the SQL's parameters: Django sorts a filter's keywords)
_MOVES_AFTER = Prepared(lambda number, round_id: Move.objects.filter(number__gt=number, round_id=round_id)
                        .only(*MOVE_FIELDS).order_by("-number")[:history.LIMIT + 1])


def view_for(game, table, seats, seat_index, moves=None, seeding=None, players=None, shared=None):
    """The view of seat `seat_index` (None: a spectator) from loaded rows (docs/protocol.md
    §5): `api.view(position, seat)` plus version, deadline (epoch ms),
    deadline_kind, players (`players_info`), totals, table_id, status, mode, round_index,
    rounds, commitment, seed (only once the round is over), seeding
    (`seeding_state.seeding_frame`, while a seeding window is open), assisted, move_time,
    creator_seat, team_totals (okey51 teams, else None), spectators (sockets watching),
    practice (no move clock), rematch_table (the id of the rematch offered once the match
    is over, else None), rematch_invited (`rematch_invitees`: on an open rematch table the
    invited players and their answers, else []), round_end (`round_end_frame`, once
    the round is over), moves (the round's move history as this seat may see it,
    `history.public_moves`, when `moves` — the rows of `recent_moves` — are given) and, on
    assisted tables only, penalty_tiles for the viewer's own seat (`api.penalty_tiles`,
    RULES.md §6). Never another seat's rack, never the pile. `seeding`: the seeding frame
    if already read (every seat's view of a version shows the same one); `players`: the
    `players_info` list if already built (the same in every view of a version: shared,
    never changed); `shared`: `history.public_moves`'s dict for the views of one version."""
    rules = api.ruleset(table.ruleset)
    rnd, match = game.round, game.match
    if game.position is not None:
        view = dict(api.view(game.position, seat_index))
    else:
        view = {"ruleset": table.ruleset, "options": table.options, "seat": seat_index}
    totals = match.totals if match else [0] * table.players
    view.update({
        "version": game.version,
        "table_id": table.pk,
        "status": table.status,
        "mode": table.mode,
        "assisted": table.assisted,
        "move_time": table.move_time,
        "deadline": _epoch_ms(game.deadline),
        "deadline_kind": game.deadline_kind or None,
        "players": players if players is not None else players_info(table, seats),
        "totals": totals,
        "round_index": rnd.index if rnd else None,
        "rounds": match.rounds_planned if match else rules.match_length(table.options, table.players),
        "commitment": rnd.commitment if rnd else None,
        "seed": rnd.revealed_server_seed if rnd else None,
        "creator_seat": 0,
        "team_totals": rules.team_totals(table.options, totals),
        "spectators": table.spectators,
        "practice": table.practice,
        "rematch_table": table.rematch_table_id,
        # the match's hash chain tip, public from the table's creation (docs/fair-deals.md §10)
        "chain_tip": table.chain_tip or None,
        "rematch_invited": rematch_invitees(table, seats),
    })
    if table.assisted and seat_index is not None and game.position is not None and not api.is_over(game.position):
        try:
            view["penalty_tiles"] = list(api.penalty_tiles(game.position, seat_index))
        except Exception:  # noqa: BLE001 - a display aid must never break the snapshot
            log.exception("penalty_tiles failed at table %s", table.pk)
            view["penalty_tiles"] = []
    if rnd and rnd.is_over:
        view["round_end"] = round_end_frame(game, table, seats)
    if game.deadline_kind == Game.Deadline.SEED:  # the next round's commitment, before its deal
        view["seeding"] = seeding if seeding is not None else seeding_state.seeding_frame(game)
    if moves is not None:
        dealt = (rnd.initial_position or {}) if rnd else {}
        view["moves"] = history.public_moves(moves, seat_index, dealt.get("pile") or (), shared=shared)
    return view


def version_views(game, table, seats, moves=None, public=True, seeding=None):
    """Every view of the game's current version, built once from loaded rows (one query,
    `recent_moves`, unless `moves` — its rows for the game's round — are given). Args:
    `game` (with its round and match), `table`, `seats` (in seat order, with their users),
    `public` (False: nobody watches, no public view is built); a seeding window's round
    costs one more query unless its frame (`seeding_state.seeding_frame`) is given as `seeding`.
    Returns (public view for spectators or None, {seat index: (user id,
    view)} for each seat a user sits in; a player who left the match watches, like
    `snapshot`, with the public view). Computers' names are in the active language
    (`localize` changes them)."""
    if moves is None:
        moves = recent_moves(game.round_id)
    # a seeding window's frame is the same in every view: its round is read once
    if seeding is None and game.deadline_kind == Game.Deadline.SEED:
        seeding = seeding_state.seeding_frame(game)
    players = players_info(table, seats)  # public: the same list in every view
    shared = {}  # the moves every seat sees alike, made once
    public = view_for(game, table, seats, None, moves, seeding, players, shared) if public else None
    own = {seat.index: (seat.user_id, view_for(game, table, seats, seat.index, moves, seeding, players, shared))
           for seat in seats if seat.user_id and not seat.left}
    return public, own


def localize(view, language):
    """`view` with its computers' names in `language` (a LANGUAGES code; None: the active
    language): a copy, `view` itself is shared by every socket that receives it."""
    players = view.get("players") or ()
    if not any(p.get("computer") for p in players):
        return view
    language = language or translation.get_language()
    named = [dict(p, name=_computer_label(language, i, p["computer"])) if p.get("computer") else p
             for i, p in enumerate(players)]
    return dict(view, players=named)


def view_text(view, language):
    """`view` (dict) as compact JSON text with its computers named in `language` (a
    LANGUAGES code): serialised once where the version is committed, so a socket of that
    language forwards the text as it is (`snapshot_frame`)."""
    return dumps(localize(view, language))


def snapshot_frame(version, text):
    """The `snapshot` frame (docs/protocol.md §3) of `version` (int) around a view already
    serialised by `view_text` (str): the same text `json.dumps` of the whole frame gives."""
    return f'{{"type":"snapshot","version":{int(version)},"view":{text}}}'


def seat_language(seat):
    """The language the writer names the computers in for `seat`'s user (a LANGUAGES
    code): the one saved in their settings, which the site also puts in their language
    cookie, else the site's default."""
    chosen = getattr(getattr(seat.user, "player_settings", None), "language", "") if seat.user_id else ""
    return chosen or settings.LANGUAGE_CODE


def seat_to_move(view):
    """Whether `view` (a dict from `view_for`) is the view of the seat to move at an online
    table with its move clock running: the player the others wait for (RULES.md §6, D-16),
    whose socket is watched closely (`games.heartbeat.HeartbeatMixin`). Returns bool."""
    seat = view.get("seat")
    return (seat is not None and view.get("mode") == Table.Mode.ONLINE and view.get("turn") == seat
            and view.get("deadline_kind") == Game.Deadline.MOVE and not view.get("round_end"))


def snapshot(table_id, user, language=None):
    """The view one socket may see now (`view_for`, with the round's move history),
    read from the database.

    Args: `table_id` (int), `user` (the socket's user, or None), `language` (a LANGUAGES
    code for the computers' names, else the active language).
    Returns (version, view, seat index or None). Raises TableError("not_found").
    """
    if language:
        with translation.override(language):
            return snapshot(table_id, user)
    try:
        game = Game.objects.select_related("table", "match", "round").get(table_id=table_id)
    except Game.DoesNotExist:
        raise TableError("not_found") from None
    seats = list(Seat.objects.filter(table_id=table_id).select_related("user", "user__player_settings")
                 .order_by("index"))
    # A player who left the match watches it: the computer plays the seat, not them.
    seat_index = next((s.index for s in seats if user is not None and s.user_id == getattr(user, "pk", None)
                       and not s.left), None)
    moves = recent_moves(game.round_id, committed=game.version)
    return game.version, view_for(game, game.table, seats, seat_index, moves), seat_index


def open_tables(language=None):
    """The lobby's public online tables (private and solo ones never show): open tables,
    newest first (at most 100), then running ones to watch (at most 50). List of dicts
    {id, ruleset, ruleset_name, options, creator (display name), creator_avatar (the address
    of the creator's face), move_time (seconds),
    assisted, seats_taken, players, status ("open" | "playing"), spectators, quick} and,
    for a running table, round (1-based number of the round being played, or None) and
    seats [{name, computer (bool), left (bool), avatar (the address of the seat's face)}]
    in seat order; a computer's name is `computer_label`
    in `language` (a LANGUAGES code; None: the active language).

    Built on every lobby change, so from plain rows in three queries compiled once per
    process, whatever the number of tables: never a game's position or a round's deal
    (large JSON the list never shows), no model instances. The seats are read in their own
    statement: a table that stops between the two shows no seats until the change that
    stopped it sends the list again, a moment later."""
    return next(named_open_tables([language]))[1]


def named_open_tables(languages):
    """The lobby's list (`open_tables`) read once, then named in each of `languages` in
    turn: the rows are the same for every language, only the computers' names differ.

    Args: `languages` (iterable of LANGUAGES codes; None: the active language). Yields
    (language, list of tables) per language. It is the same list each time, its computers
    renamed in place: serialise or copy it before taking the next one."""
    waiting, running = _LOBBY_WAITING.rows(), _LOBBY_RUNNING.rows()
    seats = {}
    for row in _LOBBY_RUNNING_SEATS.rows() if running else ():
        seats.setdefault(row["table_id"], []).append(row)
    out, computers = [], {}
    for row in waiting + running:
        item = {name: row[name] for name in _LOBBY_TABLE}
        item.update(ruleset_name=ruleset_name(row["ruleset"]), creator=row["chosen"] or row["creator__username"],
                    creator_avatar=face_url(row["creator_id"]), seats_taken=row["taken"])
        if row["status"] == Table.Status.PLAYING:
            item["round"] = row["round_index"] + 1 if row["round_index"] is not None else None  # Round.number
            item["seats"] = [_lobby_seat(seat, computers) for seat in seats.get(row["id"], [])]
        out.append(item)
    for language in languages:
        # The same few labels for every table: one gettext per (seat, level), not per seat.
        with translation.override(language) if language else nullcontext():
            labels = {key: computer_label(*key) for key in computers}
        for key, named in computers.items():
            for seat in named:
                seat["name"] = labels[key]
        yield language, out


_LOBBY_TABLE = ("id", "ruleset", "options", "move_time", "assisted", "players", "status", "spectators", "quick")


def _public_tables():
    return (Table.objects.filter(private=False, mode=Table.Mode.ONLINE)
            .annotate(taken=Count("seats", filter=Q(seats__user__isnull=False)),
                      chosen=F("creator__player_settings__display_name"))
            .values(*_LOBBY_TABLE, "taken", "chosen", "creator__username", "creator_id").order_by("-created", "-id"))


def _running_tables():
    return Table.objects.filter(private=False, mode=Table.Mode.ONLINE, status=Table.Status.PLAYING).order_by(
        "-created", "-id")


# a rematch seats only the humans it invited: not offered to the lobby
_LOBBY_WAITING = PreparedRows(lambda: _public_tables().filter(status=Table.Status.OPEN,
                                                              rematch_deadline__isnull=True)[:100])
_LOBBY_RUNNING = PreparedRows(lambda: _public_tables().filter(status=Table.Status.PLAYING)
                              .annotate(round_index=F("game__round__index"))[:50])
_LOBBY_RUNNING_SEATS = PreparedRows(lambda: Seat.objects.filter(
    table__in=_running_tables().values("id")[:50]).order_by("table_id", "index").values(
    "table_id", "index", "user_id", "bot_level", "left", "user__username", "user__player_settings__display_name"))


def _lobby_seat(row, computers):
    # A running table's seat as the lobby shows it (`players_info`'s name): a player who
    # left counts as a computer, since one plays the seat for good ("left": the lists say
    # so after the player's name; a computer's own name already says "Computer"). A computer's seat is
    # named later, per language: it is kept in `computers` under its (seat index, level).
    if row["user_id"]:
        name = row["user__player_settings__display_name"] or row["user__username"]
    else:
        name = None
    seat = {"name": name, "computer": bool(row["bot_level"] and not row["user_id"]) or bool(row["left"]),
            "left": bool(row["left"]),
            "avatar": face_url(row["user_id"]) if row["user_id"] else computer_face_url() if row["bot_level"] else None}
    if row["bot_level"] and not row["user_id"]:
        computers.setdefault((row["index"], row["bot_level"]), []).append(seat)
    return seat
