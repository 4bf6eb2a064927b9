"""A private scaled stack for fault runs: its own Redis, its own PostgreSQL cluster, and
the site's processes (daphne, Celery worker, Celery beat) started from this checkout.

Nothing here touches the machine's shared PostgreSQL (5432) or Redis (6379): other test
runs use them, and a fault run restarts what it uses. Every server listens on 127.0.0.1
on a free port and keeps its files under one work directory.

    with PrivateRedis(workdir) as redis, PrivatePostgres(workdir) as pg:
        stack = Stack(workdir, env(redis.url, pg.url("okeysite")))
        stack.start({"web1": daphne(port1), "worker": worker(), "beat": beat(workdir)})
"""
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable


def free_port():
    """A TCP port free on 127.0.0.1 now (int)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, timeout=60.0, proc=None):
    """Wait until 127.0.0.1:`port` accepts connections. Raises RuntimeError after `timeout`
    seconds, or at once when `proc` (a Popen) exits first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with {proc.returncode} before port {port} opened")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


class PrivateRedis:
    """A redis-server of our own (no persistence, like a restart that loses every queued
    message). `url` is its redis:// URL; `restart(down)` stops it for `down` seconds."""

    def __init__(self, workdir, port=None):
        self.port = port or free_port()
        self.dir = Path(workdir) / f"redis-{self.port}"
        self.proc = None

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.dir.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir)],
            stdout=open(self.dir / "redis.log", "ab"), stderr=subprocess.STDOUT)
        wait_for_port(self.port, 20, self.proc)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def restart(self, down=2.0):
        """Stop the server, wait `down` seconds, start it again (empty). Returns the
        monotonic time it accepts connections again."""
        self.stop()
        time.sleep(down)
        self.start()
        return time.monotonic()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()


def _pg_bin(name):
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"no PostgreSQL {name} under /usr/lib/postgresql")
    return found[-1]


class PrivatePostgres:
    """A PostgreSQL cluster of our own (`initdb` as the postgres user, trust auth, on a free
    port), so that a fault run may restart it. `url(name)` is a database URL on it."""

    def __init__(self, workdir, port=None):
        self.port = port or free_port()
        self.dir = Path(workdir) / f"pg-{self.port}"
        self.data = self.dir / "data"

    def url(self, name):
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def _as_postgres(self, *argv, check=True):
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        return subprocess.run(prefix + list(argv), check=check, capture_output=True, text=True)

    def start(self):
        if not self.data.exists():
            self.dir.mkdir(parents=True, exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(self.dir, "postgres", "postgres")
            self._as_postgres(_pg_bin("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                              "--no-sync", "-E", "UTF8")
        self._as_postgres(_pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "pg.log"), "-w", "-o",
                          f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                          f"-c max_connections=200", "start")
        wait_for_port(self.port, 30)

    def stop(self):
        if self.data.exists():
            self._as_postgres(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)

    def restart(self, down=2.0):
        """Stop the cluster (fast: open connections break), wait `down` seconds, start it.
        Returns the monotonic time it accepts connections again."""
        self.stop()
        time.sleep(down)
        self.start()
        return time.monotonic()

    def create_database(self, name):
        self._as_postgres(_pg_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-c",
                          f'CREATE DATABASE "{name}"')

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def site_env(redis_url, database_url, **overrides):
    """The environment of the site's processes in the scaled set-up: this process's
    environment without its database/broker/settings variables, then `overrides`."""
    drop = ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "OKEY_TEST_DB_NAME")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(DATABASE_URL=database_url, REDIS_URL=redis_url, PYTHONUNBUFFERED="1",
               SECRET_KEY=env.get("SECRET_KEY") or "fault-bench-" + os.urandom(16).hex(),
               EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend")
    env.update(overrides)
    return env


# daphne's options for every web process: the Makefile's DAPHNE_OPTS, deploy/supervisord.conf
# and the README spell the same (tests/deploy/test_daphne_options.py holds them to it).
# - Small WebSocket frames only (daphne's default is 1 MiB): a table frame is a few KB.
# - A WebSocket ping after 3 s without a frame, and the socket dropped when its pong is not
#   back within 4 s: a peer whose network is gone (no FIN ever comes) is noticed within
#   about 9 s (daphne checks every 2 s), so at an online table the computer plays the
#   dropped player's turn after the disconnect grace instead of the whole move clock. A
#   hidden tab answers pings too (the browser does, not the page's timers), so only dead
#   sockets go; the page's own 90 s idle close stays for pages that stopped sending.
# - A handshake the application has not accepted within 5 s is refused (daphne: 20 s).
DAPHNE_OPTIONS = ["--websocket-max-message-size", "65536", "--websocket-max-frame-size", "65536",
                  "--ping-interval", "3", "--ping-timeout", "4", "--websocket_connect_timeout", "5"]


def daphne(port):
    """argv of one daphne web process on `port` with DAPHNE_OPTIONS (the README's flags)."""
    return [PYTHON, "-m", "daphne", *DAPHNE_OPTIONS, "-b", "127.0.0.1", "-p", str(port),
            "okeysite.asgi:application"]


def worker(name, embedded_beat=False, schedule=None):
    """argv of one Celery worker named `name` (solo pool); `embedded_beat` adds `-B` (the
    sweeper inside the worker, the set-up that dies with it) with its `schedule` file."""
    argv = [PYTHON, "-m", "celery", "-A", "okeysite", "worker", "--pool", "solo", "--loglevel", "INFO",
            "-n", f"{name}@%h"]
    if embedded_beat:
        argv += ["-B", "--schedule", str(schedule)]
    return argv


def beat(schedule):
    """argv of the Celery beat process (the periodic deadline sweeper) with its `schedule` file."""
    return [PYTHON, "-m", "celery", "-A", "okeysite", "beat", "--loglevel", "INFO", "--schedule", str(schedule)]


def migrate(env):
    """`manage.py migrate` with `env`. Raises CalledProcessError."""
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)


class Stack:
    """The site's processes, each started from `argv` with `env`, logs in `workdir`.

    `start(commands)` starts them ({label: argv}); `kill9(label)` kills one with SIGKILL;
    `restart(label)` starts it again (as a supervisor would); `alive(label)`; `stop()`.
    """

    def __init__(self, workdir, env):
        self.workdir = Path(workdir)
        self.env = env
        self.commands = {}
        self.procs = {}

    def start(self, commands):
        for label, argv in commands.items():
            self.commands[label] = argv
            self._spawn(label)

    def _spawn(self, label):
        log = open(self.workdir / f"{label}.log", "ab")
        self.procs[label] = subprocess.Popen(self.commands[label], cwd=ROOT, env=self.env, stdout=log,
                                             stderr=subprocess.STDOUT, start_new_session=True)

    def alive(self, label):
        return self.procs[label].poll() is None

    def pid(self, label):
        return self.procs[label].pid

    def kill9(self, label):
        proc = self.procs[label]
        os.killpg(proc.pid, signal.SIGKILL)  # the solo pool and beat run in one process group each
        proc.wait(10)

    def restart(self, label):
        if self.alive(label):
            return
        self._spawn(label)

    def log_text(self, label):
        return (self.workdir / f"{label}.log").read_text(errors="replace")

    def stop(self):
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
