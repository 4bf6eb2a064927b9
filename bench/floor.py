"""The floor of one game version on the stack the customer fixed, with no game code:
what PostgreSQL, Celery and Channels alone cost per version on this machine, and so how
many versions per second its cores could carry if everything of ours cost nothing.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m bench.floor        # --parts pg,celery,channels --server uvicorn

- **pg**: the smallest transaction the one writer can commit (ARCHITECTURE.md invariant 2)
  through psycopg, the driver Django uses, with no ORM: lock the game row and read its
  position (`SELECT ... FOR NO KEY UPDATE`), insert one move row, update the game row
  (position, version, deadline), commit. A dealt okey51 position (about 1.2 KB of JSON),
  `--clients` processes on their own games, with PostgreSQL's default durability and then
  with `synchronous_commit=off`. CPU of the clients and of their server sessions (the
  floor's part: the whole server's, also printed, holds other databases' work on a shared
  machine).
- **celery**: one timer task per `--task-rate` tick (`countdown`, as the site sends its
  turn timers), to a `celery worker` with the site's broker settings whose task only counts
  itself (`bench.floor_celery`): CPU of the sender, the worker (prefork children, or the
  pool `--worker-arg=--pool=solo` asks for) and redis-server per task.
- **channels**: the bare-Channels app of `bench.live_tables` (`bench.live.bare_app`) on
  `--daphne` processes and the Redis layer: per frame, an ack and a snapshot group-sent to
  the table's two sockets, each message dispatched straight to its handler as the
  product's sockets do (`BARE_DISPATCH=direct`). CPU of the server processes and
  redis-server per frame (`--server uvicorn` needs `pip install 'uvicorn[standard]'`, not a project dependency).

It ends with the floor of one okey51 version with two humans and two computers: one
transaction, two thirds of a timer task (a timer per turn: per six versions, two human
turns of two versions each and two computer turns of one; the site now sends a human's move
timer only when the move time is about to run out, so it sends fewer, but the floor keeps
this definition) and one frame's fan-out, and the
versions per second the machine's cores would carry at that cost. The database is a
throw-away one (`okeyfloor_<pid>`, dropped at the end); Redis is an empty database claimed
as `bench.live_tables` claims it, flushed at the end.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import time
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit, urlunsplit

from bench.live.procstat import Meter, pids_named, tree_usage
from bench.live.stack import ROOT, Stack
from bench.live.stats import latencies

TURN_SHARE = 4 / 6  # timer tasks per version of an okey51 table with two humans and two computers
SCHEMA = """
CREATE TABLE game (id integer PRIMARY KEY, version integer NOT NULL, position jsonb, deadline timestamptz);
CREATE TABLE move (id bigserial PRIMARY KEY, game_id integer NOT NULL, number integer NOT NULL,
                   action jsonb NOT NULL, events jsonb NOT NULL, created timestamptz NOT NULL DEFAULT now());
CREATE INDEX move_game_number ON move (game_id, number);
"""
LOCK = "SELECT version, position FROM game WHERE id = %s FOR NO KEY UPDATE"
INSERT = "INSERT INTO move (game_id, number, action, events) VALUES (%s, %s, %s, %s)"
UPDATE = "UPDATE game SET version = %s, position = %s, deadline = %s WHERE id = %s"


def _session_cpu(pid: int) -> float:
    return tree_usage(pid)[0]


def _pg_client(url: str, first: int, games: int, count: int, synchronous: bool, out) -> None:
    """One client process: `count` transactions round-robin over its own `games` rows."""
    import psycopg
    from psycopg.types.json import Jsonb

    with psycopg.connect(url) as conn:
        if not synchronous:
            conn.execute("SET synchronous_commit = off")
            conn.commit()
        backend = conn.info.backend_pid
        action = Jsonb({"type": "discard", "tile": "R7", "seat": 0})
        cpu0, session0, wall0 = time.process_time(), _session_cpu(backend), time.perf_counter()
        for n in range(count):
            game = first + n % games
            with conn.transaction():
                version, position = conn.execute(LOCK, (game,)).fetchone()
                conn.execute(INSERT, (game, version + 1, action, Jsonb([])))
                deadline = datetime.now(timezone.utc) + timedelta(seconds=30)
                conn.execute(UPDATE, (version + 1, Jsonb(position), deadline, game))
        out.put((time.process_time() - cpu0, _session_cpu(backend) - session0, time.perf_counter() - wall0))


def measure_pg(base_url: str, clients: int, transactions: int, synchronous: bool) -> dict:
    """Commit `transactions` floor transactions from `clients` processes on a throw-away
    database. Returns {"tps", "client_ms", "session_ms", "server_ms"} (CPU ms per transaction;
    `server_ms` is the whole PostgreSQL server's, other databases' work included)."""
    import psycopg
    from psycopg.types.json import Jsonb

    from games.engine import api

    parts = urlsplit(base_url)
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    name = f"okeyfloor_{os.getpid()}"
    url = urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        games = 50
        with psycopg.connect(url) as conn:
            conn.execute(SCHEMA)
            for g in range(clients * games):
                position = api.deal("okey51", {}, f"{g:064x}", 4, 0)
                conn.execute("INSERT INTO game VALUES (%s, 0, %s, NULL)", (g, Jsonb(position)))
        ctx = multiprocessing.get_context("fork")
        out = ctx.Queue()
        per = transactions // clients
        server = pids_named("postgres")
        server0 = sum(tree_usage(pid)[0] for pid in server)
        wall0 = time.perf_counter()
        procs = [ctx.Process(target=_pg_client, args=(url, c * games, games, per, synchronous, out))
                 for c in range(clients)]
        for p in procs:
            p.start()
        results = [out.get() for _ in procs]
        wall = time.perf_counter() - wall0
        for p in procs:
            p.join()
        server_cpu = sum(tree_usage(pid)[0] for pid in server) - server0
        done = per * clients
        return {"tps": done / wall, "client_ms": 1000 * sum(r[0] for r in results) / done,
                "session_ms": 1000 * sum(r[1] for r in results) / done, "server_ms": 1000 * server_cpu / done}
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def measure_celery(stack: Stack, tasks: int, rate: float, worker_args: list[str]) -> dict:
    """Send `tasks` timer tasks at `rate` per second to a worker of `bench.floor_celery`
    and wait until every one ran. Returns {"tasks_per_s", "sender_ms", "worker_ms", "redis_ms"}
    (CPU ms per task)."""
    env = dict(stack.env, FLOOR_BROKER=stack.redis_url)
    os.environ["FLOOR_BROKER"] = stack.redis_url
    from bench import floor_celery

    worker = stack.spawn("floor-worker", [sys.executable, "-m", "celery", "-A", "bench.floor_celery", "worker",
                                           "-n", f"{stack.prefix}-floor@%h", "--loglevel=warning",
                                           "--without-gossip", "--without-mingle", *worker_args], env)
    import redis

    counter = redis.Redis.from_url(stack.redis_url)
    redis_pid = pids_named("redis-server")

    def send(n: int) -> float:
        counter.set(floor_celery.COUNTER, 0)
        cpu0, start = time.process_time(), time.perf_counter()
        for i in range(n):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            floor_celery.app.send_task("floor.touch", args=(i, i), countdown=0.01)
        sent_cpu = time.process_time() - cpu0
        deadline = time.monotonic() + 120
        while int(counter.get(floor_celery.COUNTER) or 0) < n:
            if time.monotonic() > deadline or worker.popen.poll() is not None:
                raise RuntimeError(f"the floor worker ran {counter.get(floor_celery.COUNTER)} of {n} tasks:\n"
                                   + stack.tail(worker))
            time.sleep(0.05)
        return sent_cpu

    send(min(200, tasks))  # the worker is up, its children forked, its connections open
    worker0 = tree_usage(worker.popen.pid)[0]
    redis0 = sum(tree_usage(pid)[0] for pid in redis_pid)
    wall0 = time.perf_counter()
    sender_cpu = send(tasks)
    wall = time.perf_counter() - wall0
    worker_cpu = tree_usage(worker.popen.pid)[0] - worker0
    redis_cpu = sum(tree_usage(pid)[0] for pid in redis_pid) - redis0
    counter.close()
    return {"tasks_per_s": tasks / wall, "sender_ms": 1000 * sender_cpu / tasks,
            "worker_ms": 1000 * worker_cpu / tasks, "redis_ms": 1000 * redis_cpu / tasks}


def measure_channels(stack: Stack, tables: int, rate: float, size: int, seconds: float) -> dict:
    """The bare app's load (`bench.live.bareload`): `tables` tables of two sockets, `rate`
    frames per second per table, snapshots of `size` bytes. Returns {"frames_per_s",
    "daphne_ms" (CPU ms per frame, above the daphne processes' idle CPU), "redis_ms", "idle_percent",
    "others": latency summary}."""
    from bench.live.bareload import run_bare

    # The processes' own idle work (timers, the layer's polling) first, so a low rate is
    # not charged for it.
    idle = Meter({k: v for k, v in stack.roots(bare=True).items() if k.startswith("bare-")})
    idle.start()
    time.sleep(5.0)
    idle.stop()
    idle_per_s = sum(p["cpu_seconds"] for p in idle.report()["processes"].values()) / idle.report()["seconds"]
    meter = Meter(stack.roots(bare=True))
    rec, start, end = asyncio.run(run_bare("127.0.0.1", stack.ports(bare=True), tables, 2, rate, size, 3.0,
                                           seconds, "floor", meter))
    report = meter.report()
    frames = sum(1 for t, *_ in rec.sent if start <= t < end) or 1
    cpu = {name: p["cpu_seconds"] for name, p in report["processes"].items()}
    daphne = sum(v for name, v in cpu.items() if name.startswith("bare-")) - idle_per_s * (end - start)
    redis_cpu = sum(v for name, v in cpu.items() if name.startswith("redis-server"))
    return {"frames_per_s": frames / (end - start), "daphne_ms": 1000 * daphne / frames,
            "redis_ms": 1000 * redis_cpu / frames, "idle_percent": 100 * idle_per_s,
            "others": latencies(rec, start, end, by_id=True)["others"]}


def add_arguments(p: argparse.ArgumentParser, prefix: str = "") -> None:
    """The floor's knobs on parser `p`, each named `--{prefix}NAME` (live_tables.py uses
    the prefix "floor-" for the floor it measures beside the product)."""
    p.add_argument(f"--{prefix}parts", default="pg,celery,channels")
    p.add_argument(f"--{prefix}clients", type=int, default=2, help="database client processes (default 2)")
    p.add_argument(f"--{prefix}transactions", type=int, default=6000)
    p.add_argument(f"--{prefix}tasks", type=int, default=3000)
    p.add_argument(f"--{prefix}task-rate", type=float, default=300.0, help="timer tasks sent per second (300)")
    p.add_argument(f"--{prefix}worker-arg", action="append", default=[],
                   help="passed to the celery worker (--pool=solo ...)")
    p.add_argument(f"--{prefix}daphne", type=int, default=2, help="server processes of the bare app (2)")
    p.add_argument(f"--{prefix}server", choices=("daphne", "uvicorn"), default="daphne", help="ASGI server (daphne)")
    p.add_argument(f"--{prefix}tables", type=int, default=100, help="bare tables of two sockets (100)")
    p.add_argument(f"--{prefix}frame-rate", type=float, default=2.0, help="frames per second per bare table (2)")
    p.add_argument(f"--{prefix}size", type=int, default=4000, help="snapshot bytes (4000, the product's median)")
    p.add_argument(f"--{prefix}seconds", type=float, default=20.0)


def measure(args, prefix: str = "", out=print) -> dict:
    """Measure the parts of the floor `args` asks for (the attributes `add_arguments` made,
    with `prefix`), printing each part's line with `out`. Returns {"parts": {part: CPU ms
    per version}, "total_ms", "versions_per_s" (at most, on this machine's cores)}."""
    def arg(name):
        return getattr(args, (prefix + name).replace("-", "_"))

    parts = set(arg("parts").split(","))
    sys.path.insert(0, str(ROOT))
    cores = os.cpu_count() or 1
    floor = {}
    if "pg" in parts:
        base = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
        for synchronous in (True, False):
            r = measure_pg(base, arg("clients"), arg("transactions"), synchronous)
            label = "default" if synchronous else "synchronous_commit=off"
            out(f"  pg ({label:<22}) {r['tps']:8.0f} transactions/s from {arg('clients')} clients; CPU ms per "
                f"transaction: client {r['client_ms']:.3f}, its session {r['session_ms']:.3f}, "
                f"whole server {r['server_ms']:.3f}")
            if synchronous:
                # The client and its own server session: on a shared machine the whole
                # server's CPU holds other databases' work (live_tables.py counts only its
                # database's backends on the product's side, the same way).
                floor["pg"] = r["client_ms"] + r["session_ms"]
    stack = None
    try:
        if parts & {"celery", "channels"}:
            stack = Stack(mode="scaled", db="sqlite", daphnes=arg("daphne"), product=False,
                          bare="channels" in parts, server=arg("server"))
            stack.prepare_layer()
            stack.env["BARE_DISPATCH"] = "direct"  # no thread hop per message: the product's sockets pay none
            if "channels" in parts:
                stack.start()
                r = measure_channels(stack, arg("tables"), arg("frame-rate"), arg("size"), arg("seconds"))
                out(f"  channels {r['frames_per_s']:8.0f} frames/s ({arg('tables')} tables x 2 sockets, "
                    f"{arg('size')} B, {arg('server')}); CPU ms per frame: server {r['daphne_ms']:.3f} (above its "
                    f"idle {r['idle_percent']:.1f} %), redis {r['redis_ms']:.3f}; "
                    f"others p50 / p99 {r['others']['p50']:.1f} / {r['others']['p99']:.1f} ms")
                floor["channels"] = r["daphne_ms"] + r["redis_ms"]
            if "celery" in parts:
                r = measure_celery(stack, arg("tasks"), arg("task-rate"), arg("worker-arg"))
                out(f"  celery {r['tasks_per_s']:8.0f} tasks/s; CPU ms per task: sender {r['sender_ms']:.3f}, "
                    f"worker {r['worker_ms']:.3f}, redis {r['redis_ms']:.3f}")
                floor["celery"] = TURN_SHARE * (r["sender_ms"] + r["worker_ms"] + r["redis_ms"])
    finally:
        if stack is not None:
            stack.close()
    total = sum(floor.values())
    return {"parts": {k: round(v, 3) for k, v in floor.items()}, "total_ms": round(total, 3),
            "versions_per_s": round(1000 * cores / total, 1) if total else None}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_arguments(p)
    args = p.parse_args(argv)
    cores = os.cpu_count() or 1
    print(f"the floor of a version · {cores} cores · loadavg {open('/proc/loadavg').read().split()[0]}")
    floor = measure(args)
    if floor["parts"]:
        shares = ", ".join(f"{k} {v:.2f}" for k, v in floor["parts"].items())
        print(f"  floor of one version: {floor['total_ms']:.2f} ms of CPU ({shares}) -> at most "
              f"{floor['versions_per_s']:,.0f} versions/s on {cores} cores with no game code at all")
        print("  " + json.dumps(floor["parts"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
