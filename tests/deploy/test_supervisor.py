"""deploy/supervisord.conf runs the scaled set-up with restarts: started here against the
test PostgreSQL and Redis, a daphne and the worker are killed with SIGKILL, come back under
new process ids, and a solo table goes on moving (its computers' turns need the worker)."""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import psycopg
import pytest

from bench.stack import free_port, site_env, wait_for_port

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "deploy" / "supervisord.conf"
PG = "postgres://postgres@127.0.0.1:5432"
BIN = Path(sys.executable).parent

TABLE = """
import json
from django.contrib.auth import get_user_model
from games.play import tables
user = get_user_model().objects.create_user("sup", "sup@example.com", "pw-sup-1234")
table = tables.create_table(user, "okey51", {"rounds": 3}, mode="solo", move_time=5)
print(json.dumps({"table": table.pk}))
"""


def port_prefix():
    """A prefix P such that ports P0 and P1 (the two daphne of the config) are free now."""
    for _ in range(200):
        prefix = free_port() // 10
        if prefix * 10 + 1 < 65536 and all(_free(prefix * 10 + n) for n in (0, 1)):
            return str(prefix)
    raise RuntimeError("no two free ports in a row")


def _free(port):
    import socket

    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture
def stack(tmp_path):
    name = f"okeysite_sup_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    prefix = port_prefix()
    # A Redis database of this test's own: no other run's worker takes our timers.
    env = site_env(f"redis://127.0.0.1:6379/{8 + os.getpid() % 7}", f"{PG}/{name}", OKEY_CHANNEL_PREFIX=name,
                   OKEY_RUN_DIR=str(tmp_path), OKEY_PORT_PREFIX=prefix, OKEY_BIND="127.0.0.1", OKEY_BOT_DELAY="0.2",
                   OKEY_SEED_WINDOW="0", OKEY_BOT_STEP_DELAY="0.1", ALLOWED_HOSTS="127.0.0.1,localhost")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", TABLE], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)
    table = json.loads(made.stdout.strip().splitlines()[-1])["table"]
    sup = subprocess.Popen([str(BIN / "supervisord"), "-n", "-c", str(CONF)], cwd=ROOT, env=env,
                           stdout=open(tmp_path / "supervisord.out", "wb"), stderr=subprocess.STDOUT)
    killed = []
    try:
        for n in (0, 1):
            wait_for_port(int(prefix + str(n)), 90, sup)
        yield {"env": env, "prefix": prefix, "db": f"{PG}/{name}", "table": table, "killed": killed,
               "dir": tmp_path}
    finally:
        ctl(env, "shutdown")
        try:
            sup.wait(30)
        except subprocess.TimeoutExpired:
            sup.kill()
        for pgid in killed:  # the killed worker's pool, if any outlived it
            try:
                os.killpg(pgid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def ctl(env, *argv):
    done = subprocess.run([str(BIN / "supervisorctl"), "-c", str(CONF), *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    return done.stdout.strip()


def pid(env, name):
    out = ctl(env, "pid", name)
    return int(out) if out.isdigit() and out != "0" else None


def wait_for(check, timeout=60.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"no {what} after {timeout} s")


def version(db, table):
    with psycopg.connect(db) as conn:
        return conn.execute("SELECT version FROM games_game WHERE table_id = %s", (table,)).fetchone()[0]


def page(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


def test_killed_processes_come_back_and_the_table_moves_on(stack):
    env, db, table = stack["env"], stack["db"], stack["table"]
    status = ctl(env, "status")
    for name in ("web:web-0", "web:web-1", "worker", "beat"):
        assert f"{name}" in status and "RUNNING" in status.split(name, 1)[1].splitlines()[0], status
    start = version(db, table)
    wait_for(lambda: version(db, table) > start + 2, what="moves before the kills")  # the worker plays

    web, worker = pid(env, "web:web-0"), pid(env, "worker")
    stack["killed"].extend([web, worker])
    os.kill(web, signal.SIGKILL)
    os.kill(worker, signal.SIGKILL)
    wait_for(lambda: (pid(env, "web:web-0") or web) != web, what="new daphne")
    wait_for(lambda: (pid(env, "worker") or worker) != worker, what="new worker")
    port = int(stack["prefix"] + "0")
    wait_for(lambda: page(port), what="lobby page from the new daphne")

    after_kill = version(db, table)
    wait_for(lambda: version(db, table) > after_kill + 2, what="moves after the kills")
    status = ctl(env, "status")
    assert status.count("RUNNING") == 4, status
