"""How long a player's presence takes to reach a follower's page (social/presence.py).

Starts daphne on the scaled set-up (PostgreSQL, Redis pub/sub layer) on a fresh database,
makes two players (bob follows alice) with the ORM in a child process, opens bob's page
socket (`/ws/me/`) and then, `--rounds` times, opens alice's page socket and closes it.
For each it times, on this process's clock, alice's handshake done -> bob's `presence`
"online" frame, and alice's close sent -> bob's "offline" frame. The same run's baseline
is a `ping` -> `pong` round trip on bob's socket (the floor of any frame on this host),
printed beside: on a busy machine both move together.

    .venv/bin/python -m bench.presence                # --rounds 30 --port 8131

The goal is every change on the follower's page within 1 s.
"""
import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

import psycopg
import websockets

from bench.stack import ROOT, daphne, migrate, site_env, wait_for_port

PG = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/0"

MAKE_PLAYERS = """
import json, os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
django.setup()
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from accounts.relations import follow
store = import_module(settings.SESSION_ENGINE).SessionStore
out = {}
for name in ("alice", "bob"):
    user = get_user_model().objects.create_user(name, f"{name}@bench.invalid")
    session = store()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    out[name] = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
follow(get_user_model().objects.get(username="bob"), get_user_model().objects.get(username="alice"))
print(json.dumps(out))
"""


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def page(port, cookie, path="/"):
    """A page socket whose `hello` came; returns (socket, when its handshake completed)."""
    socket = await websockets.connect(f"ws://127.0.0.1:{port}/ws/me/?path={path}",
                                      additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"})
    opened = time.perf_counter()
    hello = json.loads(await socket.recv())
    assert hello["type"] == "hello", hello
    return socket, opened


async def frame_of(socket, kind):
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if frame["type"] == kind:
            return frame


async def measure(port, cookies, rounds):
    bob, _opened = await page(port, cookies["bob"])
    online, offline, pings = [], [], []
    for _ in range(rounds):
        started = time.perf_counter()
        await bob.send('{"type":"ping"}')
        await frame_of(bob, "pong")
        pings.append(time.perf_counter() - started)
        await asyncio.sleep(1.1)  # the socket answers one ping a second
        alice, opened = await page(port, cookies["alice"], "/rules/")
        frame = await frame_of(bob, "presence")
        assert frame["state"] == "online", frame
        online.append(time.perf_counter() - opened)
        closing = time.perf_counter()
        await alice.close()
        frame = await frame_of(bob, "presence")
        assert frame["state"] == "offline", frame
        offline.append(time.perf_counter() - closing)
    await bob.close()
    return online, offline, pings


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--port", type=int, default=8131)
    args = parser.parse_args(argv)
    name = f"okeysite_bench_presence_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = site_env(REDIS, f"{PG}/{name}", OKEY_CHANNEL_PREFIX=name)
    server = None
    try:
        migrate(env)
        made = subprocess.run([sys.executable, "-c", MAKE_PLAYERS], cwd=ROOT, env=env, check=True,
                              capture_output=True, text=True)
        cookies = json.loads(made.stdout.strip().splitlines()[-1])
        with tempfile.TemporaryFile() as log:
            server = subprocess.Popen(daphne(args.port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
            wait_for_port(args.port, proc=server)
            online, offline, pings = asyncio.run(measure(args.port, cookies, args.rounds))
    finally:
        if server is not None:
            server.terminate()
            server.wait(15)
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def line(label, values):
        ms = [v * 1000 for v in values]
        return (f"{label:<34} median {statistics.median(ms):7.1f} ms   p90 {percentile(ms, 0.9):7.1f} ms   "
                f"max {max(ms):7.1f} ms")

    print(f"{args.rounds} rounds, daphne + PostgreSQL + Redis pub/sub, host load {os.getloadavg()[0]:.2f}")
    print(line("baseline: ping -> pong", pings))
    print(line("alice opens a page -> bob online", online))
    print(line("alice closes it -> bob offline", offline))
    worst = max(online + offline)
    print(f"goal: every change within 1 s: {'met' if worst < 1.0 else 'NOT met'} (worst {worst * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
