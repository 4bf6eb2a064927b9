"""The PostgreSQL session pool of the scaled set-up (settings, OKEY_DB_POOL): threads take
turns on a few sessions instead of opening one each, and a forked Celery child does not
inherit its parent's pool."""
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import os, threading
from django.db import connections
from django.db.backends.postgresql.base import DatabaseWrapper

def backend_pid(found):
    db = connections["default"]
    with db.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        found.append(cursor.fetchone()[0])
    db.close()  # what Django does at the end of a request: the session goes back to the pool

pids = []
for _ in range(6):  # six requests, each in a thread of its own as under daphne
    thread = threading.Thread(target=backend_pid, args=(pids,))
    thread.start()
    thread.join()
print("pool", connections["default"].pool is not None)
print("sessions", len(set(pids)))
child = os.fork()
if child == 0:
    print("child pools", len(DatabaseWrapper._connection_pools), flush=True)
    os._exit(0)
os.waitpid(child, 0)
"""


def _run(**env):
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("needs the PostgreSQL of the test run")
    url = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres"))
    base = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    done = subprocess.run([sys.executable, "-c", "import django; django.setup(); exec(open(0).read())"],
                          input=PROBE, cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=dict(base, DATABASE_URL=url, DJANGO_SETTINGS_MODULE="okeysite.settings",
                                   REDIS_URL="redis://127.0.0.1:6379/0", DEBUG="1", **env))
    assert done.returncode == 0, done.stderr
    return dict(line.rsplit(" ", 1) for line in done.stdout.splitlines() if line.strip())


def test_requests_in_threads_of_their_own_share_the_pools_sessions():
    seen = _run()
    assert seen["pool"] == "True"
    # the pool opens its OKEY_DB_POOL_MIN sessions (one more while they were still connecting)
    # and lends them again: not one per thread
    assert int(seen["sessions"]) <= 3
    assert seen["child pools"] == "0"


def test_without_the_pool_each_thread_opens_its_own_session():
    seen = _run(OKEY_DB_POOL="0")
    assert seen["pool"] == "False"
    assert seen["sessions"] == "6"
