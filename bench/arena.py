"""What an arena costs: pairing a wave of players, and the live standings' fan-out.

``--part pairing``: CPU time of the pairing decision (`games.arena.pairing.pair`) for N
waiting players, of reading the waiting pool from the database (`service.waiting`, the
rows the decision needs) and of seating the whole wave (`service.pair_waiting`, in one
transaction under the arena's lock as the sweep runs it: a table created with its players
seated and dealt per group, after-commit sends included). Beside it, the same run seats
--compare tables of 4 the way a player's table is made (create, 3 joins, start), the
baseline of a table's cost on this machine now. It makes a throw-away database (`okeyarena_<pid>`,
dropped at the end; SQLite in a temporary directory without DATABASE_URL), joins N players
to one running okey51 arena of 4-seat tables, and prints p50 / max CPU ms over --repeat
runs for each step. The seating step runs once (it changes the pool).

``--part fanout``: how long a standings update takes to reach the arena pages, on the
scaled set-up deploy/ describes (PostgreSQL, the Redis channel layer, --daphne daphne
processes; `bench.live.stack`). It joins N players to a running arena, opens --watchers
real WebSocket clients on `/ws/arena/<id>/` (the `websockets` library, one asyncio
process, spread over the daphne processes), then --updates times changes one player's
score and sends the standings as the sweep does (`live.announce`, in this process, which
stands in for the Celery worker). It prints p50 / p99 / max of the time from the trigger
(before the score is written) to each socket's receipt of the frame carrying it, per
update and over all, the queries one update makes (counted with 1 watcher and with all of
them) and the transactions the servers made on the database while the frames went out
(pg_stat_database: watchers must cost none).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \
        .venv/bin/python -m bench.arena --players 1000 --watchers 500

``--part all`` (the default) runs both, the fan-out in a child process (one Django set-up
per database).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

from bench.commit_cost import SECRET, _prepare_database
from bench.live.stack import ROOT


def _cpu(call):
    start = time.process_time()
    result = call()
    return (time.process_time() - start) * 1000, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("all", "pairing", "fanout"), default="all")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--compare", type=int, default=20, help="tables seated the player's way (pairing)")
    parser.add_argument("--seed-window", default="3", help="OKEY_SEED_WINDOW (pairing): 3, the site's default, "
                        "seats the tables to wait for their players' seeds (dealt later, as the seeds arrive); "
                        "0 deals every table inside the wave")
    parser.add_argument("--watchers", type=int, default=500, help="arena-page sockets (fanout)")
    parser.add_argument("--updates", type=int, default=10, help="standings updates measured (fanout)")
    parser.add_argument("--daphne", type=int, default=2, help="daphne processes (fanout)")
    args = parser.parse_args(argv)
    if args.part in ("all", "pairing"):
        pairing_costs(args)
    if args.part == "all":
        import subprocess

        return subprocess.run([sys.executable, "-m", "bench.arena", "--part", "fanout", "--players",
                               str(args.players), "--watchers", str(args.watchers), "--updates", str(args.updates),
                               "--daphne", str(args.daphne)], cwd=ROOT).returncode
    if args.part == "fanout":
        from bench.arena_fanout import fanout

        return fanout(args)
    return 0


def pairing_costs(args) -> None:
    """The pairing part (see the module's head); prints its figures."""
    workdir = tempfile.mkdtemp(prefix="okeyarena-")
    database_url, drop_database = _prepare_database(os.environ.get("DATABASE_URL"), workdir)
    os.environ.update({"DATABASE_URL": database_url, "SECRET_KEY": SECRET, "OKEY_SEED_WINDOW": args.seed_window,
                       "DJANGO_SETTINGS_MODULE": "okeysite.settings", "OKEY_EMBEDDED_WORKER": "0"})
    os.environ.pop("REDIS_URL", None)
    sys.path.insert(0, str(ROOT))
    try:
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        from datetime import timedelta

        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.urls import reverse
        from django.utils import timezone

        from games.arena import pairing, service
        from games.arena.models import Arena, ArenaEntry

        User = get_user_model()
        users = User.objects.bulk_create([User(username=f"arena{i}", email=f"arena{i}@example.com")
                                          for i in range(args.players)])
        arena = Arena.objects.create(ruleset="okey51", starts=timezone.now() - timedelta(minutes=1), minutes=45,
                                     seats=4)
        rng = random.Random(7)
        now = timezone.now()
        ArenaEntry.objects.bulk_create([ArenaEntry(arena=arena, user=u, score=rng.randrange(0, 40), seen=now,
                                                   reached=now, last_opponents=rng.sample(range(1, 1000), 3))
                                        for u in users])
        pool = [pairing.Waiting(e.user_id, e.score, rng.random() * 30, rng.random() * 30, frozenset(e.last_opponents))
                for e in ArenaEntry.objects.filter(arena=arena)]
        decide = [_cpu(lambda: pairing.pair(pool, 4, 20))[0] for _ in range(args.repeat)]
        read = [_cpu(lambda: service.waiting(arena, timezone.now()))[0] for _ in range(args.repeat)]
        reverse("table", args=[1])  # the URL map loads once per process: a worker that paired before has it
        old_ms, old_tables = _cpu(lambda: _seat_one_by_one(arena, users[:4 * args.compare]))
        # the players' pages ping every few seconds: on a slow machine the steps above outlast OKEY_ARENA_AWAY
        ArenaEntry.objects.filter(arena=arena).update(seen=timezone.now())
        wall = time.perf_counter()
        seat_ms, seated = _cpu(lambda: _seat_wave(arena, timezone.now()))
        wall = (time.perf_counter() - wall) * 1000
        dealt = ("dealt in the wave (OKEY_SEED_WINDOW 0)" if float(args.seed_window) <= 0 else
                 f"dealt later, as the players' seeds arrive (OKEY_SEED_WINDOW {args.seed_window}, "
                 f"OKEY_ARENA_SEED_WAIT {settings.OKEY_ARENA_SEED_WAIT:g} s)")
        print(f"arena pairing · {django.db.connection.vendor} · {args.players} waiting players, 4-seat tables"
              f" · first deals {dealt} · load average {os.getloadavg()[0]:.1f}")
        print(f"  decision (pairing.pair)        p50 {statistics.median(decide):7.1f}  max {max(decide):7.1f} ms CPU")
        print(f"  pool read (service.waiting)    p50 {statistics.median(read):7.1f}  max {max(read):7.1f} ms CPU")
        tables = max(1, seated // 4)
        print(f"  seating the wave               {seat_ms:7.1f} ms CPU ({wall:.0f} ms wall) for {seated} players: "
              f"{tables} tables, {seat_ms / tables:.1f} ms a table (created seated, started, told; one transaction "
              f"under the arena's lock, as the sweep runs it, its after-commit sends included)")
        print(f"  same run, baseline: a table made as a player makes one (create, 3 joins, start), "
              f"{old_tables} tables   {old_ms / max(1, old_tables):7.1f} ms CPU a table")
    finally:
        from django.db import connections

        connections.close_all()
        drop_database()


def _seat_wave(arena, now):
    """The sweep's pairing step for `arena`: pool, decision and seating in one transaction
    under the arena's lock (`service.tick`). Returns the number of players seated."""
    from django.db import transaction

    from games.arena import service
    from okeysite import db_locks

    with transaction.atomic():
        db_locks.hold("arena", arena.pk)
        return service.pair_waiting(arena, now)


def _seat_one_by_one(arena, users):
    """Tables of 4 `users` made through the player's path (create, join, start), each step
    its own transaction: the same run's comparison for the wave's seating. Their users
    leave the pool: the arena's tables hold them. Returns the number of tables."""
    from games.arena.models import ArenaTable
    from games.models import Table
    from games.play import commit, tables

    count = 0
    for k in range(0, len(users) - 3, 4):
        table = tables.create_table(users[k], arena.ruleset, {}, mode=Table.Mode.ONLINE, move_time=arena.move_time,
                                    players=4, limited=False)
        ArenaTable.objects.create(arena=arena, table=table)
        for user in users[k + 1:k + 4]:
            tables.join_table(user, table.pk)
        with commit.locked(table.pk) as write:
            tables.start_locked(write)
        count += 1
    return count


if __name__ == "__main__":
    raise SystemExit(main())
