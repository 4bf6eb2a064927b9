"""Starts and stops the real stack the benchmark measures, and cleans up after it.

``embedded``: one daphne process serving ``okeysite.asgi`` with no ``REDIS_URL`` (the
in-memory channel layer and the in-process Celery worker), on SQLite or PostgreSQL —
what ``make run`` serves. ``scaled``: N daphne processes on their own ports, M
``celery -A okeysite worker`` processes and one ``celery beat`` (the sweeper), on
PostgreSQL and Redis. Beside either, the bare-Channels comparison app
(``bench.live.bare_app``) on as many daphne processes, with the same channel layer.

Everything the run creates is private and removed by :meth:`Stack.close`: a throw-away
database (``okeybench_<pid>``, or a SQLite file in a temporary directory), an empty Redis
database claimed with an owner key, channel-layer prefixes of its own, the processes
(each in its own process group), logs and the beat schedule.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
DAPHNE_LIMITS = ["--websocket-max-message-size", "65536", "--websocket-max-frame-size", "65536"]
# Knobs passed to the servers unless the caller's environment sets them (seconds).
# Every load-generator socket comes from 127.0.0.1, where a real site sees one address per
# player: the per-address socket caps are lifted (the per-user cap stays).
DEFAULT_KNOBS = {"OKEY_BOT_DELAY": "0.05", "OKEY_BOT_STEP_DELAY": "0.01", "OKEY_NEXT_ROUND_DELAY": "1",
                 "OKEY_WS_MAX_PER_IP": "100000", "OKEY_WS_LOBBY_MAX_PER_IP": "100000",
                 # the lobby run's one creator makes a table per cycle, all left playing
                 "OKEY_MAX_ACTIVE_TABLES": "1000", "OKEY_TABLES_PER_HOUR": "100000"}
OWNER_KEY = "okeybench:owner"


def free_port() -> int:
    """A TCP port nobody listens on now (the kernel's choice)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Proc:
    """One started process: its role name (``daphne:8001``, ``celery-worker-1``...), port."""
    name: str
    popen: subprocess.Popen
    log: Path
    port: int | None = None


@dataclass
class Stack:
    """The servers of one measurement. ``mode``: "embedded" | "scaled"; ``db``: "sqlite" |
    "postgres"; ``daphnes``/``workers``: process counts (scaled); ``bare``: also start the
    bare-Channels app. Use: :meth:`prepare`, :meth:`make_users`, :meth:`start`, and always
    :meth:`close`."""
    mode: str
    db: str
    daphnes: int = 1
    workers: int = 1
    bare: bool = True
    product: bool = True
    server: str = "daphne"  # the ASGI server of the product and bare processes: daphne | uvicorn
    worker_args: list[str] = field(default_factory=list)
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="okeybench-")))
    procs: list[Proc] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    db_name: str = ""
    pg_admin_url: str = ""
    redis_url: str = ""
    redis_db: int | None = None
    prefix: str = ""

    # ----------------------------------------------------------------- set-up

    def prepare(self) -> dict[str, str]:
        """Create the database, claim Redis, migrate. Returns the servers' environment
        (also used by :meth:`make_users`)."""
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
        for key, value in DEFAULT_KNOBS.items():
            env.setdefault(key, value)
        # scaled settings are production's, which refuse to start without a secret key: a
        # throw-away one, the same in every process of this stack
        env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
        self.prefix = f"okeybench{os.getpid()}"
        if self.db == "sqlite":
            env["DATABASE_URL"] = f"sqlite:///{self.tmp / 'db.sqlite3'}"
        else:
            base = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
            parts = urlsplit(base)
            if not parts.scheme.startswith("postgres"):
                raise SystemExit("--db postgres / --mode scaled need a postgres:// DATABASE_URL")
            self.db_name = f"okeybench_{os.getpid()}"
            self.pg_admin_url = urlunsplit(parts._replace(path="/postgres"))
            self._pg(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            self._pg(f'CREATE DATABASE "{self.db_name}"')
            env["DATABASE_URL"] = urlunsplit(parts._replace(path=f"/{self.db_name}"))
        if self.mode == "scaled":
            self.redis_url = self._claim_redis(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
            env["REDIS_URL"] = self.redis_url
            env["OKEY_CHANNEL_PREFIX"] = self.prefix
        env["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
        env["PYTHONUNBUFFERED"] = "1"
        self.env = env
        with open(self.tmp / "migrate.log", "ab") as log:
            subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env,
                           check=True, stdout=log, stderr=subprocess.STDOUT)
        return env

    def prepare_layer(self) -> dict[str, str]:
        """Claim Redis and build the environment of processes that use only the channel
        layer (``product=False``: the bare app alone, as ``bench.floor`` runs it). No
        database. Returns the environment."""
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DJANGO_SETTINGS_MODULE")}
        self.prefix = f"okeybench{os.getpid()}"
        self.redis_url = self._claim_redis(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0")
        env.setdefault("SECRET_KEY", f"okeybench-layer-only-{os.urandom(24).hex()}")  # throw-away processes
        env.update(REDIS_URL=self.redis_url, OKEY_CHANNEL_PREFIX=self.prefix, PYTHONUNBUFFERED="1",
                   DJANGO_SETTINGS_MODULE="okeysite.settings", DATABASE_URL=f"sqlite:///{self.tmp / 'none.sqlite3'}")
        self.env = env
        return env

    def _pg(self, sql: str, params=None, fetch=False):
        import psycopg

        with psycopg.connect(self.pg_admin_url, autocommit=True) as conn:
            cur = conn.execute(sql, params)
            return cur.fetchall() if fetch else None

    def _claim_redis(self, base: str) -> str:
        """An empty Redis database of the server in ``base``, claimed with OWNER_KEY (set
        NX), so the Celery broker queue and keys of this run are nobody else's."""
        import redis

        parts = urlsplit(base)
        for db in range(15, 0, -1):
            url = urlunsplit(parts._replace(path=f"/{db}"))
            client = redis.Redis.from_url(url)
            try:
                if client.dbsize() == 0 and client.set(OWNER_KEY, str(os.getpid()), nx=True):
                    if client.dbsize() == 1:
                        self.redis_db = db
                        return url
                    client.delete(OWNER_KEY)
            finally:
                client.close()
        raise SystemExit(f"no empty Redis database on {parts.netloc} to claim")

    def spawn(self, name: str, argv: list[str], env: dict[str, str], port: int | None = None) -> Proc:
        """Start `argv` in a process group of its own with `env`, its output in a log of
        `name` under the run's directory; stopped by :meth:`close`. Returns its Proc."""
        log = self.tmp / f"{name.replace(':', '-')}.log"
        with open(log, "ab") as out:  # the child keeps its own copy of the descriptor
            popen = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        proc = Proc(name, popen, log, port)
        self.procs.append(proc)
        return proc

    def start(self) -> None:
        """Start the servers (after :meth:`prepare`) and wait until each answers HTTP."""
        py = sys.executable
        count = 1 if self.mode == "embedded" else self.daphnes
        for _ in range(count if self.product else 0):
            port = free_port()
            self.spawn(f"{self.server}:{port}", self.server_argv("okeysite.asgi:application", port), self.env, port)
        if self.mode == "scaled" and self.product:
            for i in range(self.workers):
                self.spawn(f"celery-worker-{i + 1}", [py, "-m", "celery", "-A", "okeysite", "worker",
                                                       "-n", f"{self.prefix}-{i + 1}@%h", "--loglevel=warning",
                                                       "--without-gossip", "--without-mingle", *self.worker_args],
                            self.env)
            self.spawn("celery-beat", [py, "-m", "celery", "-A", "okeysite", "beat", "--loglevel=warning",
                                        "-s", str(self.tmp / "celerybeat-schedule")], self.env)
        if self.bare:
            bare_env = dict(self.env, DJANGO_SETTINGS_MODULE="bench.live.bare_settings")
            if self.mode == "scaled":
                bare_env["OKEY_CHANNEL_PREFIX"] = self.prefix + "bare"
            for _ in range(count):
                port = free_port()
                self.spawn(f"bare-{self.server}:{port}", self.server_argv("bench.live.bare_app:application", port),
                           bare_env, port)
        deadline = time.monotonic() + 120
        for proc in self.procs:
            if proc.port is not None:
                self._wait_http(proc, deadline)

    def server_argv(self, app: str, port: int) -> list[str]:
        """The command serving ASGI `app` on 127.0.0.1:`port` with `server`, both with the
        site's 64 KiB WebSocket message limit (Makefile DAPHNE_LIMITS)."""
        if self.server == "uvicorn":
            return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port), "--ws-max-size",
                    "65536", "--no-access-log", "--log-level", "warning", "--lifespan", "off", app]
        return [sys.executable, "-m", "daphne", *DAPHNE_LIMITS, "-b", "127.0.0.1", "-p", str(port), app]

    def _wait_http(self, proc: Proc, deadline: float) -> None:
        while time.monotonic() < deadline:
            if proc.popen.poll() is not None:
                raise RuntimeError(f"{proc.name} exited ({proc.popen.returncode}):\n{self.tail(proc)}")
            try:
                with socket.create_connection(("127.0.0.1", proc.port), timeout=2) as s:
                    s.sendall(b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
                    if s.recv(12).startswith(b"HTTP/1."):
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{proc.name} did not answer HTTP within 120 s:\n{self.tail(proc)}")

    def tail(self, proc: Proc, lines: int = 30) -> str:
        """The last ``lines`` lines of a process's log."""
        try:
            return "\n".join(proc.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def make_users(self, count: int, prefix: str) -> list[dict]:
        """``count`` users named ``<prefix><i>`` with a logged-in session each, made with the
        ORM in a child process on this stack's database (bench.live.users). Returns
        ``[{"username", "cookies": {name: value}}]``."""
        out = subprocess.run([sys.executable, "-m", "bench.live.users", str(count), prefix], cwd=ROOT,
                             env=self.env, check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    # ---------------------------------------------------------------- reading

    def ports(self, bare: bool = False) -> list[int]:
        """The product's (or the bare app's) daphne ports."""
        return [p.port for p in self.procs if p.port is not None and p.name.startswith("bare-") == bare]

    def roots(self, bare: bool = False) -> dict[str, int]:
        """Process names -> pids for the CPU meter: the product's processes (or the bare
        app's daphnes), the load generator itself, and the PostgreSQL / Redis servers."""
        from bench.live.procstat import pids_named

        out = {p.name: p.popen.pid for p in self.procs if p.name.startswith("bare-") == bare}
        out["load-generator"] = os.getpid()
        if self.db == "postgres" and not bare:
            for pid in pids_named("postgres"):
                out["postgres (server, all databases)"] = pid
        if self.mode == "scaled":
            for pid in pids_named("redis-server"):
                out["redis-server (all clients)"] = pid
        return out

    def pg_counters(self) -> dict | None:
        """This database's pg_stat_database counters, plus ``server_xact_commit``: every
        database's commits by name (other users' work included). Read from the ``postgres``
        database, so the read itself is not counted. None on SQLite."""
        if not self.db_name:
            return None
        names = ("xact_commit", "xact_rollback", "tup_returned", "tup_fetched", "tup_inserted", "tup_updated",
                 "tup_deleted")
        rows = self._pg(f"SELECT datname, {', '.join(names)} FROM pg_stat_database WHERE datname IS NOT NULL",
                        fetch=True)
        mine = next((r for r in rows if r[0] == self.db_name), None)
        if mine is None:
            return None
        out = dict(zip(names, (int(v) for v in mine[1:])))
        out["server_xact_commit"] = {r[0]: int(r[1]) for r in rows}
        return out

    def db_backend_cpu(self) -> dict[int, float]:
        """CPU seconds so far of each PostgreSQL backend connected to this stack's database
        ({pid: seconds}; empty on SQLite): the database's own share of the server, which
        the postgres row of the meter (every database, other users' included) cannot give."""
        from bench.live.procstat import tree_usage

        if not self.db_name:
            return {}
        rows = self._pg("SELECT pid FROM pg_stat_activity WHERE datname = %s", (self.db_name,), fetch=True)
        return {pid: tree_usage(pid, {})[0] for (pid,) in rows}

    def check_alive(self) -> list[str]:
        """Names of started processes that have exited."""
        return [p.name for p in self.procs if p.popen.poll() is not None]

    # ---------------------------------------------------------------- clean-up

    def stop_processes(self) -> None:
        """SIGTERM each process group, SIGKILL what is left after 10 s."""
        for proc in self.procs:
            if proc.popen.poll() is None:
                try:
                    os.killpg(proc.popen.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 10
        for proc in self.procs:
            try:
                proc.popen.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:  # the group: also prefork children left behind by a worker
                os.killpg(proc.popen.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.popen.wait()
        self.procs.clear()

    def close(self, keep_logs: bool = False) -> None:
        """Stop the processes, drop the database, free the Redis database, remove files.
        Safe to call twice."""
        self.stop_processes()
        if self.db_name:
            self._pg(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            self.db_name = ""
        if self.redis_url:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            try:
                if client.get(OWNER_KEY) == str(os.getpid()).encode():
                    client.flushdb()
            finally:
                client.close()
            self.redis_url = ""
        if keep_logs:
            print(f"logs kept in {self.tmp}", file=sys.stderr)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)

