"""Rematch at a match's end: the same table options offered to the same humans.

A human of a finished table offers it (`offer`): a new table with the same ruleset and
options is made with them in seat 0, every other human of the old match (not those who
left it) is invited and answers (`answer`): accepting takes a seat, declining leaves it
to a computer. The match starts once every invited human has answered, or after
settings.OKEY_REMATCH_WAIT seconds (Celery `games.tasks.rematch_start`, the sweeper as
backstop, `start_overdue`), with computers in every free seat. A solo table's rematch is
a new solo table, started at once.
"""
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.errors import TableError
from games.models import Table
from games.play import commit, tables
from okeysite.celery import app as celery_app

log = logging.getLogger("games.play")

START_TASK = "games.tasks.rematch_start"
EARLY_TOLERANCE = 0.5  # seconds


def offer(user, table_id):
    """`user`, a player of finished table `table_id`, offers a rematch (or takes up the
    one already offered). Returns the rematch Table. Raises TableError("not_found" |
    "table_not_open" (the match is not finished) | "not_seated" | "too_many_tables")."""
    with commit.locked(table_id) as write:
        old = write.table
        if old.status != Table.Status.FINISHED:
            raise TableError("table_not_open")
        if write.seat_of(user) is None:
            raise TableError("not_seated")
        existing = old.rematch_table
        if existing is None or existing.status not in (Table.Status.OPEN, Table.Status.PLAYING):
            return _create(write, user)
        existing_id = existing.pk
    return answer(user, existing_id, True)


def _create(write, user):
    old = write.table
    humans = [s.user_id for s in write.seats if s.user_id and not s.left and s.user_id != user.pk]
    new = tables.create_table(
        user, old.ruleset, old.options, mode=old.mode, move_time=old.move_time, assisted=old.assisted,
        bot_level=old.bot_level, private=old.private, practice=old.practice)
    if old.mode == Table.Mode.ONLINE:
        new.rematch_answers = {str(user.pk): "yes", **{str(u): None for u in humans}}
        new.rematch_deadline = timezone.now() + timedelta(seconds=settings.OKEY_REMATCH_WAIT)
        new.save(update_fields=["rematch_answers", "rematch_deadline"])
        new_id, wait = new.pk, settings.OKEY_REMATCH_WAIT
        transaction.on_commit(lambda: _send_start(new_id, wait))
    old.rematch_table = new
    old.save(update_fields=["rematch_table"])
    write.notify()
    if old.mode == Table.Mode.ONLINE:
        _start_if_answered(new.pk)
    return Table.objects.get(pk=new.pk)


def answer(user, table_id, accept):
    """An invited human answers the rematch `table_id`: `accept` True takes a seat, False
    declines (a computer gets the seat). The match starts once everyone invited answered.
    Returns the rematch Table. Raises TableError("not_found" | "table_not_open" |
    "not_seated" (not invited))."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("not_found")
    key = str(user.pk)
    if key not in (table.rematch_answers or {}):
        raise TableError("not_seated")
    if accept:
        tables.join_table(user, table_id, invite=table.invite_code)
    with commit.locked(table_id) as write:
        table = write.table
        if table.status != Table.Status.OPEN:
            if accept and write.seat_of(user) is not None:
                return table
            raise TableError("table_not_open")
        answers = dict(table.rematch_answers)
        answers[key] = "yes" if accept else "no"
        table.rematch_answers = answers
        table.save(update_fields=["rematch_answers"])
        write.notify()
    _start_if_answered(table_id)
    return Table.objects.get(pk=table_id)


def _start_if_answered(table_id):
    with commit.locked(table_id) as write:
        table = write.table
        answers = table.rematch_answers or {}
        if table.status == Table.Status.OPEN and answers and all(a is not None for a in answers.values()):
            tables.start_locked(write)


def _send_start(table_id, countdown):
    try:
        celery_app.send_task(START_TASK, args=(table_id,), countdown=max(0.0, countdown))
    except Exception:  # noqa: BLE001 - the sweeper starts the rematch if this task is lost
        log.exception("could not schedule the rematch start of table %s", table_id)


def start_due(table_id):
    """Start rematch table `table_id` if still open and its answer time is over (Celery
    `rematch_start`); early: sent again for the rest. Returns True when it started."""
    try:
        with commit.locked(table_id) as write:
            table = write.table
            if table.status != Table.Status.OPEN or table.rematch_deadline is None:
                return False
            left = (table.rematch_deadline - timezone.now()).total_seconds()
            if left > EARLY_TOLERANCE:
                transaction.on_commit(lambda: _send_start(table_id, left))
                return False
            tables.start_locked(write)
            return True
    except TableError:
        return False


def start_overdue():
    """The sweeper's backstop: start every open rematch whose answer time ended more than
    two seconds ago. Returns the number started."""
    late = timezone.now() - timedelta(seconds=2)
    ids = list(Table.objects.filter(status=Table.Status.OPEN, rematch_deadline__lt=late)
               .values_list("pk", flat=True)[:100])
    return sum(1 for table_id in ids if start_due(table_id))
