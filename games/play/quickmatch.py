"""Quick match ("Play now" in the lobby): a seat at a public waiting table of a ruleset
with default options, or a new one; the match starts once the table is full, or after
settings.OKEY_QUICK_MATCH_WAIT seconds with computers in the free seats.

The start after the wait is the Celery task `games.tasks.quick_start` (sent with the
wait as countdown when the table is made); the sweeper starts any table whose wait is
over and whose task was lost (`start_overdue`). Both are idempotent: a table no longer
open, or not due yet, is left alone.
"""
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.errors import TableError
from games.models import Seat, Table
from games.play import commit, tables
from okeysite import db_locks
from okeysite.celery import app as celery_app

log = logging.getLogger("games.play")

EARLY_TOLERANCE = timedelta(seconds=0.5)
START_TASK = "games.tasks.quick_start"


def starts_at(table):
    """When the quick-match `table` starts with computers (aware datetime)."""
    return table.created + timedelta(seconds=settings.OKEY_QUICK_MATCH_WAIT)


def _waiting(ruleset):
    return (Table.objects.filter(ruleset=ruleset, quick=True, private=False, mode=Table.Mode.ONLINE,
                                 status=Table.Status.OPEN).order_by("created"))


def play_now(user, ruleset):
    """Seat `user` at a waiting quick-match table of `ruleset` (the oldest with a free
    seat), else create one (default options, default move time) and arm its start after
    the wait. A user already at a quick-match table of `ruleset` that is waiting or
    playing (a seat not left) gets that table again: one "Play now" table per ruleset at a
    time. A table that becomes full starts at once. Returns the Table.
    Raises TableError("bad_options" | "too_many_tables")."""
    with transaction.atomic():
        # Choosing a table and taking its seat is one step per ruleset at a time: two
        # players pressing at once would both find no waiting table and make one each,
        # and one player's requests racing each other would each take a seat elsewhere.
        db_locks.hold("play-now", ruleset)
        mine = _mine(user, ruleset)
        if mine is not None:
            return mine
        joined = None
        for table in _waiting(ruleset).exclude(creator=user)[:10]:
            try:
                tables.join_table(user, table.pk)
            except TableError:
                continue  # filled or started meanwhile: try the next one
            joined = table.pk
            break
        if joined is None:
            table = tables.create_table(user, ruleset, {}, mode=Table.Mode.ONLINE, quick=True)
            table_id, countdown = table.pk, settings.OKEY_QUICK_MATCH_WAIT
            transaction.on_commit(lambda: _send_start(table_id, countdown))
            return table
    # Started after the seat is committed and the ruleset's turn given back: dealing
    # needs only the table's own lock, which `_start_if_full` takes.
    _start_if_full(joined)
    return Table.objects.get(pk=joined)


def _mine(user, ruleset):
    # The user's own quick-match table of `ruleset`, waiting or playing, at a seat not left.
    return (Table.objects.filter(ruleset=ruleset, quick=True, mode=Table.Mode.ONLINE,
                                 status__in=[Table.Status.OPEN, Table.Status.PLAYING],
                                 seats__user=user, seats__left=False)
            .order_by("-created").first())


def _send_start(table_id, countdown):
    try:
        celery_app.send_task(START_TASK, args=(table_id,), countdown=max(0.0, countdown))
    except Exception:  # noqa: BLE001 - the sweeper starts the table if this task is lost
        log.exception("could not schedule the quick start of table %s", table_id)


def _start_if_full(table_id):
    with commit.locked(table_id) as write:
        if write.table.status == Table.Status.OPEN and all(s.user_id for s in write.seats):
            tables.start_locked(write)


def start_due(table_id):
    """Start quick-match table `table_id` with computers in the free seats if it is still
    open and its wait is over (Celery `quick_start`); a task that fires early is sent
    again for the rest of the wait. Returns True when it started the match."""
    try:
        with commit.locked(table_id) as write:
            table = write.table
            if table.status != Table.Status.OPEN or not table.quick:
                return False
            left = (starts_at(table) - timezone.now()).total_seconds()
            if left > EARLY_TOLERANCE.total_seconds():
                transaction.on_commit(lambda: _send_start(table_id, left))
                return False
            if not Seat.objects.filter(table=table, user__isnull=False).exists():
                table.status = Table.Status.CLOSED  # everybody left while waiting
                table.save(update_fields=["status"])
                write.lobby_changed()
                return False
            tables.start_locked(write)
            return True
    except TableError:
        return False


def start_overdue():
    """The sweeper's backstop: start every quick-match table whose wait ended more than
    two seconds ago. Returns the number started."""
    late = timezone.now() - timedelta(seconds=settings.OKEY_QUICK_MATCH_WAIT + 2)
    ids = list(Table.objects.filter(quick=True, status=Table.Status.OPEN, created__lt=late)
               .values_list("pk", flat=True)[:100])
    return sum(1 for table_id in ids if start_due(table_id))
