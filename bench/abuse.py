"""Abuse run of the scaled set-up: fuzzed frames, a flood, single bad frames and socket caps
against real daphne processes, Redis and PostgreSQL.

    .venv/bin/python -m bench.abuse
    options: --frames N (fuzz frames per socket, 2000), --sockets N (fuzzing sockets, 4),
             --flood S (seconds a flooder may send, 15), --keep

Starts its own Redis and PostgreSQL on free ports (`bench.stack`), migrates, starts two
daphne processes, a worker and the beat sweeper, then:
- fuzz: `--sockets` players of solo tables, each sending `--frames` frames of the fuzz
  test's mix (`tests.games.test_socket_fuzz.fuzz_frame`) to a daphne without the
  per-socket rate limit, without waiting for answers, reconnecting after each close;
  prints frames/s handled (until the answer to a marker sent after the last frame) and
  the closes by code;
- flood: one socket sending `sync` as fast as it can; prints how many frames it sent, how
  many `rate_limited` answers it got and when (and with which code) it was closed, and the
  ping round trip of another table's socket before and during the flood;
- single frames: the frames that killed sockets before (deep JSON, NUL and lone
  surrogates in chat and reports, oversized, invalid UTF-8) and what each got;
- caps: one user opening 12 sockets: how many were accepted, how many closed 4429;
and the tracebacks the daphne processes logged during the whole run.
"""
import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter

from bench import stack as st

SINGLE_FRAMES = [
    ("JSON nested 1,000 levels", "[" * 1000 + "]" * 1000),
    ("object nested 1,000 levels", '{"type": "action", "action": ' + '{"a": ' * 1000 + "1" + "}" * 1001),
    ("chat with NUL", json.dumps({"type": "chat", "text": "a\u0000b"})),
    ("chat with a lone surrogate", json.dumps({"type": "chat", "text": "a\ud800b"})),
    ("report reason with NUL", json.dumps({"type": "report", "reason": "x\u0000"})),
    ("report user with a lone surrogate", json.dumps({"type": "report", "user": "\udfff", "reason": "x"})),
    ("action with 15 KB extra field", json.dumps({"type": "action", "id": "x", "version": 0,
                                                  "action": {"type": "draw", "junk": "j" * 15000}})),
    ("20,000 characters", "x" * 20000),
    ("binary, not UTF-8", b"\xff\xfe\xfd"),
    ("unknown type", json.dumps({"type": "teleport"})),
]


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--sockets", type=int, default=4)
    parser.add_argument("--flood", type=float, default=15.0)
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    return parser.parse_args(argv)


def _url(port, table_id):
    return f"ws://127.0.0.1:{port}/ws/table/{table_id}/"


async def _open(port, table_id, cookie):
    from websockets.asyncio.client import connect

    return await connect(_url(port, table_id), origin=f"http://127.0.0.1:{port}",
                         additional_headers=[("Cookie", cookie)], open_timeout=10, max_size=None)


def _close_code(sock):
    return sock.close_code


def _wire(payload):
    # A str no UTF-8 encoder accepts (a raw lone surrogate) goes as the bytes it would be.
    if isinstance(payload, str):
        try:
            payload.encode("utf-8")
        except UnicodeEncodeError:
            return payload.encode("utf-8", "surrogatepass")
    return payload


async def _fuzz_one(port, table_id, cookie, frames, seed, totals, window=50):
    """One socket sending `frames` fuzz frames in windows of `window`, each closed by a
    marker frame whose answer says every frame before it was handled; a frame the socket
    is closed for goes alone, then the socket reconnects."""
    from tests.games.test_socket_fuzz import fuzz_frame

    rng = random.Random(seed)
    view = None
    sent = 0
    sock = None
    while sent < frames:
        if sock is None:
            sock = await _open(port, table_id, cookie)
            totals["connects"] += 1
        closing = None
        for _ in range(min(window, frames - sent)):
            payload, close = fuzz_frame(rng, "a", view)
            sent += 1
            if close is not None:
                closing = payload
                break
            await sock.send(_wire(payload))
            totals["handled"] += 1
        await sock.send(json.dumps({"type": "action", "id": "end", "version": -1, "action": {}}))
        while True:
            frame = json.loads(await sock.recv())
            totals["answers"] += 1
            if frame["type"] == "snapshot":
                view = dict(frame["view"], version=frame["version"])
            elif frame["type"] == "error" and frame.get("id") == "end":
                break
            elif frame["type"] == "error":
                totals["error " + frame["code"]] += 1
        if closing is not None:
            await sock.send(_wire(closing))
            totals["handled"] += 1
            try:
                while True:
                    await asyncio.wait_for(sock.recv(), 10)
            except Exception:  # noqa: BLE001 - the close this frame asked for
                pass
            totals[f"close {_close_code(sock)}"] += 1
            sock = None
    if sock is not None:
        await sock.close()


async def fuzz(ports, made, frames):
    totals = Counter()
    started = time.perf_counter()
    await asyncio.gather(*(_fuzz_one(ports[i % len(ports)], table_id, cookie, frames, 1000 + i, totals)
                           for i, (table_id, cookie) in enumerate(made)))
    return totals, time.perf_counter() - started


async def _ping_times(port, table_id, cookie, seconds):
    sock = await _open(port, table_id, cookie)
    times = []
    end = time.perf_counter() + seconds
    try:
        while time.perf_counter() < end:
            sent = time.perf_counter()
            await sock.send(json.dumps({"type": "ping"}))
            while json.loads(await sock.recv())["type"] != "pong":
                pass
            times.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(0.15)
    finally:
        await sock.close()
    return times


async def flood(port, table_id, cookie, quiet_table, quiet_cookie, seconds):
    before = await _ping_times(port, quiet_table, quiet_cookie, 2.0)
    sock = await _open(port, table_id, cookie)
    counts = Counter()

    async def reader():
        async for text in sock:
            frame = json.loads(text)
            counts[frame.get("code") or frame["type"]] += 1

    started = time.perf_counter()
    closed = {}

    async def read_until_closed():
        try:
            await reader()
        except Exception:  # noqa: BLE001 - the close ends the reading either way
            pass
        closed["after"] = time.perf_counter() - started

    reading = asyncio.ensure_future(read_until_closed())
    during = asyncio.ensure_future(_ping_times(port, quiet_table, quiet_cookie, min(seconds, 5.0)))
    sent = 0
    try:
        while time.perf_counter() - started < seconds and not closed:
            await sock.send('{"type": "sync"}')
            sent += 1
            if sent % 50 == 0:
                await asyncio.sleep(0)
    except Exception:  # noqa: BLE001 - closed by the server
        pass
    sending = time.perf_counter() - started
    try:
        await asyncio.wait_for(reading, 30)  # the server works through what it had received
    except asyncio.TimeoutError:
        reading.cancel()
    return {"sent": sent, "sending": sending, "answers": dict(counts), "closed_after": closed.get("after"),
            "code": _close_code(sock), "ping_before": before, "ping_during": await during}


async def single_frames(port, table_id, cookie):
    rows = []
    for name, payload in SINGLE_FRAMES:
        sock = await _open(port, table_id, cookie)
        await sock.recv()  # snapshot
        await sock.send(payload)
        got = None
        try:
            while got is None:
                frame = json.loads(await asyncio.wait_for(sock.recv(), 5))
                if frame["type"] in ("error", "ack"):
                    got = frame.get("code") or frame["type"]
        except Exception:  # noqa: BLE001 - closed or silent
            got = f"close {_close_code(sock)}" if sock.close_code is not None else "no answer"
        await sock.close()
        rows.append((name, got))
    return rows


async def caps(port, table_id, cookie, count=12):
    socks, outcome = [], Counter()
    for _ in range(count):
        sock = await _open(port, table_id, cookie)
        socks.append(sock)
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(sock.recv(), 5))
                if frame["type"] == "snapshot":
                    outcome["accepted"] += 1
                    break
        except Exception:  # noqa: BLE001
            outcome[f"close {_close_code(sock)}"] += 1
    for sock in socks:
        await sock.close()
    return outcome


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    workdir = st.Path(tempfile.mkdtemp(prefix="okey-abuse-"))
    os.chmod(workdir, 0o755)
    with st.PrivateRedis(workdir) as redis, st.PrivatePostgres(workdir) as pg:
        pg.create_database("okeysite")
        ports = [st.free_port(), st.free_port()]
        env = st.site_env(redis.url, pg.url("okeysite"), OKEY_CHANNEL_PREFIX="abuse", ALLOWED_HOSTS="127.0.0.1")
        st.migrate(env)
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
        import django

        django.setup()
        from bench.table_play import make_tables

        # web1 takes the fuzz without the per-socket rate limit (it measures the frame
        # checks); web2 has the site's limits for the flood, the single frames and the caps.
        fuzz_stack = st.Stack(workdir, dict(env, OKEY_WS_RATE="1000000", OKEY_WS_BURST="1000000"))
        stack = st.Stack(workdir, env)
        fuzz_stack.start({"web1": st.daphne(ports[0])})
        stack.start({"web2": st.daphne(ports[1]), "worker1": st.worker("worker1"),
                     "beat": st.beat(workdir / "celerybeat-schedule")})
        for port in ports:
            st.wait_for_port(port, 60)
        try:
            report(args, ports, (fuzz_stack, stack), make_tables)
        finally:
            stack.stop()
            fuzz_stack.stop()
    print(f"logs: {workdir}" if args.keep else "")


def report(args, ports, stacks, make_tables):
    made = make_tables(args.sockets + 3, prefix="abuse")
    fuzzers, (flood_table, quiet_table, cap_table) = made[:args.sockets], made[args.sockets:]
    totals, seconds = asyncio.run(fuzz(ports[:1], fuzzers, args.frames))
    print(f"fuzz: {totals['handled']} frames from {args.sockets} sockets handled in {seconds:.1f} s "
          f"({totals['handled'] / seconds:.0f} frames/s, {totals['answers'] / seconds:.0f} answers/s), "
          f"{totals['connects']} connections")
    print("  closes: " + ", ".join(f"{k[6:]}×{v}" for k, v in sorted(totals.items()) if k.startswith("close ")))
    print("  errors: " + ", ".join(f"{k[6:]}×{v}" for k, v in totals.most_common() if k.startswith("error ")))
    result = asyncio.run(flood(ports[1], flood_table[0], flood_table[1], quiet_table[0], quiet_table[1], args.flood))
    closed = (f"closed {result['code']} {result['closed_after']:.1f} s after the first frame"
              if result["code"] is not None else "not closed")
    print(f"flood: {result['sent']} frames sent in {result['sending']:.1f} s, {closed}; answers {result['answers']}")
    for label in ("ping_before", "ping_during"):
        times = result[label]
        print(f"  another table's ping {label[5:]}: p50 {statistics.median(times):.1f} ms, "
              f"max {max(times):.1f} ms ({len(times)} pings)" if times else f"  {label}: none")
    print("single frames:")
    for name, got in asyncio.run(single_frames(ports[1], cap_table[0], cap_table[1])):
        print(f"  {name:<36} {got}")
    print(f"caps: one user opening 12 sockets: {dict(asyncio.run(caps(ports[1], cap_table[0], cap_table[1])))}")
    tracebacks = {label: stack.log_text(label).count("Traceback (most recent call last)")
                  for stack in stacks for label in stack.procs if label.startswith("web")}
    print(f"server tracebacks logged: {tracebacks}")


if __name__ == "__main__":
    main()
