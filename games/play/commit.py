"""The one commit path of a stored game (ARCHITECTURE.md invariants 2 and 5).

Every change to a game runs inside `locked(table_id)` or `locked_timer(game_id, version,
kind)`: one transaction that locks the `Game` row and its `Table` row
(`select_for_update(no_key=True)`), so whatever starts, fills or offers a table reads the
table's status as the writer before it left it, and checks the version (SQLite ignores row
locks, its IMMEDIATE transactions let one writer in at a time, and the version check
holds either way). Inside it,
`Write.commit()` is the only code in the project that bumps `Game.version`, appends
`Move`s (each with the penalty events of its engine step), arms or clears the deadline,
finishes a round whose position is over, and schedules with `transaction.on_commit` the
broadcast, the timer task of a new deadline and, when a match ends, its recording.

A timer task is armed for one deadline (`timer_args`: the game and the deadline's
token) and does nothing when it fires after the game's deadline moved on to another
one. The writer sends the timer of a new deadline due soon (`timers.due_soon`) and
marks it sent (`Game.timer_sent`); a later one is the sweep's to send once it is due
soon (`send_due_timer`). A version that keeps its deadline (a draw inside a turn, a
seat's player coming back, a seed arriving) sends no timer: the one on its way, or the
sweep's, plays the turn when the deadline comes, on the position of that moment.

Each version's views are built once, here, from the position and rows the writer holds
(`snapshot.version_views`), right after the commit and outside the lock: the lock is held
only for reading and writing rows, and the writer's objects are the committed state, so
nothing is read again (a second version in the same transaction has the first one's
views built before it changes anything). Every seated user's view goes to
that user's own group at the table (`socket_groups.seat_group`), the public view to the
table group for the spectators (ARCHITECTURE.md invariant 3: a view is built for one seat and sent only to
that seat). Sockets forward what they receive instead of reading the game back. A human's
move is the exception: its socket sends the actor's view itself, as the writer serialised
it (`text_of`, once the transaction committed), and the seat group hears of it only when
that seat has another socket.
"""
import logging
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import history, prepared, seeding_state, snapshot
from games.engine import api
from games.errors import TableError
from games.models import Game, Match, Move, Round, Seat, Table
from games.play import lobby, rounds, timers
from games.play.timers import send_timer, timer_args
from games.prepared import Prepared
from leaderboards.recording import record_result
from okeysite import socket_groups
from okeysite.celery import app as celery_app
from okeysite.operations import logs

log = logging.getLogger("games.play")

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
        self._armed_before = (game.deadline_kind, game.deadline)
        self.texts = {}  # {seat index: (serialised view, its language)} of the last broadcast
        self._pending = None  # the broadcast of a version committed here whose views are not built yet

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

    def commit(self, position=None, played=(), refresh=False, origin=None, delivered=None):
        """Store one change of the game.

        Args: `position` (the new engine position, or None to keep the stored one),
        `played` (the `Played` actions that led to it, logged as `Move`s in order: result
        "ok" when accepted, else the refusal code of a penalty that stays), `refresh`
        (the sockets re-read seats and players even at a version they have), `origin` (a
        consumer's channel name that already has this state), `delivered` (the seat index
        whose acting socket sends this version's view itself, `text_of`: its seat group
        gets the view only when that seat has another socket open).
        Bumps the version, logs the moves, finishes the round when `position` ended it
        (`rounds.finish_round`), arms or clears the deadline (`_arm`), saves, and
        schedules the broadcast, the timer and a finished match's recording after commit.
        Returns the public round-end frame (`snapshot.round_end_frame`) when this change
        ended the round, else None.
        """
        self._publish()  # an earlier version of this transaction is built before this one changes it
        game, table = self.game, self.table
        now = timezone.now()
        if position is not None:
            game.position = position
        game.version += 1
        self._log(played)
        self._count_away(played)
        ended = game.position is not None and api.is_over(game.position) and not game.round.is_over
        if ended:
            rounds.finish_round(game, table, now, self.seats)
        self._arm(now, ended, any(p.actor != Move.Actor.HUMAN for p in played))
        timer = self._timer_due(now)
        prepared.save_row(game)
        round_end = snapshot.round_end_frame(game, table, self.seats) if ended else None
        self._after_commit(refresh, origin, round_end, ended and game.match.finished is not None, delivered)
        if timer is not None:
            transaction.on_commit(lambda: send_timer(*timer))
        if ended:
            round_id = game.round_id
            transaction.on_commit(lambda: _send_review(round_id))
        return round_end

    def notify(self, refresh=True, origin=None):
        """Tell the table's sockets that seats or players changed while the version stays
        (a seat taken or left before the match, a connection opened or closed)."""
        self._publish()
        self._broadcast(refresh, origin, None)

    def text_of(self, seat_index):
        """The view of `seat_index` this transaction broadcast, as it was serialised for its
        seat group: (text (str, `snapshot.view_text`), language its computers are named in,
        whether it shows that seat to move (`snapshot.seat_to_move`)), or None (also before
        the transaction committed: the views are built after the commit). The actor's
        socket sends it as it is: a view is serialised once."""
        return self.texts.get(seat_index)

    def lobby_changed(self):
        """Tell the lobby sockets that the list of open tables changed: after commit, the
        list is read once and sent, already serialised in each site language, to every
        lobby socket (`lobby.send_lobby`). Several calls in one transaction send it once."""
        if getattr(self, "_lobby_scheduled", False):
            return
        self._lobby_scheduled = True
        lobby.changed()

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
        """The stored deadline's timer fired early: send it again after commit when the
        deadline is due soon, else leave it to the sweep that finds it due soon."""
        game = self.game
        if not timers.due_soon(game.deadline, timezone.now()):
            game.timer_sent = None
            Game.objects.filter(pk=game.pk).update(timer_sent=None)
            return
        args = (game.deadline_kind, timer_args(game), game.deadline)
        transaction.on_commit(lambda: send_timer(*args))

    def _log(self, played):
        # The round's recent rows are read once (they number the new moves and count their
        # draws) and, with the new moves appended, are the rows of this version's views.
        if not played:
            return
        round_id = self.game.round_id
        logged = getattr(self, "_moves", None)
        if logged is not None and logged[0] == round_id:
            rows = logged[1]  # an earlier version of this transaction logged the round's latest rows
        else:
            rows = snapshot.recent_moves(round_id, committed=self._version_before, current=logged is None)
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
        kept = rows[-(history.LIMIT + 1):]
        self._moves = (round_id, kept)
        # once committed, these are the round's latest rows: this process's next writer
        # at this table reads none (a later version of this transaction keeps its own)
        transaction.on_commit(lambda: snapshot.keep_moves(round_id, kept))

    def _count_away(self, played):
        # Leaving by absence (games.results): a turn of a human's seat that ends with no
        # socket of theirs at the table counts one more towards having left; the player
        # acting shows they are there and starts the count again. A solo table waits for
        # its player (presence) and closes when they leave: nobody leaves it by absence.
        if not played or self.table.mode != Table.Mode.ONLINE:
            return
        seat = self.seats[played[-1].seat]
        if not seat.user_id or seat.left:
            return
        if any(p.seat == seat.index and p.actor == Move.Actor.HUMAN for p in played):
            away = 0
        else:
            position = self.game.position
            ended = api.is_over(position) or position.get("turn") != seat.index
            away = seat.away_turns + 1 if ended and not seat.connected else seat.away_turns
        if away != seat.away_turns:
            seat.away_turns = away
            seat.save(update_fields=["away_turns"])

    def _arm(self, now, round_ended, computer_acted):
        """Apply the one deadline of the state just reached (`timers.next_deadline`, which
        decides it; ARCHITECTURE.md invariant 5)."""
        game, table = self.game, self.table
        position = game.position
        playing = table.status == Table.Status.PLAYING
        over = position is not None and api.is_over(position)
        turn = position["turn"] if position is not None and not over else None
        reached = timers.Reached(
            playing=playing, dealt=position is not None, over=over, round_ended=round_ended, turn=turn,
            new_turn=turn is not None and (game.round_id != self._round_before or turn != self._turn_before),
            computer_acted=computer_acted)
        seat = timers.SeatToMove.of(self.seats[turn]) if playing and turn is not None else None
        deadline = timers.next_deadline(timers.Deadline(game.deadline_kind, game.deadline, game.turn), reached, seat,
                                        timers.Delays.of(table, settings), now, lambda: self._turn_clock(turn))
        if deadline is not None:
            self._set_deadline(deadline.kind, deadline.at, deadline.turn)

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

    def _broadcast(self, refresh, origin, round_end, delivered=None):
        # What the views need is gathered now, inside the transaction: the move rows (the
        # logged ones, else read under the lock, so they are this version's) and a seeding
        # window's frame. The views themselves and their JSON, most of a version's CPU in
        # the writer, are built after the commit (`_publish`), with the lock released.
        logged = getattr(self, "_moves", None)
        moves = logged[1] if logged and logged[0] == self.game.round_id else None
        if moves is None:
            moves = snapshot.recent_moves(self.game.round_id)
        seeding = seeding_state.seeding_frame(self.game) if self.game.deadline_kind == Game.Deadline.SEED else None
        # The public view is built only for a table someone watches: spectators, or a
        # player who left the match. Without one, the table group hears of the version
        # without a view, and a spectator who arrived meanwhile reads its snapshot itself.
        watched = self.table.spectators > 0 or any(s.user_id and s.left for s in self.seats)
        pending = self._pending = _Pending(_update(self.game.version, refresh, origin, round_end), moves, seeding,
                                           watched, delivered)
        transaction.on_commit(lambda: self._publish(pending))

    def _publish(self, only=None):
        # Build and send the pending version's views: once its transaction committed (its
        # on-commit hook, in the order it was committed beside the other after-commit
        # sends; `only`: that hook's version, nothing when it was built already), or earlier
        # when the same transaction is about to make another version.
        pending = self._pending
        if pending is None or (only is not None and pending is not only):
            return
        self._pending = None
        try:
            self._send_views(pending)
        except Exception:  # noqa: BLE001 - the version is committed: its sockets catch up on their next sync
            log.exception("building the views of table %s version %s failed", self.table.pk,
                          pending.update["version"])

    def _send_views(self, pending):
        public, own = snapshot.version_views(self.game, self.table, self.seats, pending.moves, pending.watched,
                                             seeding=pending.seeding)
        update = pending.update
        # Each view travels serialised, its computers named in the language its sockets most
        # likely use: a socket of that language forwards the text without decoding it.
        default = settings.LANGUAGE_CODE
        seen = dict(update, seated=[uid for uid, _v in own.values()])
        if public is not None:
            seen.update(text=snapshot.view_text(public, default), lang=default)
        # Nothing sent that nobody reads: without a watcher, the seated sockets (which drop
        # the table message: each has its own view) are all the table group holds. A
        # spectator arriving now reads its snapshot after it is counted (`spectators.recount`
        # updates the table row, so it waited for the lock). A refresh still goes out: a
        # socket whose seat was just given up hears of it there.
        messages = [(self.table.group_name, seen)] if public is not None or update["refresh"] else []
        for index, (uid, view) in own.items():
            lang = snapshot.seat_language(self.seats[index])
            text = snapshot.view_text(view, lang)
            to_move = snapshot.seat_to_move(view)
            self.texts[index] = (text, lang, to_move)
            # The acting socket sends its own view (`text_of`), faster than through its
            # seat group (bench/live_tables.py); the group copy is for the seat's other sockets.
            if index == pending.delivered and self.seats[index].connections <= 1:
                continue
            messages.append((socket_groups.seat_group(self.table.pk, uid),
                             dict(update, type="table.view", text=text, lang=lang, seat=index, to_move=to_move)))
        _on_commit_send(messages, order=self.table.group_name)

    def _timer_due(self, now):
        # The timer to send after commit for a new deadline due soon (kind, args, deadline),
        # marked sent in the row; None when the deadline stays (its timer, or the sweep's,
        # is on its way), is cleared, or is the sweep's to send later.
        game = self.game
        armed = (game.deadline_kind, game.deadline)
        if not game.deadline_kind or game.deadline is None or armed == self._armed_before \
                or not timers.due_soon(game.deadline, now):
            return None
        game.timer_sent = game.deadline
        return game.deadline_kind, timer_args(game), game.deadline

    def _after_commit(self, refresh, origin, round_end, match_finished, delivered=None):
        self._broadcast(refresh, origin, round_end, delivered)
        if match_finished:
            match_id = self.game.match_id
            transaction.on_commit(lambda: _record(match_id))
            self.lobby_changed()  # the lobby lists running matches to watch: this one is over



@dataclass
class _Pending:
    # One committed version's broadcast waiting for its views: the table message's fields
    # (`_update`), the move rows and seeding frame its views show, whether the table is
    # watched, and the seat whose acting socket sends its own view.
    update: dict
    moves: list
    seeding: dict | None
    watched: bool
    delivered: int | None


REVIEW_TASK = "games.tasks.review_round"


def _send_review(round_id):
    # The review reads every rack, so it is sent only once the round's end has committed;
    # a lost one is sent again by the sweeper (`reviews.missing_round_ids`).
    try:
        celery_app.send_task(REVIEW_TASK, args=(round_id,))
    except Exception:  # noqa: BLE001 - the sweeper reviews the round if this task is lost
        log.exception("could not send the review of round %s", round_id)


def _for_write():
    # The game row and its table's row locked, the match and round read in the same query.
    # The table row is locked too because, after waiting for the lock, PostgreSQL reads
    # again only the rows it locked: a table read beside the game alone kept the status it
    # had when the query began, so a second starter waiting behind the first still saw the
    # table open and started it again (IntegrityError on the match's table), and a second
    # rematch offer did not see the first one's table. (The match and round, on the
    # nullable side of outer joins, cannot be locked: `_fresh_joins` reads them again when
    # the game moved to another one meanwhile.)
    return Game.objects.select_related("table", "match", "round").select_for_update(
        no_key=True, of=("self", "table"))


# Read on every version: compiled once per thread (games.prepared).
_LOCK_BY_TABLE = Prepared(lambda table_id: _for_write().filter(table_id=table_id))
_LOCK_BY_GAME = Prepared(lambda game_id: _for_write().filter(pk=game_id))
_SEATS = Prepared(lambda table_id: Seat.objects.filter(table_id=table_id)
                  .select_related("user", "user__player_settings").order_by("index"))


@contextmanager
def locked(table_id):
    """`with locked(table_id) as write:` one transaction holding the game row of table
    `table_id` locked; yields its `Write`. An exception inside rolls everything back.
    Raises TableError("not_found")."""
    with transaction.atomic():
        game = _LOCK_BY_TABLE.get(table_id)
        if game is None:
            raise TableError("not_found")
        _fresh_joins(game)
        with logs.bound(table=game.table_id, version=game.version):
            yield Write(game)


@contextmanager
def locked_timer(game_id, token, kind):
    """`with locked_timer(game_id, token, kind) as write:` the game row locked for a
    timer task armed for the `kind` deadline (a `Game.Deadline`) whose `deadline_token` is
    `token` (int); yields None when the game is gone or its deadline moved on to another
    one (a late or duplicate task does nothing, ARCHITECTURE.md invariant 5)."""
    # No unlocked read first: a timer is sent only once its deadline is due soon
    # (`timers.due_soon`), so it mostly finds its deadline still standing, and the lock
    # comes with the one transaction of the version it commits.
    with transaction.atomic():
        game = _LOCK_BY_GAME.get(game_id)
        if not _armed(game, token, kind):
            yield None
        else:
            _fresh_joins(game)
            with logs.bound(table=game.table_id, version=game.version):
                yield Write(game)


def _fresh_joins(game):
    # After a wait for the lock the game row is the latest one, but its match and round
    # were joined as the query's snapshot had them: a game started or dealt meanwhile has
    # a match or round id whose row came back empty or as the one before. Read those
    # again (no query when nobody moved the game on while this one waited).
    for name, model in (("match", Match), ("round", Round)):
        field = Game._meta.get_field(name)
        joined = field.get_cached_value(game, default=None)
        wanted = getattr(game, field.attname)
        if (joined.pk if joined is not None else None) != wanted:
            field.set_cached_value(game, model.objects.get(pk=wanted) if wanted is not None else None)


def send_due_timer(game_id, kind, deadline, again=False):
    """Send the timer of game `game_id`'s `kind` deadline at `deadline` (aware datetime),
    the sweep's part of the one scheduler (`timers.due_soon`): claimed by marking the row's
    `timer_sent` only while that is still its deadline and (unless `again`: a timer lost
    with a worker or a broker) no timer was sent for it yet, so the writer and the sweep
    never both send it. One conditional UPDATE, no lock held across the send. Returns bool
    (sent)."""
    rows = Game.objects.filter(pk=game_id, deadline_kind=kind, deadline=deadline)
    if not again:
        rows = rows.exclude(timer_sent=deadline)
    if not rows.update(timer_sent=deadline):
        return False
    send_timer(kind, [game_id, timers.deadline_token(deadline)], deadline)
    return True


def _armed(game, token, kind):
    # Still the deadline the timer task was sent for: the same kind, the same instant.
    return game is not None and game.deadline_kind == kind and timer_args(game)[1] == token


def send_to_table(table, message):
    """Send group `message` (a dict with a Channels "type") to `table`'s sockets after
    commit; public data only (ARCHITECTURE.md invariant 3)."""
    _on_commit_send([(table.group_name, message)], order=table.group_name)


def _update(version, refresh, origin, round_end):
    message = {"type": "table.update", "version": version, "refresh": refresh}
    if origin:
        message["origin"] = origin
    if round_end is not None:
        message["round_end"] = round_end
    return message


def _on_commit_send(messages, order):
    # `order`: the table's group name, so the table's batches leave in the order they were
    # committed whichever groups each holds (a version nobody watches sends no table message)
    socket_groups.send_after_commit(messages, "broadcast", order=order)


def _record(match_id):
    # The match is committed and marked finished: if this fails or never runs (a crash
    # right after the commit), the sweeper records it (`leaderboards.recording.record_pending`).
    try:
        record_result(Match(pk=match_id))
    except Exception:  # noqa: BLE001
        log.exception("recording match %s failed; the sweeper will retry", match_id)
