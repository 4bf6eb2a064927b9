"""The only writer of stored games (ARCHITECTURE.md invariant 2).

Every change runs in one transaction that locks the `Game` row
(`select_for_update(no_key=True)`) *and* checks its version (SQLite ignores row
locks), applies `games.engine.api`, appends to the `Move` log and bumps the version.
Broadcasts (a Channels group message carrying only the new version — each consumer
builds its own seat's view) and Celery timers go out in `transaction.on_commit`.
Timer tasks carry the version they were armed for; when the version has moved on
they do nothing.

Public functions raise `ServiceError(code)` for table-management refusals; game
actions return an `Outcome` (accepted or the refusal code).
"""
import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils import translation
from django.utils.translation import gettext

from games import penalty_events
from games.engine import api
from games.models import Game, Match, Move, Round, Seat, Table, seed_commitment

log = logging.getLogger("games.services")

LOBBY_GROUP = "lobby"
MAX_COMPUTER_STEPS = 80  # actions a computer may take in one turn before we force a discard
SEATS_PER_RULESET = {"okey51": 4, "okey17": 4, "rami": 4}


class ServiceError(Exception):
    """A refused table operation. `code` is a key of `games.errors_i18n.ERROR_MESSAGES`."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


@dataclass
class Outcome:
    """Result of `submit_action`: `ok`, the game `version` after it, the refusal `code`."""

    ok: bool
    version: int
    code: str | None = None
    round_end: dict | None = field(default=None, repr=False)


# --------------------------------------------------------------------------- helpers


def _now():
    return timezone.now()


def _broadcast(group, message):
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:  # noqa: BLE001 - a broadcast failure must never undo a committed move
        log.exception("broadcast to %s failed", group)


def _after_commit_broadcast(table_id, version, round_end=None, refresh=False, origin=None):
    # Only the version (and public round results) travel through the group: each
    # consumer builds its own seat's view (ARCHITECTURE.md invariant 3).
    message = {"type": "table.update", "version": version, "refresh": refresh}
    if origin:
        message["origin"] = origin
    if round_end is not None:
        message["round_end"] = round_end
    transaction.on_commit(lambda: _broadcast(f"table-{table_id}", message))


def _after_commit_lobby():
    transaction.on_commit(lambda: _broadcast(LOBBY_GROUP, {"type": "lobby.update"}))


def _send_timer_task(kind, game_id, version, countdown):
    from games import tasks

    task = {"move": tasks.turn_timeout, "bot": tasks.bot_turn, "next_round": tasks.next_round}[kind]
    try:
        task.apply_async((game_id, version), countdown=max(0.0, countdown))
    except Exception:  # noqa: BLE001 - the sweeper re-arms what could not be sent
        log.exception("could not schedule %s for game %s", kind, game_id)


def _after_commit_timer(game):
    if not game.deadline_kind or game.deadline is None:
        return
    kind, gid, version, deadline = game.deadline_kind, game.pk, game.version, game.deadline
    transaction.on_commit(lambda: _send_timer_task(kind, gid, version, (deadline - _now()).total_seconds()))


def _lock_game(table_id):
    try:
        return Game.objects.select_for_update(no_key=True).get(table_id=table_id)
    except Game.DoesNotExist:
        raise ServiceError("not_found") from None


def _lock_game_by_id(game_id):
    return Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()


def _seats(table):
    return list(Seat.objects.filter(table=table).select_related("user", "user__player_settings", "table").order_by("index"))


def _user_seat(seats, user):
    """The Seat of `seats` that `user` sits in, or None."""
    return next((s for s in seats if s.user_id == user.pk), None)


def _bot_seed(round_seed, version, seat):
    # Never hand the round seed itself to a bot: it would re-deal the pile and racks.
    return hashlib.sha256(f"bot:{round_seed}:{version}:{seat}".encode()).hexdigest()[:16]


def _choose_computer_action(position, seat, level, seed):
    """One action for a computer at `seat`: `games.bots.choose_action` on the seat's view.

    Falls back to `_fallback_actions` when the bots package is missing or fails.
    Returns an action dict with "seat".
    """
    view = api.view(position, seat)
    try:
        from games.bots import choose_action

        action = dict(choose_action(view, level or "normal", seed))
        action["seat"] = seat
        return action
    except Exception:  # noqa: BLE001 - a failing bot must not stall the table
        log.exception("bot failed at seat %s; using the fallback", seat)
        return None


def _fallback_actions(position, seat):
    """Simplest legal-looking moves: draw when the phase asks for it, else each discard.

    Yields action dicts (with "seat"); the caller applies them until one is accepted.
    """
    if position.get("ruleset") == "rami" or position.get("phase") == "draw":
        yield {"seat": seat, "type": "draw"}
    rack = list(position["seats"][seat].get("rack", []))
    try:
        penalised = set(api.penalty_tiles(position, seat))
    except Exception:  # noqa: BLE001
        penalised = set()
    for tile in sorted(rack, key=lambda t: (t in penalised, t == "F")):
        yield {"seat": seat, "type": "discard", "tile": tile}


def _computer_step(position, seat, level, seed):
    """Apply one computer action for `seat`. Returns (action, new_position).

    Tries the bot's choice, then the fallbacks; raises `api.IllegalAction` only if no
    move at all is accepted (a broken position).
    """
    action = _choose_computer_action(position, seat, level, seed)
    if action is not None:
        try:
            return action, api.apply(position, action)
        except Exception as exc:  # noqa: BLE001 - IllegalAction, or an engine bug: fall back
            log.warning("bot action %s refused (%s); using the fallback", action, getattr(exc, "code", exc))
    last = None
    for candidate in _fallback_actions(position, seat):
        try:
            return candidate, api.apply(position, candidate)
        except api.IllegalAction as exc:
            last = exc
    raise last or api.IllegalAction("bad_action")


def _append_move(game, seat, action, actor, result="ok"):
    number = (Move.objects.filter(round=game.round).order_by("-number").values_list("number", flat=True).first() or 0) + 1
    Move.objects.create(
        round=game.round, number=number, seat=seat, action=action, result=result, actor=actor, version=game.version
    )


def _arm(game, table, seats, now, new_turn):
    """Set the game's timer for the seat to move in `game.position` (not saved here)."""
    position = game.position
    turn = position["turn"]
    seat = seats[turn]
    if new_turn:
        game.turn_started_version = game.version
    if seat.computer_plays:
        if new_turn:
            delay = settings.OKEY_BOT_DELAY * (3 if seat.autoplay else 1)
        else:
            delay = settings.OKEY_BOT_STEP_DELAY
        game.deadline_kind = Game.Deadline.BOT
        game.deadline = now + timedelta(seconds=delay)
    elif new_turn or game.deadline_kind != Game.Deadline.MOVE or game.deadline is None:
        game.deadline_kind = Game.Deadline.MOVE
        game.deadline = now + timedelta(seconds=table.move_time)
    game.turn = turn


def _round_end_payload(game, rnd, match, match_over):
    return {
        "version": game.version,
        "round_index": rnd.index,
        "scores": rnd.scores,
        "penalties": rnd.penalties,
        "round_totals": rnd.totals,
        "totals": match.totals,
        "result": rnd.result,
        "seed": rnd.seed,
        "commitment": rnd.commitment,
        "match_over": match_over,
        "standings": match.standings,
        "team_totals": api.team_totals(game.table.ruleset, game.table.options, match.totals),
        "penalty_events": rnd.penalty_events or [],
        "next_round_at": int(game.deadline.timestamp() * 1000) if game.deadline else None,
    }


def _finish_round(game, table, now):
    """Store the round's results, add them to the match totals, end the match or arm the next
    round. Returns the `round_end` payload (public data only)."""
    position = game.position
    rnd = game.round
    match = game.match
    rnd.final_position = position
    rnd.scores = api.round_scores(position)
    rnd.totals = api.round_totals(position)
    rnd.penalties = [seat.get("penalty", 0) for seat in position["seats"]]
    rnd.result = position.get("result")
    rnd.penalty_events = penalty_events.round_events(rnd)
    rnd.finished = now
    rnd.save()
    match.totals = [a + b for a, b in zip(match.totals, rnd.totals or [0] * table.players)]
    over = api.match_over(table.ruleset, table.options, table.players, match.totals, rnd.index + 1)
    if over:
        match.finished = now
        match.standings = match_standings(table, match.totals)
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
        game.deadline = None
        game.deadline_kind = Game.Deadline.NONE
        match_id = match.pk
        transaction.on_commit(lambda: _record_result(match_id))
        _after_commit_lobby()
    else:
        game.deadline = now + timedelta(seconds=settings.OKEY_NEXT_ROUND_DELAY)
        game.deadline_kind = Game.Deadline.NEXT_ROUND
    match.save()
    game.turn = None
    return _round_end_payload(game, rnd, match, over)


def match_standings(table, totals):
    """Seats best first (RULES.md §3, §6). okey51 teams: ranked by team totals
    (`api.team_totals`, lowest first), partners next to each other, the better seat total
    first within a team; otherwise `api.standings`. Returns list[int] of seat indexes."""
    teams = api.team_totals(table.ruleset, table.options, totals)
    if teams is None:
        return api.standings(table.ruleset, totals)
    return sorted(range(len(totals)), key=lambda s: (teams[s % 2], s % 2, totals[s], s))


def _record_result(match_id):
    import leaderboards

    try:
        leaderboards.record_result(Match.objects.get(pk=match_id))
    except Exception:  # noqa: BLE001
        log.exception("record_result failed for match %s", match_id)


def _commit_position(game, table, seats, new_position, entries):
    """Store an accepted `new_position` reached by `entries` [(seat, action, actor)]: bump the
    version, log the moves, end the round or re-arm the timer, save, broadcast after commit.
    Returns the `round_end` payload or None."""
    now = _now()
    old_turn = game.position["turn"] if game.position else None
    game.position = new_position
    game.version += 1
    for seat, action, actor in entries:
        _append_move(game, seat, action, actor)
    round_end = None
    if api.is_over(new_position):
        round_end = _finish_round(game, table, now)
    else:
        _arm(game, table, seats, now, new_turn=new_position["turn"] != old_turn)
    game.save()
    _after_commit_broadcast(table.pk, game.version, round_end)
    _after_commit_timer(game)
    return round_end


# ------------------------------------------------------------------ table management


def create_table(user, ruleset="okey51", options=None, mode=Table.Mode.ONLINE, move_time=None, assisted=False,
                 bot_level="normal"):
    """Create a table with `user` in seat 0 (RULES.md §6).

    Args: `ruleset` ("okey51" | "okey17" | "rami"), `options` (dict, RULES.md §7, normalized
    by the engine), `mode` ("solo": the other seats are computers and the match starts now;
    "online": seats stay free until joined or filled at start), `move_time` (seconds per
    turn, default settings.OKEY_DEFAULT_MOVE_TIME, D-16), `assisted` (bool), `bot_level`.
    Returns the Table. Raises ServiceError("bad_options").
    """
    try:
        options = api.normalize_options(ruleset, options or {})
    except (ValueError, KeyError, TypeError, NotImplementedError):
        raise ServiceError("bad_options") from None
    if mode not in Table.Mode.values:
        raise ServiceError("bad_options")
    players = SEATS_PER_RULESET.get(ruleset, 4)
    move_time = int(move_time or settings.OKEY_DEFAULT_MOVE_TIME)
    if not 5 <= move_time <= 600:
        raise ServiceError("bad_options")
    with transaction.atomic():
        table = Table.objects.create(
            ruleset=ruleset, options=options, mode=mode, creator=user, players=players,
            move_time=move_time, assisted=bool(assisted), bot_level=bot_level,
        )
        for index in range(players):
            Seat.objects.create(
                table=table, index=index, user=user if index == 0 else None,
                bot_level=bot_level if (mode == Table.Mode.SOLO and index) else "",
            )
        game = Game.objects.create(table=table)
        if mode == Table.Mode.SOLO:
            _start_match(game, table)
        else:
            _after_commit_lobby()
    return table


def _free_seat_order(table):
    # Two humans sit face to face (RULES.md §6): offer the opposite seat first.
    opposite = table.players // 2
    return sorted(range(table.players), key=lambda i: (i != opposite, i))


def join_table(user, table_id, seat_index=None):
    """Seat `user` at an open online table; returns the Seat (the same one if already seated).

    `seat_index` (int) asks for a given free seat; otherwise the seat facing the creator
    is taken first. Raises ServiceError("not_found" | "table_not_open" | "table_full" |
    "seat_taken").
    """
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        seats = _seats(table)
        for seat in seats:
            if seat.user_id == user.pk:
                return seat
        if table.status != Table.Status.OPEN or table.mode != Table.Mode.ONLINE:
            raise ServiceError("table_not_open")
        free = [s.index for s in seats if s.user_id is None and not s.bot_level]
        if not free:
            raise ServiceError("table_full")
        if seat_index is not None:
            if seat_index not in free:
                raise ServiceError("seat_taken")
            chosen = seat_index
        else:
            chosen = next(i for i in _free_seat_order(table) if i in free)
        seat = seats[chosen]
        seat.user = user
        seat.save(update_fields=["user"])
        _after_commit_broadcast(table.pk, game.version, refresh=True)
        _after_commit_lobby()
        return seat


def leave_table(user, table_id):
    """Leave an open table before its match starts. The creator leaving closes the table.

    Returns None. Raises ServiceError("not_found" | "table_not_open" | "not_seated").
    """
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        if table.status != Table.Status.OPEN:
            raise ServiceError("table_not_open")
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise ServiceError("not_seated")
        if table.creator_id == user.pk:
            table.status = Table.Status.CLOSED
            table.save(update_fields=["status"])
        else:
            seat.user = None
            seat.save(update_fields=["user"])
        _after_commit_broadcast(table.pk, game.version, refresh=True)
        _after_commit_lobby()


def start_match(user, table_id):
    """The creator starts the match: free seats get computers (`table.bot_level`), round 0 is
    dealt. Returns the Game. Raises ServiceError("not_found" | "not_creator" | "table_not_open")."""
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        if table.creator_id != user.pk:
            raise ServiceError("not_creator")
        if table.status != Table.Status.OPEN:
            raise ServiceError("table_not_open")
        Seat.objects.filter(table=table, user__isnull=True).update(bot_level=table.bot_level)
        _start_match(game, table)
        _after_commit_lobby()
        return game


def _start_match(game, table):
    match = Match.objects.create(
        table=table,
        seed=secrets.token_hex(16),
        totals=[0] * table.players,
        rounds_planned=api.match_length(table.ruleset, table.options, table.players),
    )
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    game.match = match
    _start_round(game, table, match, 0)


def _start_round(game, table, match, index):
    seed = match.round_seed(index)
    first = index % table.players
    position = api.deal(table.ruleset, table.options, seed, table.players, first)
    game.round = Round.objects.create(
        match=match, index=index, seed=seed, commitment=seed_commitment(seed), first=first,
        initial_position=position,
    )
    game.position = position
    game.version += 1
    seats = _seats(table)
    _arm(game, table, seats, _now(), new_turn=True)
    game.save()
    _after_commit_broadcast(table.pk, game.version)
    _after_commit_timer(game)


# --------------------------------------------------------------------- game actions


def submit_action(user, table_id, action, expected_version):
    """Play `action` (RULES.md §7, without or with "seat": the server sets it) for `user`.

    Checks in order (as boardgame.io's master): seated, match running, `expected_version`
    equals the game's version, then the engine. A refusal changes nothing, except an
    `IllegalAction.position` carrying a penalty that stays (okey17): that position is
    stored, the version bumped and the refused move logged.
    Returns Outcome(ok, version, code, round_end). Raises ServiceError("not_found").
    """
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        seats = _seats(table)
        seat = _user_seat(seats, user)
        if seat is None:
            return Outcome(False, game.version, "not_seated")
        if game.position is None:
            return Outcome(False, game.version, "not_started")
        if expected_version != game.version:
            return Outcome(False, game.version, "stale_version")
        played = dict(action)
        played["seat"] = seat.index
        try:
            new_position = api.apply(game.position, played)
        except api.IllegalAction as exc:
            if exc.position is None:
                return Outcome(False, game.version, exc.code)
            # A penalty that stays (RULES.md §4): keep it, log the refused move.
            game.position = exc.position
            game.version += 1
            _append_move(game, seat.index, played, Move.Actor.HUMAN, result=exc.code)
            game.save()
            _after_commit_broadcast(table.pk, game.version)
            return Outcome(False, game.version, exc.code)
        except Exception:  # noqa: BLE001 - an engine bug must refuse the action, not kill the socket
            log.exception("engine failed on %s at table %s", played, table.pk)
            return Outcome(False, game.version, "bad_action")
        if seat.autoplay or seat.consecutive_timeouts:
            seat.autoplay = False
            seat.consecutive_timeouts = 0
            seat.save(update_fields=["autoplay", "consecutive_timeouts"])
        round_end = _commit_position(game, table, seats, new_position, [(seat.index, played, Move.Actor.HUMAN)])
        return Outcome(True, game.version, None, round_end)


def _play_computer_turn(game, seats, seat_index, actor):
    """Play the rest of `seat_index`'s turn with the computer. Returns (position, entries)."""
    position = game.position
    entries = []
    seed_base = game.round.seed
    level = seats[seat_index].bot_level or game.table.bot_level
    for step in range(MAX_COMPUTER_STEPS):
        if api.is_over(position) or position["turn"] != seat_index:
            break
        action, position = _computer_step(position, seat_index, level, _bot_seed(seed_base, game.version, step))
        entries.append((seat_index, action, actor))
    else:
        # The bot kept acting without ending its turn: force the simplest end.
        for candidate in _fallback_actions(position, seat_index):
            try:
                position = api.apply(position, candidate)
                entries.append((seat_index, candidate, actor))
                if position["turn"] != seat_index or api.is_over(position):
                    break
            except api.IllegalAction:
                continue
    return position, entries


def expire_turn(game_id, version):
    """A human's move time ran out (Celery `turn_timeout`): the computer plays that turn.

    Does nothing (returns False) if the version moved on or the deadline is not a move
    deadline; re-arms if called early. Two timeouts in a row put the seat on autoplay
    (RULES.md §6). Returns True when it played.
    """
    with transaction.atomic():
        game = _lock_game_by_id(game_id)
        if game is None or game.version != version or game.deadline_kind != Game.Deadline.MOVE:
            return False
        now = _now()
        if game.deadline and game.deadline > now + timedelta(seconds=0.5):
            _after_commit_timer(game)  # fired early (clock skew): try again on time
            return False
        table = game.table
        seats = _seats(table)
        seat = seats[game.position["turn"]]
        seat.consecutive_timeouts += 1
        if seat.consecutive_timeouts >= 2:
            seat.autoplay = True
        seat.save(update_fields=["consecutive_timeouts", "autoplay"])
        position, entries = _play_computer_turn(game, seats, seat.index, Move.Actor.TIMEOUT)
        if not entries:
            return False
        _commit_position(game, table, seats, position, entries)
        return True


def run_bot_turn(game_id, version):
    """A computer (or a human seat on autoplay) plays one action (Celery `bot_turn`).

    Does nothing (returns False) if the version moved on or the timer is not a bot timer;
    if the seat is no longer computer-played it re-arms the human's move timer. The next
    action is armed by `_commit_position` (short delay inside a turn, OKEY_BOT_DELAY before
    a new turn). Returns True when it played.
    """
    with transaction.atomic():
        game = _lock_game_by_id(game_id)
        if game is None or game.version != version or game.deadline_kind != Game.Deadline.BOT:
            return False
        table = game.table
        seats = _seats(table)
        seat = seats[game.position["turn"]]
        if not seat.computer_plays:
            game.version += 1
            _arm(game, table, seats, _now(), new_turn=False)
            game.save()
            _after_commit_broadcast(table.pk, game.version)
            _after_commit_timer(game)
            return False
        actor = Move.Actor.COMPUTER if seat.is_computer else Move.Actor.TIMEOUT
        action, position = _computer_step(
            game.position, seat.index, seat.bot_level or table.bot_level,
            _bot_seed(game.round.seed, game.version, seat.index),
        )
        _commit_position(game, table, seats, position, [(seat.index, action, actor)])
        return True


def next_round(game_id, version):
    """Deal the next round of the match (Celery `next_round`, OKEY_NEXT_ROUND_DELAY after the
    last one ended). Does nothing (returns False) if the version moved on. The first seat
    rotates one seat per round (RULES.md §1)."""
    with transaction.atomic():
        game = _lock_game_by_id(game_id)
        if game is None or game.version != version or game.deadline_kind != Game.Deadline.NEXT_ROUND:
            return False
        table = game.table
        if table.status != Table.Status.PLAYING:
            return False
        _start_round(game, table, game.match, game.round.index + 1)
        return True


def close_table(table_id, reason, by=None):
    """Close a table (open or playing) for moderation: no more moves, timers stop.

    Args: `table_id` (int), `reason` (str, required: logged and shown to the table's
    players as a chat line), `by` (the staff user or None). A finished match stays finished
    (and rated); an unfinished one is never rated. Returns True when the table was closed
    now, False when it was already finished or closed. Raises ValueError on an empty
    reason, ServiceError("not_found").
    """
    if not (reason or "").strip():
        raise ValueError("closing a table needs a reason")
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
            return False
        table.status = Table.Status.CLOSED
        table.closed_reason = reason.strip()[:300]
        table.save(update_fields=["status", "closed_reason"])
        game.deadline = None
        game.deadline_kind = Game.Deadline.NONE
        game.version += 1
        game.save(update_fields=["deadline", "deadline_kind", "version"])
        log.info("table %s closed by %s: %s", table_id, by, reason)
        _after_commit_broadcast(table.pk, game.version, refresh=True)
        _after_commit_lobby()
    if by is not None:
        from games.chat import system_line

        system_line(table_id, by, reason)
    return True


def release_seats(user, reason):
    """A suspended or banned `user` loses their seats (issue 5 "Moderation").

    Their solo tables (open or playing) are closed with `reason` (`close_table`); on online
    tables still open they leave (`leave_table`: a creator leaving closes the table); on
    online tables being played their seat goes on autoplay, so the computer plays it from
    now on and the other players' match goes on (RULES.md §6 autoplay). The seat stays
    theirs on record (match results) but they cannot take it back while sanctioned: their
    sockets are refused.

    Args: `user` (the sanctioned user), `reason` (str, the sanction's reason).
    Returns {"closed": [table ids], "left": [table ids], "autoplay": [table ids]}.
    """
    done = {"closed": [], "left": [], "autoplay": []}
    active = [Table.Status.OPEN, Table.Status.PLAYING]
    table_ids = list(Seat.objects.filter(user=user, table__status__in=active)
                     .values_list("table_id", "table__mode", "table__status").distinct())
    for table_id, mode, status in table_ids:
        if mode == Table.Mode.SOLO:
            if close_table(table_id, reason):
                done["closed"].append(table_id)
        elif status == Table.Status.OPEN:
            try:
                leave_table(user, table_id)
                done["left"].append(table_id)
            except ServiceError:
                pass  # the match started meanwhile: handled on the next sanction check
        elif _seat_to_autoplay(user, table_id):
            done["autoplay"].append(table_id)
    return done


def _seat_to_autoplay(user, table_id):
    """Put `user`'s seat at a playing table on autoplay; re-arm the timer when it is their
    turn so the computer moves soon. Returns True when the seat changed."""
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        if table.status != Table.Status.PLAYING:
            return False
        seats = _seats(table)
        seat = _user_seat(seats, user)
        if seat is None or seat.autoplay:
            return False
        seat.autoplay = True
        seat.save(update_fields=["autoplay"])
        game.version += 1
        if game.position and game.position.get("turn") == seat.index:
            _arm(game, table, seats, _now(), new_turn=False)
        game.save()
        _after_commit_timer(game)
        _after_commit_broadcast(table.pk, game.version, refresh=True)
        return True


def set_connected(user, table_id, connected, origin=None):
    """Count a socket of `user` at the table opening (`connected` True) or closing.

    The last socket closing during a match puts the seat on autoplay (the computer plays
    from the next timeout on); a socket opening gives the seat back (RULES.md §6).
    `origin` (a consumer's channel name) travels with the broadcast so the socket that
    connected, which already sent its snapshot, does not send it twice.
    Returns the seat index, or None when `user` is not seated.
    """
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        seats = _seats(table)
        seat = _user_seat(seats, user)
        if seat is None:
            return None
        playing = table.status == Table.Status.PLAYING
        before = (seat.connected, seat.autoplay)
        if connected:
            seat.connections += 1
            give_back = seat.autoplay
            seat.autoplay = False
            seat.consecutive_timeouts = 0
        else:
            seat.connections = max(0, seat.connections - 1)
            give_back = False
            if playing and seat.connections == 0:
                seat.autoplay = True
        seat.save(update_fields=["connections", "autoplay", "consecutive_timeouts"])
        if give_back and playing and game.position and game.deadline_kind == Game.Deadline.BOT \
                and game.position.get("turn") == seat.index:
            game.version += 1
            _arm(game, table, seats, _now(), new_turn=False)
            game.save()
            _after_commit_timer(game)
        if (seat.connected, seat.autoplay) != before:  # a second tab changes nothing others see
            _after_commit_broadcast(table.pk, game.version, refresh=True, origin=origin)
        return seat.index


def resume_seat(user, table_id):
    """The player takes the seat back from autoplay (PROTOCOL.md `resume`). Returns the seat
    index or None when not seated."""
    with transaction.atomic():
        game = _lock_game(table_id)
        table = game.table
        seats = _seats(table)
        seat = _user_seat(seats, user)
        if seat is None:
            return None
        if seat.autoplay or seat.consecutive_timeouts:
            seat.autoplay = False
            seat.consecutive_timeouts = 0
            seat.save(update_fields=["autoplay", "consecutive_timeouts"])
            if game.position and game.deadline_kind == Game.Deadline.BOT and game.position.get("turn") == seat.index:
                game.version += 1
                _arm(game, table, seats, _now(), new_turn=False)
                game.save()
                _after_commit_timer(game)
            _after_commit_broadcast(table.pk, game.version, refresh=True)
        return seat.index


def sweep(startup=False):
    """Re-arm overdue timers (the backstop of ARCHITECTURE.md invariant 5).

    `startup` True re-arms every pending deadline (memory-broker tasks die with the
    process); otherwise only deadlines more than 2 s overdue. Returns the number armed.
    """
    now = _now()
    games = Game.objects.filter(deadline__isnull=False, table__status=Table.Status.PLAYING).exclude(deadline_kind="")
    if not startup:
        games = games.filter(deadline__lt=now - timedelta(seconds=2))
    count = 0
    for game_id, kind, version, deadline in games.values_list("pk", "deadline_kind", "version", "deadline"):
        _send_timer_task(kind, game_id, version, (deadline - now).total_seconds())
        count += 1
    return count


# ------------------------------------------------------------------------ read side


def _epoch_ms(dt):
    return int(dt.timestamp() * 1000) if dt else None


def computer_label(index, level):
    """A computer seat's name in the active language, numbered by seat like every page
    (seat index 1 -> "Computer 2 · normal"). Args: `index` (0-based seat), `level` (bot level id)."""
    from games.models import BOT_LEVEL_CHOICES

    levels = dict(BOT_LEVEL_CHOICES)
    return gettext("Computer %(number)s · %(level)s") % {
        "number": index + 1, "level": levels.get(level, level)}


def players_info(seats):
    """Per seat: {"name" (display name; a computer's is `computer_label`, translated in the
    active language), "user" (username), "computer" (bot level or None), "connected",
    "autoplay", "empty", "team" (okey51 teams: 0 for seats 0+2, 1 for seats 1+3; else None)}."""
    from accounts.player_settings import display_name

    out = []
    for seat in seats:
        if seat.user_id:
            out.append({"name": display_name(seat.user), "user": seat.user.get_username(), "computer": None,
                        "connected": seat.connected, "autoplay": seat.autoplay, "empty": False})
        elif seat.bot_level:
            out.append({"name": computer_label(seat.index, seat.bot_level), "user": None,
                        "computer": seat.bot_level, "connected": True, "autoplay": False, "empty": False})
        else:
            out.append({"name": None, "user": None, "computer": None, "connected": False, "autoplay": False,
                        "empty": True})
    if seats:
        teams = api.team_totals(seats[0].table.ruleset, seats[0].table.options, [0] * len(seats)) is not None
        for index, info in enumerate(out):
            info["team"] = index % 2 if teams else None
    return out


def snapshot(table_id, user, language=None):
    """Build the view one socket may see (PROTOCOL.md "The view"). Read-only.

    Returns (version, view, seat_index). `view` = `api.view(position, seat)` plus
    version, deadline (epoch ms), deadline_kind, players, totals, table_id, round_index,
    rounds, status, commitment, seed (only once the round is over), assisted, move_time,
    team_totals (okey51 teams, else None), round_end (once the round is over, with
    penalty_events) and, on assisted tables only, penalty_tiles for the viewer's own seat
    (`api.penalty_tiles`, RULES.md §6; never another seat's). `language` (a LANGUAGES code)
    translates the computer names. Never another seat's rack, never the pile.
    Raises ServiceError("not_found").
    """
    if language:
        with translation.override(language):
            return snapshot(table_id, user)
    try:
        game = Game.objects.select_related("table", "match", "round").get(table_id=table_id)
    except Game.DoesNotExist:
        raise ServiceError("not_found") from None
    table = game.table
    seats = _seats(table)
    seat_index = next((s.index for s in seats if user is not None and s.user_id == getattr(user, "pk", None)), None)
    if game.position is not None:
        view = dict(api.view(game.position, seat_index))
    else:
        view = {"ruleset": table.ruleset, "options": table.options, "seat": seat_index}
    rnd = game.round
    match = game.match
    view.update(
        {
            "version": game.version,
            "table_id": table.pk,
            "status": table.status,
            "mode": table.mode,
            "assisted": table.assisted,
            "move_time": table.move_time,
            "deadline": _epoch_ms(game.deadline),
            "deadline_kind": game.deadline_kind or None,
            "players": players_info(seats),
            "totals": match.totals if match else [0] * table.players,
            "round_index": rnd.index if rnd else None,
            "rounds": match.rounds_planned if match else api.match_length(table.ruleset, table.options, table.players),
            "commitment": rnd.commitment if rnd else None,
            "seed": rnd.seed if rnd and rnd.is_over else None,
            "creator_seat": 0,
            "team_totals": api.team_totals(table.ruleset, table.options,
                                           match.totals if match else [0] * table.players),
        }
    )
    if table.assisted and seat_index is not None and game.position is not None and not api.is_over(game.position):
        try:
            view["penalty_tiles"] = list(api.penalty_tiles(game.position, seat_index))
        except Exception:  # noqa: BLE001 - a display aid must never break the snapshot
            log.exception("penalty_tiles failed at table %s", table.pk)
            view["penalty_tiles"] = []
    if rnd and rnd.is_over:
        view["round_end"] = {
            "round_index": rnd.index, "scores": rnd.scores, "penalties": rnd.penalties,
            "round_totals": rnd.totals, "totals": match.totals, "standings": match.standings,
            "team_totals": view["team_totals"], "penalty_events": rnd.penalty_events or [],
            "match_over": match.finished is not None,
        }
    return game.version, view, seat_index


def open_tables():
    """Open online tables for the lobby: list of dicts {id, ruleset, ruleset_name, options, creator,
    move_time, assisted, seats_taken, players}."""
    from accounts.player_settings import display_name

    tables = Table.objects.filter(status=Table.Status.OPEN, mode=Table.Mode.ONLINE).select_related(
        "creator", "creator__player_settings")
    out = []
    for table in tables[:100]:
        taken = Seat.objects.filter(table=table, user__isnull=False).count()
        out.append({
            "id": table.pk, "ruleset": table.ruleset, "ruleset_name": table.ruleset_name, "options": table.options,
            "creator": display_name(table.creator), "move_time": table.move_time,
            "assisted": table.assisted, "seats_taken": taken, "players": table.players,
        })
    return out
