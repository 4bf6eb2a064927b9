"""A move timeout fires within half a second of its deadline under the one scheduler of
the timers (ARCHITECTURE.md invariant 5), including after a worker restart. The deadlines
are further off than the horizon, so no timer goes out at their commit: the beat sweep
sends each once it is due soon, with the countdown left, to a real worker on a private
Redis. The worker is killed while it holds the first deadlines' timers and started again:
its start-up sweep sends them once more and they fire on time; the next move deadlines'
timers are sent by the sweep to the new worker and fire on time too."""
import json
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from bench.stack import PrivateRedis, beat, site_env, worker

ROOT = Path(__file__).resolve().parents[2]
PG = "postgres://postgres@127.0.0.1:5432"
MOVE_TIME = 65  # seconds: beyond the horizon below, so the sweep sends each timer
HORIZON = 60  # long: a worker restarted on a busy machine (40 s seen) is up before the deadlines
TABLES = 3
ON_TIME = timedelta(seconds=0.5)

CREATE = """
import json, time
from django.contrib.auth import get_user_model
from games.play import tables
made = []
for n in range({count}):
    user = get_user_model().objects.create_user(f"timer{{n}}", f"timer{{n}}@example.com", "pw-timer-1234")
    made.append(tables.create_table(user, "okey51", {{"rounds": 3}}, mode="solo", move_time={move_time}).pk)
    time.sleep(2)  # deadlines apart: the one solo worker fires each alone, what is timed is the scheduling
print(json.dumps(made))
"""


@pytest.fixture
def database():
    name = f"okeysite_timer_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"{PG}/{name}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Deadlines(threading.Thread):
    """Reads every game's move deadline 20 times a second: {game id: {deadline: timer
    sent for it when first seen}}."""

    def __init__(self, db):
        super().__init__(daemon=True)
        self.db, self.seen, self.stopped = db, {}, threading.Event()

    def run(self):
        with psycopg.connect(self.db, autocommit=True) as conn:
            while not self.stopped.is_set():
                for game, deadline, sent in conn.execute(
                        "SELECT id, deadline, timer_sent = deadline FROM games_game WHERE deadline_kind = 'move'"):
                    self.seen.setdefault(game, {}).setdefault(deadline, bool(sent))
                time.sleep(0.05)


def wait_for(check, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def timeouts(db, games, count):
    """[(game id, commit time)] of the first `count` timeout moves of each of `games`, or
    None until each has that many."""
    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT g.id, m.created FROM games_move m JOIN games_round r ON r.id = m.round_id "
            "JOIN games_game g ON g.match_id = r.match_id WHERE m.actor = 'timeout' AND g.id = ANY(%s) "
            "ORDER BY m.created", (games,)).fetchall()
    found = {}
    for game, at in rows:
        found.setdefault(game, []).append(at)
    if len(found) < len(games) or any(len(v) < count for v in found.values()):
        return None
    return [(game, at) for game, times in found.items() for at in times[:count]]


def lateness(monitor, fired):
    """[seconds from each timeout's move deadline to its commit]: the deadline is the
    latest one seen before the timeout was committed (an early timer waits, so none is
    played more than half a second before it)."""
    return [round((at - max(d for d in monitor.seen[game] if d <= at + ON_TIME)).total_seconds(), 3)
            for game, at in fired]


def test_a_move_timeout_fires_on_time_from_the_sweep_and_after_a_worker_restart(tmp_path, database):
    with PrivateRedis(tmp_path) as redis:
        env = site_env(redis.url, database, OKEY_CHANNEL_PREFIX=tmp_path.name, OKEY_BOT_DELAY="0.2",
                       OKEY_BOT_STEP_DELAY="0.1", OKEY_SEED_WINDOW="0", OKEY_SWEEP_INTERVAL="1",
                       OKEY_TIMER_HORIZON=str(HORIZON))
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        logs = {name: open(tmp_path / f"{name}.log", "ab") for name in ("worker", "beat")}

        def start_worker():
            return subprocess.Popen(worker("timers"), cwd=ROOT, env=env, stdout=logs["worker"],
                                    stderr=subprocess.STDOUT)

        def ready(count):
            return (tmp_path / "worker.log").read_text(errors="replace").count("start-up sweep:") >= count

        procs = {"worker": start_worker(),
                 "beat": subprocess.Popen(beat(tmp_path / "schedule"), cwd=ROOT, env=env, stdout=logs["beat"],
                                          stderr=subprocess.STDOUT)}
        monitor = Deadlines(database)
        monitor.start()
        try:
            wait_for(lambda: ready(1), 120, "the worker")
            made = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c",
                                   CREATE.format(count=TABLES, move_time=MOVE_TIME)],
                                  cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            tables = json.loads(made.stdout.strip().splitlines()[-1])
            with psycopg.connect(database) as conn:
                games = [row[0] for row in conn.execute("SELECT id FROM games_game WHERE table_id = ANY(%s)",
                                                        (tables,))]

            def held():  # every first move deadline's timer sent, by the sweep: none at its commit
                with psycopg.connect(database) as conn:
                    return conn.execute("SELECT count(*) FROM games_game WHERE id = ANY(%s) AND deadline_kind = "
                                        "'move' AND timer_sent = deadline", (games,)).fetchone()[0] == TABLES

            wait_for(held, MOVE_TIME, "the sweep to send the first timers")
            procs["worker"].kill()  # with the timers it holds
            procs["worker"].wait(10)
            procs["worker"] = start_worker()
            wait_for(lambda: ready(2), MOVE_TIME, "the restarted worker's start-up sweep")
            up = time.time()
            fired = wait_for(lambda: timeouts(database, games, 2), 3 * MOVE_TIME + 60, "two timeouts per table")
            # else the test proves nothing: each first deadline fell due after the new worker was up
            assert all(min(monitor.seen[game]).timestamp() > up for game in games), (monitor.seen, up)
            late = lateness(monitor, fired)
            assert all(abs(s) <= ON_TIME.total_seconds() for s in late), late
            # no move deadline's timer was sent at its commit: every one was first seen unsent
            assert not any(sent for deadlines in monitor.seen.values() for sent in deadlines.values()), monitor.seen
        finally:
            monitor.stopped.set()
            for proc in procs.values():
                proc.terminate()
            for proc in procs.values():
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
