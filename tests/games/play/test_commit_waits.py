"""A writer that waited for the commit lock reads the table, match and round as the writer
before it left them: PostgreSQL reads again only the rows a query locked once it got them,
so the table row is locked with the game and the match and round are read again when the
game moved on to others meanwhile."""
import threading
import time

import pytest
from django.db import connection

from games.models import Match, Table
from games.play import commit, tables

pytestmark = pytest.mark.django_db(transaction=True)


def _lock_waiters():
    with connection.cursor() as cursor:
        # pg_locks, read live: pg_stat_activity keeps one snapshot for a whole transaction
        cursor.execute("SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted")
        return cursor.fetchone()[0]


def test_a_writer_waiting_behind_the_start_sees_the_table_playing_and_its_match(alice, bob):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's")
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online")
    tables.join_table(bob, table.pk)
    held, seen = threading.Event(), {}

    def waiter():
        try:
            held.wait(10)
            with commit.locked(table.pk) as write:
                game = write.game
                seen.update(status=write.table.status, match_id=game.match_id,
                            match=game.match.pk if game.match else None,
                            round=game.round.pk if game.round else None, round_id=game.round_id)
        finally:
            connection.close()

    thread = threading.Thread(target=waiter)
    thread.start()
    with commit.locked(table.pk) as write:
        held.set()
        deadline = time.monotonic() + 10
        while _lock_waiters() < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        tables.start_locked(write)  # the waiter's query began before this commits
    thread.join(20)
    match = Match.objects.get(table=table)
    assert seen["status"] == Table.Status.PLAYING
    assert seen["match_id"] == seen["match"] == match.pk
    assert seen["round"] == seen["round_id"] is not None
