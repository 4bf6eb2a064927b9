"""The SQLite backend of the embedded mode: Django's, with the writers of one process
taking turns on a Python lock instead of SQLite's busy handler.

Every write transaction starts with `BEGIN IMMEDIATE` (settings), so two threads of the
process (daphne's database thread, the embedded worker) that write at once meet at
SQLite's file lock, and the one that loses polls it with SQLite's back-off sleeps of up to
100 ms each. With dozens of tables that wait, not the work, was the embedded mode's
latency. Here a thread waits for the process's writer lock instead, and wakes the moment
the other transaction ends. A write statement outside any transaction (autocommit) takes
the same lock for its one statement; reads never take it (WAL: readers do not block).
Another process on the same file (a management command) still meets SQLite's own lock,
as before.
"""
import threading
from contextlib import nullcontext

from django.db.backends.sqlite3 import base

# One writer at a time per database file in this process.
_writer_locks = {}
_writer_locks_guard = threading.Lock()

_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "CREATE", "DROP", "ALTER")


def _writer_lock(name):
    with _writer_locks_guard:
        return _writer_locks.setdefault(str(name), threading.Lock())


class SQLiteCursorWrapper(base.SQLiteCursorWrapper):
    """Django's cursor; a write in autocommit mode holds the writer lock for its statement."""

    def _guard(self, query):
        # A transaction already holds the lock (from BEGIN); a read never needs it.
        db = self._okey_db
        if db.writer_held or not db.get_autocommit() or not query.lstrip()[:7].upper().startswith(_WRITES):
            return nullcontext()
        return db.writer_lock

    def execute(self, query, params=None):
        with self._guard(query):
            return super().execute(query, params)

    def executemany(self, query, param_list):
        with self._guard(query):
            return super().executemany(query, param_list)


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's SQLite `DatabaseWrapper` whose transactions hold the process's writer lock
    from BEGIN to COMMIT or ROLLBACK (or the connection's close)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.writer_lock = _writer_lock(self.settings_dict["NAME"])
        self.writer_held = False

    def create_cursor(self, name=None):
        cursor = self.connection.cursor(factory=SQLiteCursorWrapper)
        cursor._okey_db = self
        return cursor

    def _start_transaction_under_autocommit(self):
        self._take_writer()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._give_writer()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._give_writer()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._give_writer()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._give_writer()

    def _take_writer(self):
        if not self.writer_held:
            self.writer_lock.acquire()
            self.writer_held = True

    def _give_writer(self):
        if self.writer_held:
            self.writer_held = False
            self.writer_lock.release()
