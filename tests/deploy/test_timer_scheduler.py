"""A move timer starts within half a second of its deadline under the one scheduler of
the timers (ARCHITECTURE.md invariant 5), including after a worker restart. The deadlines
are further off than the horizon, so no timer goes out at their commit: the beat sweep
sends each once it is due soon, with the countdown left, to a real worker on a private
Redis. The worker is killed while it holds the first deadlines' timers and started again:
its start-up sweep sends them once more and they fire on time; the next move deadlines'
timers are sent by the sweep to the new worker and fire on time too."""
import json
import re
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
# (horizon, move time) in seconds: the move time beyond the horizon, so the sweep sends each
# timer. Before the restart the site's kind of horizon.
SWEEP_PATH = (4, 10)
# For the restart the move time is set from how long this machine took to start the worker
# just before (`restart_times`): a worker restarted on a busy machine (60 s seen) must be up
# before the deadlines whose timers it lost, and a fixed 120 s mostly waited on an idle one.
# The sweep sends each timer SENT_AFTER seconds after its table's commit; the test then
# kills the worker and starts another.
SENT_AFTER = 10
TABLES = 3
ON_TIME = timedelta(seconds=0.5)

CREATE = """
import json, time
from django.contrib.auth import get_user_model
from games.play import tables
made = []
for n in range({count}):
    user = get_user_model().objects.create_user(f"{prefix}{{n}}", f"{prefix}{{n}}@example.com", "pw-timer-1234")
    made.append(tables.create_table(user, "okey51", {{"rounds": 3}}, mode="solo", move_time={move_time}).pk)
    time.sleep(2)  # deadlines apart: what is timed is the scheduling, not a queue of timeouts
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
    None until each has that many (each timer that fired played its turn)."""
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


FIRED = re.compile(r"move timer of game (\d+) fired (-?[\d.]+) s after its deadline")


def lateness(log, games):
    """{game: [seconds from each move deadline to its timer's start, as the worker logged
    it (`games.tasks.turn_timeout`)]} of `games`."""
    out = {}
    for game, late in FIRED.findall(log.read_text(errors="replace")):
        if int(game) in games:
            out.setdefault(int(game), []).append(float(late))
    return out


def restart_times(startup):
    """(horizon, move time) in seconds for the restart phase, given `startup`, the seconds
    a worker took to start and run its start-up sweep on this machine just before: the sweep sends each timer
    SENT_AFTER s after its commit (the three tables are committed within about 10 s), then
    the worker is killed and started again, which gets three times `startup` (at least 20 s)
    to be up before the first of those deadlines. At most 120 s, the fixed move time this
    phase had, which left time enough for a restart on a busy machine (60 s seen)."""
    move_time = min(120, SENT_AFTER + 10 + max(20, 3 * round(startup)))
    return move_time - SENT_AFTER, move_time


def on_time(late):
    return all(abs(s) <= ON_TIME.total_seconds() for times in late.values() for s in times)


def sent_at_commit(monitor, games):
    """The `games` whose first move deadline had its timer sent when first seen, right
    after its commit (it should be the sweep's to send, later)."""
    return [game for game in games if monitor.seen[game][min(monitor.seen[game])]]


def test_a_move_timeout_fires_on_time_from_the_sweep_and_after_a_worker_restart(tmp_path, database):
    with PrivateRedis(tmp_path) as redis:
        # Slow computers: the tables play on after their timeouts, and the worker must stay
        # free to fire the timers on time, not run a queue of computer turns.
        env = site_env(redis.url, database, OKEY_CHANNEL_PREFIX=tmp_path.name, OKEY_BOT_DELAY="5",
                       OKEY_BOT_STEP_DELAY="1", OKEY_SEED_WINDOW="0", OKEY_SWEEP_INTERVAL="1")
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                       check=True)
        logs = {name: open(tmp_path / f"{name}.log", "ab") for name in ("worker", "beat")}

        def start_worker(horizon):
            # The pool deploy/supervisord.conf runs (prefork, two children), not bench.stack's solo
            # one: a timer due while a computer turn runs goes to the other child.
            argv = worker("timers")
            at = argv.index("--pool")
            argv[at:at + 2] = ["--concurrency", "2"]
            return subprocess.Popen(argv, cwd=ROOT, env=dict(env, OKEY_TIMER_HORIZON=str(horizon)),
                                    stdout=logs["worker"], stderr=subprocess.STDOUT)

        def ready(count):
            return (tmp_path / "worker.log").read_text(errors="replace").count("start-up sweep:") >= count

        def create(prefix, move_time):
            made = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c",
                                   CREATE.format(count=TABLES, prefix=prefix, move_time=move_time)],
                                  cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            with psycopg.connect(database) as conn:
                return [row[0] for row in conn.execute("SELECT id FROM games_game WHERE table_id = ANY(%s)",
                                                       (json.loads(made.stdout.strip().splitlines()[-1]),))]

        began = time.monotonic()
        procs = {"worker": start_worker(SWEEP_PATH[0]),
                 "beat": subprocess.Popen(beat(tmp_path / "schedule"), cwd=ROOT, env=env, stdout=logs["beat"],
                                          stderr=subprocess.STDOUT)}
        monitor = Deadlines(database)
        monitor.start()
        try:
            # The sweep sends each move timer once it is due soon; the worker fires it on time.
            wait_for(lambda: ready(1), 180, "the worker")
            first_startup = time.monotonic() - began
            # Not timed: the worker's first computer turn loads the bots (seconds on a busy machine).
            warm = create("warm", SWEEP_PATH[1])
            wait_for(lambda: timeouts(database, warm, 1), 3 * SWEEP_PATH[1] + 60, "a first timeout")
            games = create("sweep", SWEEP_PATH[1])
            wait_for(lambda: timeouts(database, games, 1), 3 * SWEEP_PATH[1] + 60, "the first timeouts")
            late = lateness(tmp_path / "worker.log", games)
            assert len(late) == TABLES and on_time(late), late
            assert not sent_at_commit(monitor, games)

            # A worker killed with the timers it holds: the one started after it sends them again.
            procs["worker"].terminate()
            procs["worker"].wait(30)
            horizon, move_time = restart_times(first_startup)
            started = time.monotonic()
            procs["worker"] = start_worker(horizon)
            wait_for(lambda: ready(2), 180, "the worker with the long horizon")
            # from the slower of the two starts; a worker sweeps with the horizon it started with
            slower = restart_times(max(first_startup, time.monotonic() - started))
            if slower != (horizon, move_time):
                horizon, move_time = slower
                procs["worker"].terminate()
                procs["worker"].wait(30)
                procs["worker"] = start_worker(horizon)
                wait_for(lambda: ready(3), 180, "the worker with the longer horizon")
            print(f"worker start-up {first_startup:.1f} s, restart move time {move_time} s")
            sweeps = (tmp_path / "worker.log").read_text(errors="replace").count("start-up sweep:")
            games = create("restart", move_time)

            def held():  # every first move deadline's timer sent by the sweep
                with psycopg.connect(database) as conn:
                    return conn.execute("SELECT count(*) FROM games_game WHERE id = ANY(%s) AND deadline_kind = "
                                        "'move' AND timer_sent = deadline", (games,)).fetchone()[0] == TABLES

            wait_for(held, move_time, "the sweep to send the timers")
            procs["worker"].kill()
            procs["worker"].wait(10)
            procs["worker"] = start_worker(horizon)
            wait_for(lambda: ready(sweeps + 1), move_time, "the restarted worker's start-up sweep")
            up = time.time()
            wait_for(lambda: timeouts(database, games, 1), 2 * move_time + 60, "the timeouts after it")
            # else the test proves nothing: each deadline fell due after the new worker was up
            assert all(min(monitor.seen[game]).timestamp() > up for game in games), (monitor.seen, up, move_time)
            late = lateness(tmp_path / "worker.log", games)
            assert len(late) == TABLES and on_time(late), late
            assert not sent_at_commit(monitor, games)
        finally:
            monitor.stopped.set()
            for proc in procs.values():
                proc.terminate()
            for proc in procs.values():
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
