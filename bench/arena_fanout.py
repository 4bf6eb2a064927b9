"""The arena standings' fan-out on the scaled set-up (`bench.arena --part fanout`; the
module head of `bench.arena` says what is measured and how)."""
from __future__ import annotations

import asyncio
import json
import os
import statistics
import sys
import time

from bench.live.stack import ROOT, Stack

MARK_BASE = 900_000  # the marked player's score in update k is MARK_BASE + k: no real score is that high


def _pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def _setup_django(env):
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _make_arena(players):
    """A running okey51 arena with `players` entries (scores spread like a real arena's).
    Returns (arena id, the marked entry's id)."""
    import random
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games.arena.models import Arena, ArenaEntry

    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"fan{i}", email=f"fan{i}@example.com") for i in range(players)])
    arena = Arena.objects.create(ruleset="okey51", starts=timezone.now() - timedelta(minutes=1), minutes=45, seats=4)
    rng = random.Random(7)
    now = timezone.now()
    ArenaEntry.objects.bulk_create([ArenaEntry(arena=arena, user=u, score=rng.randrange(0, 40),
                                               matches=rng.randrange(1, 8), seen=now, reached=now) for u in users])
    return arena.pk, ArenaEntry.objects.filter(arena=arena).order_by("pk").values_list("pk", flat=True).first()


def _trigger(arena_id, entry_id, k):
    """Update k: the marked player's score changes and the standings go out as the sweep
    sends them. Returns (perf_counter at the trigger, perf_counter once the channel layer
    took the frame, queries the update made)."""
    from django.core.cache import cache
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from games.arena import live
    from games.arena.models import ArenaEntry

    cache.delete(f"okey:arena:{arena_id}:sent")  # the throttle is the sweep's concern, not the fan-out's
    start = time.perf_counter()
    with transaction.atomic():
        ArenaEntry.objects.filter(pk=entry_id).update(score=MARK_BASE + k)
        with CaptureQueriesContext(connection) as queries:
            live.announce(arena_id)  # sent when the transaction commits
    handed = time.perf_counter()  # committed, frame built and handed to the channel layer
    if os.environ.get("BENCH_SHOW_SQL"):
        print([q["sql"][:90] for q in queries.captured_queries], file=sys.stderr)
    return start, handed, len(queries)


async def _watch(url, origin, marks, arrivals, ready, retries):
    import websockets

    for attempt in range(6):  # a page whose handshake was dropped under load connects again, as arena.js does
        try:
            ws = await websockets.connect(url, origin=origin, max_size=None, open_timeout=60, ping_interval=None)
            break
        except (websockets.exceptions.InvalidMessage, websockets.exceptions.InvalidStatus, OSError):
            if attempt == 5:
                raise
            retries.append(url)
            await asyncio.sleep(0.5 * (attempt + 1))
    async with ws:
        await ws.recv()  # the standings at connect
        ready.append(ws.response.headers.get("Sec-WebSocket-Extensions") or "")
        async for text in ws:
            at = time.perf_counter()
            for k, mark in marks.items():
                if mark in text:
                    arrivals.setdefault(k, []).append(at)
                    break


async def _run(args, stack, arena_id, entry_id, counters):
    ports = stack.ports()
    marks, arrivals, ready, tasks, handed_ms, retries = {}, {}, [], [], [], []

    def open_watchers(count):
        for _i in range(count):
            port = ports[(len(tasks)) % len(ports)]
            url = f"ws://127.0.0.1:{port}/ws/arena/{arena_id}/"
            watcher = _watch(url, f"http://127.0.0.1:{port}", marks, arrivals, ready, retries)
            tasks.append(asyncio.ensure_future(watcher))

    async def wait_ready(count):
        deadline = time.monotonic() + 120
        while len(ready) < count:
            failed = [t for t in tasks if t.done()]
            if failed:
                failed[0].result()  # raises what refused the socket
                raise RuntimeError("a watcher closed before the measurement")
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(ready)} of {count} watchers connected in 120 s")
            await asyncio.sleep(0.05)

    async def update(k):
        marks[k] = f'"score":{MARK_BASE + k},'
        start, handed, queries = await asyncio.to_thread(_trigger, arena_id, entry_id, k)
        deadline = time.monotonic() + 30
        while len(arrivals.get(k, [])) < len(tasks) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        handed_ms.append((handed - start) * 1000)
        return [(at - start) * 1000 for at in arrivals.get(k, [])], queries

    open_watchers(1)
    await wait_ready(1)
    _lat, one_queries = await update(0)
    # pages arrive in waves of 25: each connect builds its own standings frame, and 500 at
    # once would outlast daphne's handshake timeout on two cores (a real arena's pages
    # arrive over minutes)
    while len(tasks) < args.watchers:
        open_watchers(min(25, args.watchers - len(tasks)))
        await wait_ready(len(tasks))
    await asyncio.sleep(2)  # the connect burst's own work settles
    quiet_start = counters()
    await asyncio.sleep(args.updates * 1.25 + 1.5)  # as long as the updates take: what the idle site commits
    quiet = counters() - quiet_start
    before = counters()
    rows, all_queries = [], set()
    for k in range(1, args.updates + 1):
        latencies, queries = await update(k)
        all_queries.add(queries)
        rows.append(latencies)
        await asyncio.sleep(1.2)  # a real arena sends at most one frame a second
    await asyncio.sleep(1.5)  # PostgreSQL publishes a backend's counters when it goes idle
    after = counters()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return rows, one_queries, all_queries, quiet, after - before, ready[0], handed_ms[1:], len(retries)


async def _bare(args, stack, size):
    """The same run's floor: --watchers sockets of the bare-Channels app (`bench.live.bare_app`,
    same daphne count and Redis layer, no database) in one group, and --updates frames of
    `size` bytes group-sent to all of them, one every 1.2 s, each triggered by one of the
    sockets. Returns per update the ms from the trigger to each socket's receipt."""
    import websockets

    ports = stack.ports(bare=True)
    sockets = []
    for k in range(args.watchers):  # the same waves as the arena pages
        port = ports[k % len(ports)]
        for attempt in range(6):
            try:
                sockets.append(await websockets.connect(f"ws://127.0.0.1:{port}/ws/bare/1/", origin=f"http://127.0.0.1:{port}",
                                                        max_size=None, open_timeout=60, ping_interval=None))
                break
            except (websockets.exceptions.InvalidMessage, websockets.exceptions.InvalidStatus, OSError):
                if attempt == 5:
                    raise
                await asyncio.sleep(0.5 * (attempt + 1))
        if k % 25 == 24:
            await asyncio.sleep(0.2)
    await asyncio.sleep(2)
    arrivals = {}

    async def read(ws):
        async for text in ws:
            at = time.perf_counter()
            if text.startswith('{"type": "snapshot"'):
                arrivals.setdefault(text[:80].split('"id": "', 1)[1].split('"', 1)[0], []).append(at)

    readers = [asyncio.ensure_future(read(ws)) for ws in sockets]
    rows = []
    for k in range(1, args.updates + 1):
        frame_id = key = f"u{k}"
        start = time.perf_counter()
        await sockets[0].send(json.dumps({"type": "action", "id": frame_id, "version": 0, "size": size}))
        deadline = time.monotonic() + 30
        while len(arrivals.get(key, [])) < len(sockets) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        rows.append([(at - start) * 1000 for at in arrivals.get(key, [])])
        await asyncio.sleep(1.2)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    for ws in sockets:
        await ws.close()
    return rows


def fanout(args) -> int:
    """Run the fan-out measurement and print its figures. Returns the exit code."""
    from bench.commit_cost import SECRET

    os.environ.setdefault("SECRET_KEY", SECRET)  # throw-away processes: production settings need one
    stack = Stack(mode="scaled", db="postgres", daphnes=args.daphne, workers=0, bare=True)
    try:
        env = stack.prepare()
        env["OKEY_SWEEP_INTERVAL"] = "3600"  # no sweep of its own: this process triggers every update
        stack.start()
        _setup_django(env)
        from django.db import connection

        from games.arena.live import standings_frame

        arena_id, entry_id = _make_arena(args.players)
        frame_bytes = len(standings_frame(arena_id))
        connection.close()

        def counters():
            found = stack.pg_counters()
            return found["xact_commit"] if found else 0

        load_before = os.getloadavg()[0]
        found = asyncio.run(_run(args, stack, arena_id, entry_id, counters))
        load_product = os.getloadavg()[0]
        bare_rows = asyncio.run(_bare(args, stack, frame_bytes))
        load_bare = os.getloadavg()[0]
        rows, one_q, all_q, quiet, busy, extensions, handed, retried = found
        every = [ms for row in rows for ms in row]
        missing = sum(args.watchers - len(row) for row in rows)
        print(f"arena standings fan-out · scaled: PostgreSQL + Redis channel layer + {args.daphne} daphne · "
              f"{args.players} players in the standings ({frame_bytes / 1024:.1f} KiB frame) · "
              f"{args.watchers} arena-page sockets ({retried} handshakes retried) · extensions: {extensions or 'none'}")
        for k, row in enumerate(rows, 1):
            print(f"  update {k:2d}: {len(row)} received  p50 {statistics.median(row):7.1f}  "
                  f"p99 {_pct(row, 99):7.1f}  max {max(row):7.1f} ms")
        print(f"  all {len(rows)} updates: {len(every)} receipts ({missing} missing)  p50 "
              f"{statistics.median(every):7.1f}  p99 {_pct(every, 99):7.1f}  max {max(every):7.1f} ms "
              f"(goal: p99 <= 200 ms)")
        bare = [ms for row in bare_rows for ms in row]
        if bare:
            print(f"  same run, baseline: bare Channels (bench/live/bare_app.py, same daphne count and Redis layer, "
                  f"no database), a {frame_bytes / 1024:.1f} KiB frame group-sent to {args.watchers} sockets, "
                  f"{len(bare_rows)} times: p50 {statistics.median(bare):7.1f}  p99 {_pct(bare, 99):7.1f}  "
                  f"max {max(bare):7.1f} ms ({args.watchers * len(bare_rows) - len(bare)} missing); product/bare "
                  f"p50 {statistics.median(every) / statistics.median(bare):.1f}x  "
                  f"p99 {_pct(every, 99) / _pct(bare, 99):.1f}x")
        print(f"  load average (1 min): {load_before:.1f} before, {load_product:.1f} after the product's updates, "
              f"{load_bare:.1f} after the baseline's (2 cores)")
        print(f"  trigger -> frame built, committed and handed to the channel layer: p50 "
              f"{statistics.median(handed):6.1f}  max {max(handed):6.1f} ms (the rest is Redis, daphne, the sockets)")
        print(f"  queries to build one update: {one_q} with 1 watcher, {sorted(all_q)} with {args.watchers}")
        # this process made one transaction per update; anything more came from the servers
        print(f"  database transactions during the {len(rows)} updates: {busy} ({busy - len(rows)} besides the "
              f"updates' own; {quiet} in a quiet window as long, no update sent)")
        return 0 if not missing else 1
    finally:
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        stack.close(keep_logs=bool(os.environ.get("BENCH_KEEP_LOGS")))
