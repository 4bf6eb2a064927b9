"""Structured logs: one JSON object per line in production, carrying the table id and the
game version (as the write found it) of the write a game log line was emitted under.

`bound(table=, version=)` sets them for the duration of a locked write (games.play.commit);
`GameContext` (a logging filter) copies them onto every record, and `JsonFormatter` writes
the record as JSON. Lines outside a write carry no table; a call's own
`extra={"table": ...}` wins.
"""
import contextlib
import contextvars
import json
import logging
import os
from datetime import UTC, datetime

_context = contextvars.ContextVar("okeysite_log_context", default=None)
FIELDS = ("table", "version")


@contextlib.contextmanager
def bound(**fields):
    """`with bound(table=7, version=12):` every log record emitted inside carries those
    fields (table id int, game version int); nests, restoring the outer ones on exit."""
    token = _context.set({**(_context.get() or {}), **fields})
    try:
        yield
    finally:
        _context.reset(token)


class GameContext(logging.Filter):
    """Adds the `bound` fields to each record (never drops one)."""

    def filter(self, record):
        for key, value in (_context.get() or {}).items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: time (UTC ISO 8601), level, logger, message, pid, and
    table / version when known, plus the traceback under "exception"."""

    def format(self, record):
        line = {"time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
                "level": record.levelname, "logger": record.name, "message": record.getMessage(),
                "pid": os.getpid()}
        for key in FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                line[key] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)
