"""Transaction-long locks on a name, for writers that must not interleave although they
touch no common row yet (two Play now requests before either table exists, two sweeps of
one arena, two recorders of one ruleset's ratings).

PostgreSQL's advisory locks do this: `pg_advisory_xact_lock` waits for the holder and is
released when the transaction ends, commit or rollback. SQLite, the embedded mode, needs
none: its transactions are IMMEDIATE, one writer at a time.
"""
import zlib

from django.db import transaction


def _key(part):
    # Advisory keys are signed 32-bit integers in the two-key form.
    if isinstance(part, int):
        return part
    return zlib.crc32(str(part).encode()) & 0x7FFFFFFF


def hold(space, key, using=None):
    """Hold the lock named (`space`, `key`) until the current transaction ends.

    space: str, the kind of writer ("play-now", "arena", "rating"); key: int (an id) or str
    (a ruleset id), hashed with CRC-32 to a 31-bit key when a str. Must be called inside
    `transaction.atomic()` (outside one the lock is released at once). No-op on SQLite.
    Returns None; waits as long as another transaction holds the same name.
    """
    connection = transaction.get_connection(using)
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_key(space), _key(key)])
