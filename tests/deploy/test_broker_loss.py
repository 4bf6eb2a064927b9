"""The Celery worker outlives its broker: a private Redis (never the machine's shared one)
is restarted empty while the worker holds a table's timers unacknowledged; the same worker
process comes back to it and the table moves on after every restart (the beat sweeper
sends again the timers the empty Redis lost)."""
import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from bench.stack import PrivateRedis, beat, site_env, worker

ROOT = Path(__file__).resolve().parents[2]
PG = "postgres://postgres@127.0.0.1:5432"
RESTARTS = 4

TABLES = """
import json
from django.contrib.auth import get_user_model
from games.play import tables
made = []
for n in range(3):
    user = get_user_model().objects.create_user(f"loss{n}", f"loss{n}@example.com", "pw-loss-1234")
    made.append(tables.create_table(user, "okey51", {"rounds": 3}, mode="solo", move_time=5).pk)
print(json.dumps(made))
"""


def versions(db, table_ids):
    with psycopg.connect(db) as conn:
        return sum(row[0] for row in conn.execute("SELECT version FROM games_game WHERE table_id = ANY(%s)",
                                                  (table_ids,)))


def moved_on(db, table_ids, since, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if versions(db, table_ids) >= since + 3:
            return True
        time.sleep(0.2)
    return False


@pytest.fixture
def database():
    name = f"okeysite_loss_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"{PG}/{name}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_worker_survives_redis_restarts_and_the_tables_move_on(tmp_path, database):
    with PrivateRedis(tmp_path) as redis:
        env = site_env(redis.url, database, OKEY_CHANNEL_PREFIX=tmp_path.name, OKEY_BOT_DELAY="0.2",
                       OKEY_SEED_WINDOW="0",
                       OKEY_BOT_STEP_DELAY="0.1")
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        logs = {name: open(tmp_path / f"{name}.log", "wb") for name in ("worker", "beat")}
        procs = {"worker": subprocess.Popen(worker("loss"), cwd=ROOT, env=env, stdout=logs["worker"],
                                            stderr=subprocess.STDOUT),
                 "beat": subprocess.Popen(beat(tmp_path / "schedule"), cwd=ROOT, env=env, stdout=logs["beat"],
                                          stderr=subprocess.STDOUT)}
        try:
            made = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", TABLES], cwd=ROOT,
                                  env=env, check=True, capture_output=True, text=True)
            table_ids = json.loads(made.stdout.strip().splitlines()[-1])
            assert moved_on(database, table_ids, versions(database, table_ids)), "no move before the restarts"
            for n in range(RESTARTS):
                redis.restart(down=1.0)
                since = versions(database, table_ids)
                assert moved_on(database, table_ids, since), f"the tables stopped after restart {n + 1}"
                assert procs["worker"].poll() is None, (tmp_path / "worker.log").read_text()[-3000:]
            assert "Unrecoverable error" not in (tmp_path / "worker.log").read_text()
        finally:
            for proc in procs.values():
                proc.terminate()
            for proc in procs.values():
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
