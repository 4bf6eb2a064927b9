"""Live-tables load benchmark: the real stack, real users and sockets, closed-loop play.

    python -m bench.live_tables --mode embedded --tables 10,50 --seconds 30
    python -m bench.live_tables --mode scaled --daphne 2 --workers 2 --tables 10,50
    python -m bench.live_tables --mode scaled --lobby 100,500

For each K it starts a fresh stack (bench/live/stack.py: its own database, Redis database
and processes), opens K online tables with H human sockets each through the site's forms
(bench/live/tables.py), plays for ``--seconds`` after ``--warmup``, then runs the
bare-Channels comparison with the same sockets and message rate on the same stack
(bench/live/bareload.py), prints a table and stops and removes everything. ``--lobby N``
measures one lobby change reaching N lobby sockets (bench/live/lobby.py). See
bench/README.md for what each figure means.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time

from bench import floor as floor_bench
from bench.live import report
from bench.live.bareload import run_bare
from bench.live.lobby import run_lobby
from bench.live.procstat import Meter, hold_window
from bench.live.stack import DEFAULT_KNOBS, ROOT, Stack
from bench.live.stats import Recording, latencies, loop_lag, ratio, throughput, watch_loop_lag
from bench.live.tables import Run, table_slot, watchdog
from bench.live.web import Browser

HOST = "127.0.0.1"


def _ints(text: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("expected positive numbers")
    return values


def _form_value(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name, value


def parse_args(argv=None) -> argparse.Namespace:
    """The command line (``--help`` lists every knob)."""
    p = argparse.ArgumentParser(prog="python -m bench.live_tables", description=__doc__.split("\n\n")[0])
    p.add_argument("--mode", choices=("embedded", "scaled"), default="embedded")
    p.add_argument("--daphne", type=int, default=1, help="scaled: daphne processes (default 1)")
    p.add_argument("--workers", type=int, default=1, help="scaled: celery worker processes (default 1)")
    p.add_argument("--worker-arg", action="append", default=[], metavar="ARG",
                   help="scaled: extra argument for each celery worker, e.g. --worker-arg=--concurrency=4")
    p.add_argument("--db", choices=("sqlite", "postgres"), help="embedded: sqlite (default, as make run) or "
                   "postgres (a throw-away database on DATABASE_URL's server); scaled: always postgres")
    p.add_argument("--tables", type=_ints, help="K values, comma-separated (default 10 unless --lobby)")
    p.add_argument("--humans", type=int, default=2, help="human sockets per table, H (default 2)")
    p.add_argument("--seconds", type=float, default=30.0, help="measurement window per K (default 30)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds played before the window (default 5)")
    p.add_argument("--pace", choices=("fast", "human"), default="fast",
                   help="fast: act at once (saturation); human: wait 2-5 s after the turn starts")
    p.add_argument("--level", choices=("easy", "normal"), default="normal", help="how the humans choose moves")
    p.add_argument("--ruleset", default="okey51", help="comma list, cycled over tables (default okey51)")
    p.add_argument("--form", type=_form_value, action="append", default=[], metavar="NAME=VALUE",
                   help="create-table form field, e.g. --form move_time=60 (default: rounds=3, okey51 matches "
                        "of three rounds, so finished tables are replaced less often)")
    p.add_argument("--stall", type=float, default=60.0, help="replace a table with no new version for this "
                   "many seconds (default 60)")
    p.add_argument("--no-bare", action="store_true", help="skip the bare-Channels comparison")
    p.add_argument("--lobby", type=_ints, help="lobby mode: numbers of lobby sockets, e.g. 100,500")
    p.add_argument("--lobby-changes", type=int, default=5, help="create/join/start cycles per size (default 5)")
    p.add_argument("--lobby-settle", type=float, default=2.5, help="seconds after delivery before reading "
                   "the database counters (default 2.5)")
    p.add_argument("--lobby-timeout", type=float, default=60.0, help="give up waiting for a change to reach "
                   "every lobby socket after this many seconds (default 60; the sockets still missing it are counted)")
    p.add_argument("--seed", default="bench", help="seeds the players' choices and pauses")
    p.add_argument("--floor", action="store_true", help="after each K, measure the stack's floor (bench.floor) "
                   "and print the product's CPU per version against it; --floor-* set its knobs")
    floor_bench.add_arguments(p, prefix="floor-")
    p.add_argument("--json", metavar="FILE", help="write every figure to FILE")
    p.add_argument("--keep-logs", action="store_true", help="keep the servers' logs (path printed)")
    args = p.parse_args(argv)
    if args.mode == "scaled":
        if args.db == "sqlite":
            p.error("--mode scaled runs on PostgreSQL")
        args.db = "postgres"
    args.db = args.db or "sqlite"
    if args.tables is None and args.lobby is None:
        args.tables = [10]
    if args.humans < 1 or args.daphne < 1 or args.workers < 1:
        p.error("--humans, --daphne and --workers must be at least 1")
    args.rulesets = [r.strip() for r in args.ruleset.split(",") if r.strip()]
    args.form_values = {"rounds": "3", **dict(args.form)}
    return args


def _stack(args) -> Stack:
    return Stack(mode=args.mode, db=args.db, daphnes=args.daphne, workers=args.workers, bare=not args.no_bare,
                 worker_args=args.worker_arg)


async def _product(stack: Stack, args, k: int, users: list[dict]) -> dict:
    ports = stack.ports()
    rec = Recording()
    run = Run(HOST, ports, rec, humans=args.humans, rulesets=args.rulesets, pace=args.pace, level=args.level,
              seed=args.seed, stall=args.stall, form=args.form_values)
    browsers = [Browser(HOST, ports, u["cookies"], log=rec.http) for u in users]
    lag_stop = asyncio.Event()
    helpers = [asyncio.create_task(watch_loop_lag(rec, lag_stop)), asyncio.create_task(watchdog(run))]
    h = args.humans
    slots = [asyncio.create_task(table_slot(run, i, browsers[i * h:(i + 1) * h])) for i in range(k)]
    t0 = time.perf_counter()
    deadline = t0 + 120 + 2 * k
    while rec.events["tables_started"] < k and time.perf_counter() < deadline:
        await asyncio.sleep(0.2)
    setup_seconds = time.perf_counter() - t0
    await asyncio.sleep(args.warmup)
    meter = Meter(stack.roots())
    pg_before = await asyncio.to_thread(stack.pg_counters)  # off the loop: sockets keep being read
    backends_before = await asyncio.to_thread(stack.db_backend_cpu)
    start, end = await hold_window(meter, args.seconds)
    backends_after = await asyncio.to_thread(stack.db_backend_cpu)
    pg_after = await asyncio.to_thread(stack.pg_counters)
    await _drain(rec, start, end)
    run.stop()
    lag_stop.set()
    await asyncio.gather(*slots, *helpers, return_exceptions=True)
    return {
        "latency": latencies(rec, start, end), "throughput": throughput(rec, start, end),
        "loop_lag": loop_lag(rec, start, end), "errors": dict(rec.errors),
        "closes": {str(k_): v for k_, v in rec.closes.items()}, "setup_failures": dict(rec.setup),
        "events": dict(rec.events), "setup_seconds": round(setup_seconds, 1),
        "snapshot_bytes": int(statistics.median(rec.sizes)) if rec.sizes else 0,
        "meter": meter.report(), "exited": stack.check_alive(),
        "database": _db_rates(pg_before, pg_after, end - start),
        # a backend that started in the window counts from zero; one that exited in it is lost
        "db_backends_cpu_seconds": round(sum(cpu - backends_before.get(pid, 0.0)
                                             for pid, cpu in backends_after.items()), 2) if backends_after else None,
    }


async def _drain(rec: Recording, start: float, end: float, limit: float = 30.0) -> None:
    """Keep playing after the window until the window's actions are answered and their
    snapshots arrived everywhere (or stopped arriving for 3 s; at most ``limit`` s):
    cutting at the window's end would drop the slowest samples."""
    deadline = time.perf_counter() + limit
    lost, same = None, 0
    while time.perf_counter() < deadline:
        await asyncio.sleep(1.0)
        answered = rec.acks.keys() | rec.refused
        waiting = sum(1 for t0, t, s, a in rec.sent if start <= t0 < end and (t, s, a) not in answered)
        now_lost = latencies(rec, start, end)["lost"]
        same = same + 1 if now_lost == lost else 0
        lost = now_lost
        if not waiting and (not lost or same >= 3):
            return


def _db_rates(before: dict | None, after: dict | None, seconds: float) -> dict | None:
    """Per-second deltas of the pg_stat_database counters over the window (None on SQLite);
    ``share_of_server_xact``: this database's part of the commits of every database that
    existed at both ends of the window (test databases come and go)."""
    if not before or not after:
        return None
    out = {f"{k}_per_s": round((after[k] - before[k]) / seconds, 1) for k in after if k != "server_xact_commit"}
    old, new = before["server_xact_commit"], after["server_xact_commit"]
    server = sum(max(0, new[d] - old[d]) for d in new.keys() & old.keys())
    mine = after["xact_commit"] - before["xact_commit"]
    out["share_of_server_xact"] = round(mine / server, 3) if server else None
    return out


async def _bare(stack: Stack, args, k: int, product: dict) -> dict:
    sockets = k * args.humans
    rate = product["throughput"]["snapshots_per_s"] / sockets if sockets else 0.0
    rate = rate if rate > 0 else 1.0
    size = product["snapshot_bytes"] or 2000
    meter = Meter(stack.roots(bare=True))
    rec, start, end = await run_bare(HOST, stack.ports(bare=True), k, args.humans, rate, size,
                                     min(args.warmup, 3.0), args.seconds, args.seed, meter)
    return {"latency": latencies(rec, start, end, by_id=True), "throughput": throughput(rec, start, end),
            "loop_lag": loop_lag(rec, start, end), "rate_per_table": round(rate, 3), "size": size,
            "errors": dict(rec.errors), "closes": {str(c): n for c, n in rec.closes.items()},
            "meter": meter.report()}


def cpu_per_version(product: dict) -> dict | None:
    """The stack's CPU per game version in the product window: the started servers (daphne,
    workers, beat), this database's PostgreSQL backends and redis-server (all its clients:
    on a shared machine an upper bound), over the versions the tables advanced. Returns
    {"total_ms", "servers_ms", "db_ms", "redis_ms"} or None when no version advanced."""
    versions = product["throughput"]["versions_advanced_per_s"] * product["meter"]["seconds"]
    if not versions:
        return None
    procs = product["meter"]["processes"]
    servers = sum(p["cpu_seconds"] for name, p in procs.items()
                  if name != "load-generator" and not name.startswith(("postgres", "redis-server")))
    redis_cpu = sum(p["cpu_seconds"] for name, p in procs.items() if name.startswith("redis-server"))
    db = product.get("db_backends_cpu_seconds") or 0.0
    per = {"servers_ms": 1000 * servers / versions, "db_ms": 1000 * db / versions,
           "redis_ms": 1000 * redis_cpu / versions}
    per["total_ms"] = sum(per.values())
    return {k: round(v, 3) for k, v in per.items()}


def measure_tables(args, k: int) -> dict:
    """One K on a fresh stack: the product, then the bare comparison, then (with
    `--floor`) the stack's floor (`bench.floor`) on the same machine right after. Returns
    its figures."""
    stack = _stack(args)
    try:
        stack.prepare()
        users = stack.make_users(k * args.humans, f"bench{k}x")
        stack.start()

        async def both():
            product = await _product(stack, args, k, users)
            bare = None if args.no_bare else await _bare(stack, args, k, product)
            return product, bare

        product, bare = asyncio.run(both())
    finally:
        stack.close(keep_logs=args.keep_logs)
    floor = None
    if args.floor:
        print(f"  floor (bench.floor) after K={k}:", flush=True)
        floor = floor_bench.measure(args, prefix="floor-", out=lambda line: print(line, flush=True))
    cost = cpu_per_version(product)
    if cost is not None and floor and floor["total_ms"]:
        cost["floor_ms"] = floor["total_ms"]
        cost["ratio_to_floor"] = round(cost["total_ms"] / floor["total_ms"], 2)
    ratios = {}
    if bare:
        for key in ("ack", "own", "others"):
            ratios[key] = {q: ratio(product["latency"][key], bare["latency"][key], q) for q in ("p50", "p99")}
    return {"mode": args.mode, "tables": k, "humans": args.humans, "pace": args.pace, "seconds": args.seconds,
            "warmup": args.warmup, "rulesets": args.rulesets, "product": product, "bare": bare, "ratios": ratios,
            "floor": floor, "cpu_per_version": cost}


def measure_lobby(args, n: int) -> dict:
    """One lobby size on a fresh stack. Returns its figures."""
    stack = _stack(args)
    stack.bare = False
    try:
        stack.prepare()
        stack.start()

        async def go():
            meter = Meter(stack.roots())
            meter.start()
            # 120 s moves: no turn timer of a started table fires while the changes are measured
            form = {"move_time": "120", **args.form_values}
            result = await run_lobby(stack, HOST, stack.ports(), n, args.lobby_changes, args.rulesets[0],
                                     form, settle=args.lobby_settle, timeout=args.lobby_timeout)
            meter.stop()
            result["meter"] = meter.report()
            return result

        result = asyncio.run(go())
        result["exited"] = stack.check_alive()
    finally:
        stack.close(keep_logs=args.keep_logs)
    result["mode"] = args.mode
    return result


def _meta(args) -> dict:
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = ""
    knobs = {k: os.environ.get(k, v) for k, v in DEFAULT_KNOBS.items()}
    knobs.update({k: v for k, v in os.environ.items() if k.startswith("OKEY_") and k not in knobs})
    return {"commit": commit, "python": platform.python_version(), "cores": os.cpu_count(),
            "argv": sys.argv[1:], "knobs": knobs, "started": time.strftime("%Y-%m-%d %H:%M:%S"),
            "mode": args.mode, "daphne": args.daphne if args.mode == "scaled" else 1,
            "workers": args.workers if args.mode == "scaled" else 0, "db": args.db}


def _interrupt(signum, frame):
    """SIGTERM ends the run like Ctrl-C: the stacks' ``finally`` blocks clean up."""
    raise KeyboardInterrupt


def main(argv=None) -> int:
    """Command line entry point; exit status 1 if a started process died during a run."""
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupt)
    meta = _meta(args)
    print(f"okeysite live-tables benchmark · {args.mode}"
          + (f" ({args.daphne} daphne, {args.workers} celery worker(s) + beat)" if args.mode == "scaled" else "")
          + f" · {args.db} · commit {meta['commit'][:10]} · knobs "
          + " ".join(f"{k}={v}" for k, v in meta["knobs"].items()), flush=True)
    out = {"meta": meta, "tables": [], "lobby": []}
    failed = False
    for k in args.tables or []:
        result = measure_tables(args, k)
        out["tables"].append(result)
        failed |= bool(result["product"]["exited"])
        print(report.tables_block(result), flush=True)
    for n in args.lobby or []:
        result = measure_lobby(args, n)
        out["lobby"].append(result)
        failed |= bool(result["exited"])
        print(report.lobby_block(result), flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
        print(f"wrote {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted: the started processes, database and Redis keys were removed", file=sys.stderr)
        sys.exit(130)
