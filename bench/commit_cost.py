"""What one game version costs the process that commits it: CPU and wall time per human
action (`turns.submit_action`) and per computer turn (`turns.run_bot_turn`), on the real
database and channel layer, with no load beside it, and where that time goes (cProfile).

    .venv/bin/python -m bench.commit_cost --versions 2000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m bench.commit_cost --versions 2000 --profile 25

It makes a throw-away database (`okeycost_<pid>` on DATABASE_URL's server, dropped at the
end; SQLite in a temporary directory without DATABASE_URL) and, with REDIS_URL, claims an
empty Redis database the way `bench.live_tables` does (the timers' Celery messages and the
broadcasts go there; flushed at the end). Online okey51 tables with two humans and two
computers are played closed-loop in this one process: a human's move is the normal bot's
choice on its view, sent through `submit_action`; a computer's turn is the task body
`run_bot_turn`, called directly (no worker, no broker round trip). Prints per kind the
p50 / p99 / mean of CPU time and wall time (ms), versions per CPU second, and with
--profile the functions with the largest cumulative time. `--orm` runs the same play with
the writer's compiled reads and writes (games/prepared.py) replaced by the plain ORM
calls they stand for (the same querysets, `save()`, `bulk_create`): the check a Django
upgrade asks for, whether the ORM has caught up and prepared.py can go.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from functools import partial

from bench.live.stack import ROOT

SECRET = "bench-commit-cost-secret-key-not-for-production-0123456789"


def _prepare_database(url: str | None, workdir: str) -> tuple[str, callable]:
    if not url:
        return f"sqlite:///{workdir}/cost.sqlite3", lambda: None
    import psycopg

    name = f"okeycost_{os.getpid()}"
    admin = psycopg.connect(url, autocommit=True)
    admin.execute(f'CREATE DATABASE "{name}"')
    base = url.rsplit("/", 1)[0]

    def drop():
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()

    return f"{base}/{name}", drop


def _claim_redis(url: str | None) -> tuple[str | None, callable]:
    if not url:
        return None, lambda: None
    import redis

    base = url.rsplit("/", 1)[0]
    for db in range(15, 0, -1):
        client = redis.Redis.from_url(f"{base}/{db}")
        if client.dbsize() == 0 and client.set("okeybench:owner", str(os.getpid()), nx=True):
            return f"{base}/{db}", lambda c=client: c.flushdb()
    raise SystemExit("no empty Redis database to claim (1-15)")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def _play(versions: int, profiler: cProfile.Profile | None) -> dict[str, list[tuple[float, float]]]:
    from django.contrib.auth import get_user_model

    from games.bots import choose_action
    from games.engine import api
    from games.models import Game
    from games.play import tables, turns
    from games.play.timers import timer_args

    users = [get_user_model().objects.get_or_create(username=f"cost{i}", email=f"cost{i}@example.com")[0]
             for i in range(2)]
    samples: dict[str, list[tuple[float, float]]] = {"human action": [], "computer turn": []}
    done = 0
    while done < versions:
        table = tables.create_table(users[0], "okey51", {"rounds": 1}, mode="online", move_time=60)
        tables.join_table(users[1], table.pk)
        tables.start_match(users[0], table.pk)
        seats = {0: users[0], 2: users[1]}
        for n in range(100000):
            game = Game.objects.select_related("table").get(table=table)
            if game.deadline_kind == Game.Deadline.SEED:
                from games.play import seeding
                seeding.close_window(*timer_args(game))
                continue
            if game.position is None or api.is_over(game.position) or done >= versions:
                break
            turn = game.position["turn"]
            if turn in seats and game.deadline_kind == Game.Deadline.MOVE:
                action = choose_action(api.view(game.position, turn), "normal", f"{table.pk}:{n}")
                kind, call = "human action", partial(turns.submit_action, seats[turn], table.pk, action, game.version)
            elif game.deadline_kind == Game.Deadline.BOT:
                kind, call = "computer turn", partial(turns.run_bot_turn, *timer_args(game))
            else:
                break
            cpu, wall = time.process_time(), time.perf_counter()
            if profiler is not None:
                profiler.enable()
            result = call()
            if profiler is not None:
                profiler.disable()
            samples[kind].append((time.process_time() - cpu, time.perf_counter() - wall))
            if (getattr(result, "ok", None) is False) or result is False:
                break
            done += 1
    return samples


def _plain_orm() -> None:
    # Each prepared read runs its queryset through the ORM, each write is the ORM call it
    # replaces; the callers reach them through the module and the classes, so this is all.
    from games import prepared

    prepared.Prepared.fetch = lambda self, *args: list(self.build(*args))
    prepared.PreparedRows.rows = lambda self: list(self.build())
    prepared.save_row = lambda obj: obj.save()
    prepared.insert_rows = lambda objs: type(objs[0]).objects.bulk_create(objs) if objs else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", type=int, default=2000, help="versions to commit (default 2000)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N largest cumulative functions")
    parser.add_argument("--orm", action="store_true", help="plain ORM reads and writes instead of games/prepared.py")
    args = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="okeycost-")
    database_url, drop_database = _prepare_database(os.environ.get("DATABASE_URL"), workdir)
    redis_url, flush_redis = _claim_redis(os.environ.get("REDIS_URL"))
    os.environ.update({"DATABASE_URL": database_url, "SECRET_KEY": SECRET, "OKEY_SEED_WINDOW": "0",
                       "DJANGO_SETTINGS_MODULE": "okeysite.settings"})
    if redis_url:
        os.environ.update({"REDIS_URL": redis_url, "OKEY_CHANNEL_PREFIX": f"okeycost{os.getpid()}"})
    else:
        os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    try:
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        if args.orm:
            _plain_orm()
        _play(min(200, args.versions), None)  # warm-up: imports, caches, connections
        profiler = cProfile.Profile(time.process_time) if args.profile else None  # CPU time, not waits
        samples = _play(args.versions, profiler)
        from django.db import connection

        print(f"commit cost · {connection.vendor} · channel layer and broker: "
              f"{'Redis' if redis_url else 'in memory'} · {args.versions} versions"
              f"{' · plain ORM, no prepared reads' if args.orm else ''}")
        print(f"  {'kind':<15} {'n':>6} {'cpu p50 / p99 / mean ms':>26} {'wall p50 / p99 / mean ms':>27}")
        total_cpu = 0.0
        for kind, rows in samples.items():
            if not rows:
                continue
            cpu = [c * 1000 for c, _w in rows]
            wall = [w * 1000 for _c, w in rows]
            total_cpu += sum(cpu)
            print(f"  {kind:<15} {len(rows):>6} {_percentile(cpu, .5):8.2f} / {_percentile(cpu, .99):6.2f} / "
                  f"{statistics.fmean(cpu):6.2f} {_percentile(wall, .5):9.2f} / {_percentile(wall, .99):6.2f} / "
                  f"{statistics.fmean(wall):6.2f}")
        count = sum(len(rows) for rows in samples.values())
        print(f"  versions per CPU second of this process: {count / (total_cpu / 1000):.0f}")
        if profiler is not None:
            stats = pstats.Stats(profiler)
            stats.sort_stats(os.environ.get("COST_SORT", "cumulative")).print_stats(args.profile)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database()
        flush_redis()
    return 0


if __name__ == "__main__":
    sys.exit(main())
