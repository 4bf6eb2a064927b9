"""Table management on the commit path: create, join, leave, remove a player, start the
match, leave a running match, close.

Refusals raise `TableError(code)` (a key of `games.errors.ERROR_MESSAGES`) and change
nothing. The ruleset's facts (its seats, its options) come from `api.ruleset`.
"""
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.chat.service import system_line
from games.engine import api
from games.errors import TableError
from games.models import Game, Seat, Table
from games.play import commit, rounds, seeding

log = logging.getLogger("games.play")

# Invite codes avoid letters and digits that read alike (0/O, 1/I/L) when said aloud.
INVITE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
INVITE_LENGTH = 8


def new_invite_code():
    """A fresh random invite code (str of INVITE_LENGTH characters of INVITE_ALPHABET)."""
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


def create_table(user, ruleset="okey51", options=None, mode=Table.Mode.ONLINE, move_time=None, assisted=False,
                 bot_level="normal", private=False, practice=False, quick=False, players=None, limited=True):
    """Create a table with `user` in seat 0 (RULES.md §6).

    Args: `ruleset` (an id of `api.RULESETS`), `options` (dict, RULES.md §7, normalized by
    the ruleset), `mode` ("solo": the other seats are computers and the match starts now;
    "online": seats stay free until joined or filled at start), `move_time` (seconds per
    turn, 5-600, default settings.OKEY_DEFAULT_MOVE_TIME, D-16), `assisted` (bool),
    `bot_level` (the computers' level), `private` (online only: not listed in the lobby,
    seats and watching need the table's invite code), `practice` (solo only: no move
    clock), `quick` (made by "Play now", `games.play.quickmatch`), `players` (seats: one
    of the ruleset's `seat_counts`, default its `default_seats`), `limited` (False for a
    table the site seats on its own, such as an arena's: no creation limit).
    A user may have at most settings.OKEY_MAX_ACTIVE_TABLES tables open or playing and
    create at most settings.OKEY_TABLES_PER_HOUR an hour (every solo table keeps the
    worker busy with its computers).
    Returns the Table. Raises TableError("bad_options" | "too_many_tables").
    """
    try:
        rules = api.ruleset(ruleset)
        options = rules.normalize_options(options or {})
    except (ValueError, KeyError, TypeError, NotImplementedError):
        raise TableError("bad_options") from None
    if mode not in Table.Mode.values:
        raise TableError("bad_options")
    move_time = int(move_time or settings.OKEY_DEFAULT_MOVE_TIME)
    if not 5 <= move_time <= 600:
        raise TableError("bad_options")
    players = rules.default_seats if players is None else players
    if players not in rules.seat_counts:
        raise TableError("bad_options")
    private = bool(private) and mode == Table.Mode.ONLINE
    with transaction.atomic():
        if limited:
            _check_creation_limit(user)
        table = Table.objects.create(
            ruleset=ruleset, options=options, mode=mode, creator=user, players=players,
            move_time=move_time, assisted=bool(assisted), bot_level=bot_level,
            private=private, invite_code=new_invite_code() if private else "",
            practice=bool(practice) and mode == Table.Mode.SOLO, quick=bool(quick) and mode == Table.Mode.ONLINE,
            # committed before anyone takes a seat: the tip is public from now on (docs/fair-deals.md §10)
            **rounds.draw_chain(rounds.chain_length_of(ruleset, options, players)),
        )
        Seat.objects.bulk_create([
            Seat(table=table, index=index, user=user if index == 0 else None,
                 bot_level=bot_level if (mode == Table.Mode.SOLO and index) else "")
            for index in range(players)
        ])
        Game.objects.create(table=table)
        with commit.locked(table.pk) as write:
            if mode == Table.Mode.SOLO:
                seeding.start_match(write)
                return write.table
            write.lobby_changed()
    return table


def seat_together(users, ruleset, move_time=None, players=None, bot_level="normal", seed_wait=0):
    """Create an online table with `users` (a list of 1 to `players` Users, none seated
    elsewhere by this call) already seated and start its match at once, computers
    (`bot_level`) in the free seats: what the site does when it seats players itself (an
    arena's pairing). One transaction; the first user is the creator in seat 0, the second
    faces them (RULES.md §6), the others fill the seats in order. It costs what the table
    needs and no more: no join versions nor their broadcasts, one lobby list. No creation
    limit applies. `ruleset`, `move_time` (seconds, 5-600) and `players` (seats) as for
    `create_table`; `seed_wait` (seconds, 0-600): the first deal waits that long at most
    for every player's seed (their pages are not open yet: `games.play.seeding`), 0 deals
    at once with the seeds of the connected players (none).
    Returns the Table, playing. Raises TableError("bad_options") (also for more users
    than seats)."""
    try:
        rules = api.ruleset(ruleset)
        options = rules.normalize_options({})
    except (ValueError, KeyError, TypeError, NotImplementedError):
        raise TableError("bad_options") from None
    move_time = int(move_time or settings.OKEY_DEFAULT_MOVE_TIME)
    players = rules.default_seats if players is None else players
    seed_wait = int(seed_wait)
    if (players not in rules.seat_counts or not 5 <= move_time <= 600 or not 1 <= len(users) <= players
            or not 0 <= seed_wait <= 600):
        raise TableError("bad_options")
    with transaction.atomic():
        table = Table.objects.create(
            ruleset=ruleset, options=options, mode=Table.Mode.ONLINE, creator=users[0], players=players,
            move_time=move_time, bot_level=bot_level, status=Table.Status.OPEN, seed_wait=seed_wait,
            # committed before the match starts and before any seat's seed (docs/fair-deals.md §10)
            **rounds.draw_chain(rounds.chain_length_of(ruleset, options, players)),
        )
        order = [0] + [i for i in _free_seat_order(table) if i != 0]
        placed = dict(zip(order, users, strict=False))
        Seat.objects.bulk_create([
            Seat(table=table, index=index, user=placed.get(index), bot_level="" if index in placed else bot_level)
            for index in range(players)
        ])
        Game.objects.create(table=table)
        with commit.locked(table.pk) as write:
            seeding.start_match(write)
            write.lobby_changed()
            return write.table


def _check_creation_limit(user):
    # The user's row is locked so that two creations at once cannot both pass the count.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    mine = Table.objects.filter(creator=user)
    active = mine.filter(status__in=[Table.Status.OPEN, Table.Status.PLAYING]).count()
    recent = mine.filter(created__gte=timezone.now() - timedelta(hours=1)).count()
    if active >= settings.OKEY_MAX_ACTIVE_TABLES or recent >= settings.OKEY_TABLES_PER_HOUR:
        raise TableError("too_many_tables")


def _free_seat_order(table):
    # Two humans sit face to face (RULES.md §6): offer the opposite seat first.
    opposite = table.players // 2
    return sorted(range(table.players), key=lambda i: (i != opposite, i))


def invite_matches(table, code):
    """True when `code` (str or None) opens private `table` (always True for a public one)."""
    if not table.private:
        return True
    return isinstance(code, str) and bool(table.invite_code) and secrets.compare_digest(
        code.strip().upper(), table.invite_code)


def may_see(table, user, invite=None):
    """Whether `user` (a User; None or AnonymousUser for a visitor) may see `table` (a
    Table): its page, match, record, replay and socket. A public table: anyone. A private
    one: staff, a player seated there (one who left the match included), a human invited
    to it as a rematch, or whoever holds `invite` (str or None), its code. Everyone else is
    answered as if the table did not exist. Returns bool."""
    if not table.private:
        return True
    if user is not None and user.is_authenticated:
        if user.is_staff or str(user.pk) in (table.rematch_answers or {}):
            return True
        if Seat.objects.filter(table_id=table.pk, user_id=user.pk).exists():
            return True
    return invite_matches(table, invite)


def join_table(user, table_id, seat_index=None, invite=None):
    """Seat `user` at an open online table; returns the Seat (the same one if already seated).

    `seat_index` (int) asks for a given free seat; otherwise the seat facing the creator
    is taken first. A private table needs its `invite` code (str); a rematch seats only
    the humans it invited (`games.play.rematch`). Raises
    TableError("not_found" | "table_not_open" | "invite_needed" | "removed_from_table" |
    "table_full" | "seat_taken").
    """
    with commit.locked(table_id) as write:
        table = write.table
        seat = write.seat_of(user)
        if seat is not None:
            return seat
        if table.status != Table.Status.OPEN or table.mode != Table.Mode.ONLINE:
            raise TableError("table_not_open")
        if not invite_matches(table, invite):
            raise TableError("invite_needed")
        if user.pk in table.removed:  # the creator's choice holds, invite link or not
            raise TableError("removed_from_table")
        if table.rematch_answers and str(user.pk) not in table.rematch_answers:
            raise TableError("invite_needed")  # a rematch seats the humans of the match before it
        free = [s.index for s in write.seats if s.user_id is None and not s.bot_level]
        if not free:
            raise TableError("table_full")
        if seat_index is None:
            seat_index = next(i for i in _free_seat_order(table) if i in free)
        elif seat_index not in free:
            raise TableError("seat_taken")
        seat = write.seats[seat_index]
        seat.user = user
        seat.client_seed = None  # this player's browser sends its own once it sees the chain tip
        seat.save(update_fields=["user", "client_seed"])
        write.notify()
        write.lobby_changed()
        return seat


def leave_table(user, table_id):
    """Leave an open table before its match starts. The creator leaving closes the table
    (a quick-match table only once nobody else sits there).

    Returns None. Raises TableError("not_found" | "table_not_open" | "not_seated").
    """
    with commit.locked(table_id) as write:
        table = write.table
        if table.status != Table.Status.OPEN:
            raise TableError("table_not_open")
        seat = write.seat_of(user)
        if seat is None:
            raise TableError("not_seated")
        others = [s for s in write.seats if s.user_id and s.user_id != user.pk]
        if table.creator_id == user.pk and not (table.quick and others):
            table.status = Table.Status.CLOSED
            table.save(update_fields=["status"])
        else:  # a quick-match table is nobody's own: it waits on for the others
            seat.user = None
            seat.client_seed = None  # the seed was this player's, not the seat's
            seat.autoplay = False  # so was being away (a closed page, games.play.presence)
            seat.save(update_fields=["user", "client_seed", "autoplay"])
        write.notify()
        write.lobby_changed()


def remove_player(user, table_id, seat_index):
    """The creator frees seat `seat_index` (int) of another player before the match starts;
    that player may not take a seat at this table again (`Table.removed`).

    Returns the removed user. Raises TableError("not_found" | "not_creator" |
    "table_not_open" | "seat_empty" | "cannot_remove_self").
    """
    with commit.locked(table_id) as write:
        table = write.table
        if table.creator_id != user.pk:
            raise TableError("not_creator")
        if table.status != Table.Status.OPEN:
            raise TableError("table_not_open")
        seat = next((s for s in write.seats if s.index == seat_index), None)
        if seat is None or seat.user_id is None:
            raise TableError("seat_empty")
        if seat.user_id == user.pk:
            raise TableError("cannot_remove_self")
        removed = seat.user
        seat.user = None
        seat.client_seed = None
        seat.autoplay = False  # the removed player's closed page is not the next one's
        seat.save(update_fields=["user", "client_seed", "autoplay"])
        if removed.pk not in table.removed:
            table.removed = [*table.removed, removed.pk]
            table.save(update_fields=["removed"])
        write.notify()
        write.lobby_changed()
        return removed


def leave_match(user, table_id):
    """`user` leaves a running match for good (a confirmed "Leave the match").

    Online: a computer (`table.bot_level`) plays the seat to the end; the seat stays the
    user's, marked `left`, so the match is rated as an abandonment, last place
    (`leaderboards.recording`, as for a player who never comes back, RULES.md §6). Solo:
    the table closes, the match is never finished and counts nowhere. Returns the Table.
    Raises TableError("not_found" | "table_not_open" | "not_seated").
    """
    with commit.locked(table_id) as write:
        table = write.table
        if table.status != Table.Status.PLAYING:
            raise TableError("table_not_open")
        seat = write.seat_of(user)
        if seat is None:
            raise TableError("not_seated")
        if table.mode == Table.Mode.SOLO:
            table.status = Table.Status.CLOSED
            table.closed_reason = "left by the player"
            table.save(update_fields=["status", "closed_reason"])
        else:
            seat.left = True
            seat.autoplay = True
            seat.consecutive_timeouts = 0
            seat.save(update_fields=["left", "autoplay", "consecutive_timeouts"])
        # A version bump: the deadline is re-armed for the computer when it is the seat's turn.
        write.commit(refresh=True)
        write.lobby_changed()
        return table


def start_match(user, table_id):
    """The creator starts the match: free seats get computers (`table.bot_level`), round 0
    is dealt and the first deadline armed. Returns the Game.
    Raises TableError("not_found" | "not_creator" | "table_not_open")."""
    with commit.locked(table_id) as write:
        table = write.table
        if table.creator_id != user.pk:
            raise TableError("not_creator")
        if table.status != Table.Status.OPEN:
            raise TableError("table_not_open")
        return start_locked(write)


def start_locked(write):
    """Start the match of the open table held by `write` (a `commit.Write`): free seats
    get computers (`table.bot_level`), round 0 is dealt. Returns the Game."""
    table = write.table
    for seat in write.seats:
        if seat.user_id is None:
            seat.bot_level = table.bot_level
            seat.save(update_fields=["bot_level"])
    seeding.start_match(write)
    write.lobby_changed()
    return write.game


def close_table(table_id, reason, by=None):
    """Close a table (open or playing) for moderation: no more moves, timers stop.

    Args: `table_id` (int), `reason` (str, required: logged and, when `by` is given, shown
    to the table's players as a chat line from `by`), `by` (the staff user or None). A
    finished match stays finished (and rated); an unfinished one is never rated.
    Returns True when the table was closed now, False when it was already finished or
    closed. Raises ValueError on an empty reason, TableError("not_found").
    """
    if not (reason or "").strip():
        raise ValueError("closing a table needs a reason")
    with commit.locked(table_id) as write:
        table = write.table
        if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
            return False
        table.status = Table.Status.CLOSED
        table.closed_reason = reason.strip()[:300]
        table.save(update_fields=["status", "closed_reason"])
        write.commit(refresh=True)
        write.lobby_changed()
        log.info("table %s closed by %s: %s", table_id, by, reason)
    if by is not None:
        system_line(table_id, by, reason)
    return True
