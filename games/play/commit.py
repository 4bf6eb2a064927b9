"""The one commit path of a stored game (ARCHITECTURE.md invariants 2 and 5).

Every change to a game runs inside `locked(table_id)` or `locked_timer(game_id, version,
kind)`: one transaction that locks the `Game` row (`select_for_update(no_key=True)`) and
checks the version (SQLite ignores row locks, the version check does not). Inside it,
`Write.commit()` is the only code in the project that bumps `Game.version`, appends
`Move`s (each with the penalty events of its engine step), arms or clears the deadline,
finishes a round whose position is over, and schedules with `transaction.on_commit` the
broadcast, the timer task of a new deadline and, when a match ends, its recording.

A timer task is armed for one deadline (`timer_args`: the game and the deadline's
token) and does nothing when it fires after the game's deadline moved on to another
one. A version that keeps its deadline (a draw inside a turn, a seat's player coming
back, a seed arriving) sends no timer: the one already on its way plays the turn when
the deadline comes, on the position of that moment.

Each version's views are built once, here, inside the transaction, from the position
and rows the writer holds (`snapshot.version_views`): every seated user's view goes to
that user's own group at the table (`seat_group`), the public view to the table group for
the spectators (ARCHITECTURE.md invariant 3: a view is built for one seat and sent only to
that seat). Sockets forward what they receive instead of reading the game back.
"""
import logging
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import history, snapshot
from games.engine import api
from games.errors import TableError
from games.models import Game, Match, Move, Seat, Table
from games.play import broadcast, lobby, prepared, rounds
from games.play.prepared import Prepared
from games.play.timers import send_timer, timer_args
from leaderboards.recording import record_result
from okeysite.operations import logs

log = logging.getLogger("games.play")

def seat_group(table_id, user_id):
    """Channels group of one user's sockets at one table (str): their seat's view only."""
    return f"table-{table_id}-user-{user_id}"


@dataclass(frozen=True)
class Played:
    """One action to log: `seat` (int), `action` (RULES.md §7 dict with "seat"), `actor`
    (a `Move.Actor`) and `step` (the engine's `api.Step` of that action)."""

    seat: int
    action: dict
    actor: str
    step: api.Step = field(repr=False)


class Write:
    """One locked game inside its transaction: read `game`, `table`, `seats`, change seats
    or the table as needed, then `commit()` (or `notify()` when the version stays)."""

    def __init__(self, game):
        self.game = game
        self._round_before = game.round_id
        self._turn_before = game.position["turn"] if game.position else None
        self._version_before = game.version  # committed: the row is locked at it
        self._timer_sent = (game.deadline_kind, game.deadline)  # the deadline whose timer is on its way
        self.views = None  # (public view or None, {seat index: (user id, view)}) of the last broadcast

    @cached_property
    def table(self):
        """The game's Table (the same instance for the whole transaction)."""
        return self.game.table

    @cached_property
    def seats(self):
        """The table's Seats in seat order, with their users and display settings."""
        return _SEATS.fetch(self.game.table_id)

    def seat_of(self, user):
        """The Seat `user` sits in, or None (a spectator, anonymous, or a player who left the
        match: a computer plays that seat for good, its sockets change nothing)."""
        return next((s for s in self.seats if user is not None and s.user_id == user.pk and not s.left), None)

    def is_current(self, version):
        """True when the client's `version` (int) is the game's version now."""
        return version == self.game.version

    # ----------------------------------------------------------------- writing

    def commit(self, position=None, played=(), refresh=False, origin=None):
        """Store one change of the game.

        Args: `position` (the new engine position, or None to keep the stored one),
        `played` (the `Played` actions that led to it, logged as `Move`s in order: result
        "ok" when accepted, else the refusal code of a penalty that stays), `refresh`
        (the sockets re-read seats and players even at a version they have), `origin` (a
        consumer's channel name that already has this state).
        Bumps the version, logs the moves, finishes the round when `position` ended it
        (`rounds.finish_round`), arms or clears the deadline (`_arm`), saves, and
        schedules the broadcast, the timer and a finished match's recording after commit.
        Returns the public round-end frame (`snapshot.round_end_frame`) when this change
        ended the round, else None.
        """
        game, table = self.game, self.table
        now = timezone.now()
        if position is not None:
            game.position = position
        game.version += 1
        self._log(played)
        ended = game.position is not None and api.is_over(game.position) and not game.round.is_over
        if ended:
            rounds.finish_round(game, table, now)
        self._arm(now, ended, any(p.actor != Move.Actor.HUMAN for p in played))
        prepared.save_row(game)
        round_end = snapshot.round_end_frame(game, table) if ended else None
        self._after_commit(refresh, origin, round_end, ended and game.match.finished is not None)
        return round_end

    def notify(self, refresh=True, origin=None):
        """Tell the table's sockets that seats or players changed while the version stays
        (a seat taken or left before the match, a connection opened or closed)."""
        self._broadcast(refresh, origin, None)

    def view_of(self, seat_index):
        """The view of `seat_index` this transaction broadcast (dict), or None."""
        if self.views is None or seat_index not in self.views[1]:
            return None
        return self.views[1][seat_index][1]

    def lobby_changed(self):
        """Tell the lobby sockets that the list of open tables changed: after commit, the
        list is read once and sent, already serialised in each site language, to every
        lobby socket (`lobby.send_lobby`). Several calls in one transaction send it once."""
        if getattr(self, "_lobby_scheduled", False):
            return
        self._lobby_scheduled = True
        transaction.on_commit(lobby.send_lobby)

    def open_seeding(self, deadline):
        """Open the seeding window of the next deal (`games.play.seeding`) until `deadline`
        (aware datetime): the `seed` deadline, a version bump whose snapshots carry the
        window (`refresh`), and its timer; `_arm` keeps that deadline until the deal."""
        self._set_deadline(Game.Deadline.SEED, deadline, turn=None)
        self.commit(refresh=True)

    def end_seeding(self):
        """The seeding window is over (its round is being dealt, or it has nothing left to
        deal): the next `commit` arms the deadline of the state it reaches."""
        self._set_deadline(Game.Deadline.NONE, None, turn=None)

    def resend_timer(self):
        """Send the stored deadline's timer again (it fired early)."""
        self._schedule_timer(again=True)

    def _log(self, played):
        # The round's recent rows are read once (they number the new moves and count their
        # draws) and, with the new moves appended, are the rows of this version's views.
        if not played:
            return
        round_id = self.game.round_id
        rows = snapshot.recent_moves(round_id, committed=self._version_before)
        number, draws = (rows[-1]["number"], rows[-1]["draw_no"]) if rows else (0, 0)
        moves = []
        for p in played:
            number += 1
            draws += p.action.get("type") == "draw"
            moves.append(Move(round_id=round_id, number=number, seat=p.seat, action=p.action,
                              result="ok" if p.step.accepted else p.step.code, actor=p.actor,
                              version=self.game.version, events=p.step.events(), draw_no=draws))
        prepared.insert_rows(moves)
        rows = rows + [{name: getattr(move, name) for name in snapshot.MOVE_FIELDS} for move in moves]
        self._moves = (round_id, rows[-(history.LIMIT + 1):])

    def _arm(self, now, round_ended, computer_acted):
        """Set the one deadline for the state just reached (ARCHITECTURE.md invariant 5).

        No deadline once the table stopped (closed, match finished) or before a deal; an
        open seeding window keeps its `seed` deadline (the deal clears it first). A
        round just over: the next round's deal after OKEY_NEXT_ROUND_DELAY. A new turn:
        a computer-played seat moves after OKEY_BOT_DELAY (three times that on autoplay,
        so the player can come back), a human gets the table's move time (D-16). Within a
        turn the deadline stays while it fits who plays the seat to move; when a computer
        takes the seat over within the turn (a suspended player, a seat put on autoplay)
        it plays OKEY_BOT_STEP_DELAY later (a computer plays its whole turn in one
        commit, `turns.run_bot_turn`), except for a player whose last socket just closed
        in their own turn at an online table (RULES.md §6; a solo table waits for its
        player, `presence`): the computer plays it after OKEY_DISCONNECT_GRACE (never later
        than the player's clock), so the others do not wait out the move time. A human
        taking the seat back before the computer acted in the turn keeps the clock of the
        turn (the move time from the turn's start); after the computer acted, a full move
        time. A practice table has no move clock: a human's turn has no deadline.
        """
        game, table = self.game, self.table
        position = game.position
        if table.status == Table.Status.PLAYING and game.deadline_kind == Game.Deadline.SEED:
            return  # a seeding window keeps its deadline until the deal (games.play.seeding)
        if table.status != Table.Status.PLAYING or position is None:
            self._set_deadline(Game.Deadline.NONE, None, turn=None)
        elif api.is_over(position):
            if round_ended or game.deadline_kind != Game.Deadline.NEXT_ROUND:
                self._set_deadline(Game.Deadline.NEXT_ROUND, now + timedelta(seconds=settings.OKEY_NEXT_ROUND_DELAY),
                                   turn=None)
        else:
            turn = position["turn"]
            seat = self.seats[turn]
            new_turn = game.round_id != self._round_before or turn != self._turn_before
            kind = Game.Deadline.BOT if seat.computer_plays else Game.Deadline.MOVE
            fits = game.deadline_kind == kind and game.deadline is not None
            deadline = game.deadline
            if seat.computer_plays and new_turn:
                waits_for_return = seat.autoplay and not seat.left  # a player who left never comes back
                deadline = now + timedelta(seconds=settings.OKEY_BOT_DELAY * (3 if waits_for_return else 1))
            elif (seat.computer_plays and not fits and not computer_acted and not seat.is_computer
                  and not seat.connected):
                deadline = now + timedelta(seconds=settings.OKEY_DISCONNECT_GRACE)
                if game.deadline_kind == Game.Deadline.MOVE and game.deadline is not None:
                    deadline = min(deadline, game.deadline)
            elif seat.computer_plays:
                if computer_acted or not fits:
                    deadline = now + timedelta(seconds=settings.OKEY_BOT_STEP_DELAY)
            elif not new_turn and not computer_acted and game.deadline_kind == Game.Deadline.BOT:
                deadline = max(now, self._turn_clock(turn) or now + timedelta(seconds=table.move_time))
            elif new_turn or computer_acted or not fits:
                deadline = now + timedelta(seconds=table.move_time)
            if kind == Game.Deadline.MOVE and table.practice:
                kind, deadline = Game.Deadline.NONE, None  # practice: the player thinks as long as they like
            self._set_deadline(kind, deadline, turn)

    def _turn_clock(self, turn):
        # The move deadline seat `turn` had in this turn: the move time from the turn's
        # start (the commit of the move that passed the turn, else the deal), or None once
        # a computer acted for the seat in this turn (the returning player then gets a
        # full move time). A turn has fewer moves than the rows read here.
        rows = (Move.objects.filter(round_id=self.game.round_id).order_by("-number")
                .values_list("seat", "actor", "created")[:200])
        start = self.game.round.started
        for seat, actor, created in rows:
            if seat != turn:
                start = created
                break
            if actor != Move.Actor.HUMAN:
                return None
        return start + timedelta(seconds=self.table.move_time)

    def _set_deadline(self, kind, deadline, turn):
        self.game.deadline_kind = kind
        self.game.deadline = deadline
        self.game.turn = turn

    # ------------------------------------------------------------- after commit

    def _broadcast(self, refresh, origin, round_end):
        # Built now, inside the transaction, so the views show exactly what commits.
        logged = getattr(self, "_moves", None)
        moves = logged[1] if logged and logged[0] == self.game.round_id else None
        # The public view is built only for a table someone watches: spectators, or a
        # player who left the match. Without one, the table group hears of the version
        # without a view, and a spectator who arrived meanwhile reads its snapshot itself.
        watched = self.table.spectators > 0 or any(s.user_id and s.left for s in self.seats)
        self.views = public, own = snapshot.version_views(self.game, self.table, self.seats, moves, watched)
        update = _update(self.game.version, refresh, origin, round_end)
        # Each view travels serialised, its computers named in the language its sockets most
        # likely use: a socket of that language forwards the text without decoding it.
        default = settings.LANGUAGE_CODE
        seen = dict(update, seated=[uid for uid, _v in own.values()])
        if public is not None:
            seen.update(text=snapshot.view_text(public, default), lang=default)
        messages = [(self.table.group_name, seen)]
        for index, (uid, view) in own.items():
            lang = snapshot.seat_language(self.seats[index])
            text = snapshot.view_text(view, lang)
            messages.append((seat_group(self.table.pk, uid), dict(update, type="table.view", text=text, lang=lang,
                                                                  seat=index, to_move=snapshot.seat_to_move(view))))
        _on_commit_send(messages)

    def _after_commit(self, refresh, origin, round_end, match_finished):
        self._broadcast(refresh, origin, round_end)
        self._schedule_timer()
        if match_finished:
            match_id = self.game.match_id
            transaction.on_commit(lambda: _record(match_id))
            self.lobby_changed()  # the lobby lists running matches to watch: this one is over

    def _schedule_timer(self, again=False):
        # Only a new deadline needs a timer: the one sent for the deadline that stays fires
        # on time and plays the position it finds then.
        game = self.game
        armed = (game.deadline_kind, game.deadline)
        if not game.deadline_kind or game.deadline is None or (armed == self._timer_sent and not again):
            return
        self._timer_sent = armed
        kind, args, deadline = game.deadline_kind, timer_args(game), game.deadline
        transaction.on_commit(lambda: send_timer(kind, args, deadline))


def _for_write():
    # The game row locked, its table, match and round read in the same query (only the
    # game row is locked: `of`).
    return Game.objects.select_related("table", "match", "round").select_for_update(no_key=True, of=("self",))


# Read on every version: compiled once per thread (games.play.prepared).
_LOCK_BY_TABLE = Prepared(lambda table_id: _for_write().filter(table_id=table_id))
_LOCK_BY_GAME = Prepared(lambda game_id: _for_write().filter(pk=game_id))
_SEATS = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id)
                  .select_related("user", "user__player_settings").order_by("index"))
# A timer's deadline read without a lock or a transaction: most timers find theirs moved on
# (every human move leaves its move timer to fire for nothing), and a deadline that moved
# on never comes back, so those are dropped before the locked read.
_DEADLINE = Prepared(lambda game_id: Game.objects.filter(pk=game_id).only("deadline_kind", "deadline"))


@contextmanager
def locked(table_id):
    """`with locked(table_id) as write:` one transaction holding the game row of table
    `table_id` locked; yields its `Write`. An exception inside rolls everything back.
    Raises TableError("not_found")."""
    with transaction.atomic():
        game = _LOCK_BY_TABLE.get(table_id)
        if game is None:
            raise TableError("not_found")
        with logs.bound(table=game.table_id, version=game.version):
            yield Write(game)


@contextmanager
def locked_timer(game_id, token, kind):
    """`with locked_timer(game_id, token, kind) as write:` the game row locked for a
    timer task armed for the `kind` deadline (a `Game.Deadline`) whose `deadline_token` is
    `token` (int); yields None when the game is gone or its deadline moved on to another
    one (a late or duplicate task does nothing, ARCHITECTURE.md invariant 5)."""
    if not _armed(_DEADLINE.get(game_id), token, kind):
        yield None  # moved on before the lock: no transaction at all
        return
    with transaction.atomic():
        game = _LOCK_BY_GAME.get(game_id)
        if not _armed(game, token, kind):
            yield None
        else:
            with logs.bound(table=game.table_id, version=game.version):
                yield Write(game)


def _armed(game, token, kind):
    # Still the deadline the timer task was sent for: the same kind, the same instant.
    return game is not None and game.deadline_kind == kind and timer_args(game)[1] == token


def send_to_table(table, message):
    """Send group `message` (a dict with a Channels "type") to `table`'s sockets after
    commit; public data only (ARCHITECTURE.md invariant 3)."""
    _on_commit_send([(table.group_name, message)])


def _update(version, refresh, origin, round_end):
    message = {"type": "table.update", "version": version, "refresh": refresh}
    if origin:
        message["origin"] = origin
    if round_end is not None:
        message["round_end"] = round_end
    return message


def _on_commit_send(messages):
    def send():
        try:
            broadcast.send(messages)
        except Exception:  # noqa: BLE001 - a broadcast failure must never undo a committed move
            log.exception("broadcast to %s failed", messages[0][0])

    transaction.on_commit(send)


def _record(match_id):
    # The match is committed and marked finished: if this fails or never runs (a crash
    # right after the commit), the sweeper records it (`leaderboards.recording.record_pending`).
    try:
        record_result(Match(pk=match_id))
    except Exception:  # noqa: BLE001
        log.exception("recording match %s failed; the sweeper will retry", match_id)
