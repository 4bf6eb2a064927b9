"""The embedded mode's SQLite backend: the writers of one process take turns on the
process's writer lock (BEGIN IMMEDIATE to COMMIT), while readers never wait for it."""
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.db.utils import OperationalError

from okeysite.sqlite.base import DatabaseWrapper

ROOT = Path(__file__).resolve().parents[2]

HOLD = 0.3  # seconds a blocked writer is given to show it is blocked


@pytest.fixture
def sqlite_file(tmp_path, django_db_blocker):
    # a SQLite file of its own, outside the test database (PostgreSQL)
    path = tmp_path / "embedded.sqlite3"
    with django_db_blocker.unblock():
        db = _connect(path)
        with db.cursor() as cursor:
            cursor.execute("CREATE TABLE pile (tile TEXT)")
        db.close()
        yield path


def _connect(path):
    # the same options the embedded settings give (okeysite/settings.py)
    return DatabaseWrapper({
        "ENGINE": "okeysite.sqlite", "NAME": str(path), "TIME_ZONE": None, "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": False, "AUTOCOMMIT": True, "ATOMIC_REQUESTS": False, "TEST": {},
        "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE",
                    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"},
        "USER": "", "PASSWORD": "", "HOST": "", "PORT": "",
    }, alias=f"sqlite-{threading.get_ident()}")


def _tiles(path):
    db = _connect(path)
    try:
        with db.cursor() as cursor:
            cursor.execute("SELECT tile FROM pile ORDER BY rowid")
            return [row[0] for row in cursor.fetchall()]
    finally:
        db.close()


def _in_thread(fn):
    done = threading.Event()
    errors = []

    def run():
        try:
            fn()
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    return done, errors


def _write_in_transaction(path, tile):
    db = _connect(path)
    try:
        db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)  # BEGIN IMMEDIATE, as atomic
        with db.cursor() as cursor:
            cursor.execute("INSERT INTO pile (tile) VALUES (%s)", [tile])
        db.commit()
        db.set_autocommit(True)
    finally:
        db.close()


def test_the_embedded_default_connects_through_the_writer_lock_backend_with_wal(tmp_path):
    # `make run`'s settings (no DATABASE_URL) with the file moved into tmp_path
    probe = ("from django.db import connections; c = connections['default']; cur = c.cursor(); "
             "cur.execute('PRAGMA journal_mode'); mode = cur.fetchone()[0]; "
             "cur.execute('PRAGMA synchronous'); sync = cur.fetchone()[0]; "
             "print(type(c).__module__, mode, sync)")
    env = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", probe], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["okeysite.sqlite.base", "wal", "1"]  # 1: NORMAL


@pytest.mark.parametrize("second", ["transaction", "autocommit"])
def test_a_second_writer_waits_for_the_first_transaction_then_writes(sqlite_file, second):
    first = _connect(sqlite_file)
    first.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    with first.cursor() as cursor:
        cursor.execute("INSERT INTO pile (tile) VALUES (%s)", ["red 5"])
    assert first.writer_held and first.writer_lock.locked()

    def autocommit_write():
        db = _connect(sqlite_file)
        try:
            with db.cursor() as cursor:
                cursor.execute("INSERT INTO pile (tile) VALUES (%s)", ["blue 7"])
        finally:
            db.close()

    done, errors = _in_thread(autocommit_write if second == "autocommit"
                              else lambda: _write_in_transaction(sqlite_file, "blue 7"))
    assert not done.wait(HOLD)  # blocked on the process's writer lock, not failing
    first.commit()
    first.set_autocommit(True)
    assert not first.writer_held
    assert done.wait(10) and errors == []
    assert _tiles(sqlite_file) == ["red 5", "blue 7"]
    first.close()
    assert not first.writer_lock.locked()


def test_a_reader_does_not_wait_for_a_writer(sqlite_file):
    writer = _connect(sqlite_file)
    writer.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    with writer.cursor() as cursor:
        cursor.execute("INSERT INTO pile (tile) VALUES (%s)", ["okey"])
    seen = []
    done, errors = _in_thread(lambda: seen.extend(_tiles(sqlite_file)))
    assert done.wait(10) and errors == []
    assert seen == []  # WAL: the reader sees the last commit, the open transaction is not in it
    writer.rollback()
    writer.set_autocommit(True)
    writer.close()


@pytest.mark.parametrize("ending", ["rollback", "close", "failed statement"])
def test_every_end_of_a_transaction_gives_the_writer_lock_back(sqlite_file, ending):
    db = _connect(sqlite_file)
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    assert db.writer_lock.locked()
    if ending == "rollback":
        db.rollback()
        db.set_autocommit(True)
    elif ending == "close":
        db.close()
    else:
        with pytest.raises(OperationalError), db.cursor() as cursor:
            cursor.execute("INSERT INTO no_such_table VALUES (1)")
        db.rollback()
        db.set_autocommit(True)
    assert not db.writer_held and not db.writer_lock.locked()
    _write_in_transaction(sqlite_file, "false joker")  # the next writer is not blocked
    assert _tiles(sqlite_file) == ["false joker"]
    db.close()
