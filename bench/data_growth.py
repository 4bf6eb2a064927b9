"""What each page costs as the data grows: server time and queries of every page a player
or an admin opens, on a PostgreSQL database filled at three sizes.

    .venv/bin/python -m bench.data_growth fill --size S        # okeysite_growth_s, migrated and filled
    .venv/bin/python -m bench.data_growth measure --size S --json s.json
    .venv/bin/python -m bench.data_growth table s.json m.json l.json   # markdown, for bench/README.md
    .venv/bin/python -m bench.data_growth drop --size S

Sizes (`bench.growth_fill.SIZES`): S 1k players / 5k matches, M 20k / 100k, L 100k /
200k. `--server` is the PostgreSQL server (default postgres://postgres@127.0.0.1:5432),
`--db` the database name (default okeysite_growth_<size>). The fill refuses a database
that exists: fill once, measure many times (before and after a change, on the same rows).

`measure` runs the site in this process (Django's test client, the production settings
without Redis: no cache in front of the database) and requests every page `--repeat`
times after one warm-up: the lobby (anonymous and as the most active player), the
rankings' first and last page and those of this month and this week, the solo records'
first and last page, the profiles of the most active player and of a typical one (a
handful of matches), the score table,
game record, replay page and one round's replay frames of a two-round match, and as
staff every admin changelist (with a search where the page has a search box), the user
change page of the most active player. Then `export_games` over the last week and
`recompute_ratings` of one ruleset: their queries per match, and their time. The
recompute runs inside a transaction that is always rolled back (the filled ratings stay
for the next run); `--recompute-seconds` stops it early on a slow code path and the
figures are then per match over what it did.

Each line is: p50 and p95 server time (ms, wall clock: Python and the database), the
p50 CPU time of this process (ms: Python alone, what other jobs on the host inflate
least) and the queries of the page. The first lines are this run's baseline on a busy
host: the load average, a `SELECT 1` round trip and `/healthz`. On a shared host,
`--priority -10` (root) runs this process and its database session ahead of the other
jobs for the few minutes of the run.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = "postgres://postgres@127.0.0.1:5432"
SEARCH = {  # the search typed in each admin changelist that has a search box
    "auth.user": "player12", "games.match": "player12", "games.round": "player12", "games.table": "player12",
    "games.move": "player12", "games.game": "player12", "games.chatmessage": "gg",
    "games.chatreport": "player12", "leaderboards.rating": "player12", "leaderboards.ratingchange": "player12",
    "leaderboards.solorecord": "player12", "accounts.sanction": "player12",
    "accounts.playersettings": "player12",
}
DEFAULT_SEARCH = "player12"


def _percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def _setup_django(url):
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("SECRET_KEY", "bench-data-growth-secret-key-not-for-production-0123456789")
    os.environ.pop("REDIS_URL", None)
    os.environ["ALLOWED_HOSTS"] = "testserver,localhost"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def fill(args):
    """Create, migrate and fill the database (`bench.growth_fill.fill`)."""
    import psycopg

    name = args.db or f"okeysite_growth_{args.size.lower()}"
    with psycopg.connect(f"{args.server}/postgres", autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            raise SystemExit(f"{name} exists: measure it, or drop it first")
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"{args.server}/{name}"
    started = time.monotonic()
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY="bench-data-growth-secret-key-not-for-production-0123456789")
    env.pop("REDIS_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    print(f"migrated in {time.monotonic() - started:.1f} s")
    _setup_django(url)
    from bench.growth_fill import fill as fill_rows

    counts = fill_rows(url, args.size, seed=args.seed)
    with psycopg.connect(url) as conn:
        size = conn.execute("SELECT pg_size_pretty(pg_database_size(current_database()))").fetchone()[0]
    print(json.dumps(counts))
    print(f"{name}: filled in {time.monotonic() - started:.0f} s, {size}")


def drop(args):
    import psycopg

    name = args.db or f"okeysite_growth_{args.size.lower()}"
    with psycopg.connect(f"{args.server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"dropped {name}")


class Timer:
    """Server time and queries of a callable, over repeats."""

    def __init__(self, repeat, only=()):
        self.repeat = repeat
        self.only = only  # label parts: measure only the pages whose label has one
        self.rows = []

    def page(self, label, fn):
        if self.only and not any(part in label for part in self.only) and not label.startswith("baseline"):
            return None
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        fn()  # warm-up: compiled templates, prepared statements, the buffer cache
        times, cpu, queries, status = [], [], 0, None
        for _ in range(self.repeat):
            with CaptureQueriesContext(connection) as ctx:
                t0, c0 = time.perf_counter(), time.process_time()
                response = fn()
                times.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
            queries = len(ctx.captured_queries)
            status = getattr(response, "status_code", None)
        row = {"page": label, "p50": statistics.median(times), "p95": _percentile(times, 0.95), "queries": queries,
               "cpu": statistics.median(cpu), "status": status}
        self.rows.append(row)
        flag = "" if status in (None, 200) else f"  (HTTP {status})"
        print(f"{label:<48} {row['p50']:8.1f} {row['p95']:8.1f} {row['cpu']:8.1f} {queries:6d}{flag}", flush=True)
        return row


def _subjects():
    """The users and tables the pages are opened for."""
    from django.contrib.auth import get_user_model
    from django.db.models import Count

    from games.models import Match, Seat

    User = get_user_model()
    busiest = (Seat.objects.filter(user__isnull=False).values("user_id").annotate(n=Count("id"))
               .order_by("-n").first())
    heavy = User.objects.get(pk=busiest["user_id"])
    typical_id = (Seat.objects.filter(user__isnull=False, user__guest__isnull=True).values("user_id")
                  .annotate(n=Count("id")).filter(n__gte=4, n__lte=8).order_by("user_id")
                  .values_list("user_id", flat=True).first())
    typical = User.objects.get(pk=typical_id)
    two_rounds = (Match.objects.filter(table__seats__user=heavy, finished__isnull=False)
                  .annotate(n=Count("rounds")).filter(n=2).order_by("-pk").first())
    admin = User.objects.get(username="bench_admin")
    from allauth.mfa.models import Authenticator

    Authenticator.objects.get_or_create(user=admin, type=Authenticator.Type.TOTP,
                                        defaults={"data": {"secret": "JBSWY3DPEHPK3PXP"}})
    return heavy, busiest["n"], typical, two_rounds, admin


def priority_of_session(priority):
    """Give the database session serving this process `priority` too (root only), so the
    figures measure the pages rather than the other jobs of a shared host. Returns the
    session's pid and priority as text."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        pid = cur.fetchone()[0]
    if priority:
        try:
            os.setpriority(os.PRIO_PROCESS, pid, priority)
        except OSError as exc:
            return f"{pid} (not reniced: {exc})"
    return f"{pid} at priority {os.getpriority(os.PRIO_PROCESS, pid)}"


def measure(args):
    name = args.db or f"okeysite_growth_{args.size.lower()}"
    if args.priority:
        os.setpriority(os.PRIO_PROCESS, 0, args.priority)
    # one database session for the whole run (no pool), so its priority holds throughout
    os.environ["OKEY_DB_POOL"] = "0"
    os.environ["OKEY_DB_CONN_MAX_AGE"] = "3600"
    _setup_django(f"{args.server}/{name}")
    from django.contrib import admin as django_admin
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from leaderboards.models import Rating, SoloRecord
    from leaderboards.pages import PER_PAGE

    if args.only:
        print(f"{name}: {args.only} only")
        rows = [] if args.only == "recompute" else [export_games(call_command, timezone)]
        rows.append(recompute_ratings(args.recompute_seconds))
        if args.json:
            Path(args.json).write_text(json.dumps({"size": args.size, "db": name, "label": args.label, "rows": rows},
                                                  indent=1))
        return
    heavy, heavy_matches, typical, match, admin = _subjects()
    timer = Timer(args.repeat, [part for part in (args.pages or "").split(",") if part])
    print(f"{name}: most active {heavy.username} ({heavy_matches} matches), typical {typical.username}, "
          f"match of table {match.table_id}; {args.repeat} repeats after a warm-up")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; this process at priority "
          f"{os.getpriority(os.PRIO_PROCESS, 0)}, its database session {priority_of_session(args.priority)}")
    print(f"{'page':<48} {'p50 ms':>8} {'p95 ms':>8} {'cpu ms':>8} {'queries':>6}")

    def select_one():
        with connection.cursor() as cur:
            cur.execute("SELECT 1")
    timer.page("baseline: SELECT 1", select_one)
    anonymous, player, staff = Client(), Client(), Client()
    player.force_login(heavy)
    staff.force_login(admin)
    timer.page("baseline: /healthz", lambda: anonymous.get("/healthz"))

    established = Rating.objects.filter(ruleset="okey51", matches__gte=5, user__guest__isnull=True).count()
    last_rankings = max(1, -(-established // PER_PAGE))
    solo = SoloRecord.objects.filter(ruleset="okey51", user__player_settings__public_solo_records=True).count()
    last_solo = max(1, -(-solo // PER_PAGE))
    pages = [
        ("lobby, anonymous", anonymous, reverse("lobby")),
        ("lobby, most active player", player, reverse("lobby")),
        ("rankings okey51, first page", anonymous, reverse("leaderboard", args=["okey51"])),
        (f"rankings okey51, last page ({last_rankings})", anonymous,
         reverse("leaderboard", args=["okey51"]) + "?last=1"),
        ("rankings okey51 this month, as the player", player,
         reverse("leaderboard", args=["okey51"]) + "?period=month"),
        ("rankings okey51 this week", anonymous, reverse("leaderboard", args=["okey51"]) + "?period=week"),
        ("solo records okey51, first page", anonymous, reverse("solo_records", args=["okey51"])),
        (f"solo records okey51, last page ({last_solo})", anonymous,
         reverse("solo_records", args=["okey51"]) + "?last=1"),
        ("profile, most active player", anonymous, reverse("player_profile", args=[heavy.username])),
        ("profile, typical player", anonymous, reverse("player_profile", args=[typical.username])),
        ("match (score table)", anonymous, reverse("match", args=[match.table_id])),
        ("game record", anonymous, reverse("match_record", args=[match.table_id])),
        ("replay page", anonymous, reverse("replay", args=[match.table_id])),
        ("replay frames, round 2", anonymous, reverse("replay_frames", args=[match.table_id]) + "?round=2"),
    ]
    for label, client, url in pages:
        timer.page(label, lambda c=client, u=url: c.get(u))
    for model, model_admin in sorted(django_admin.site._registry.items(), key=lambda kv: kv[0]._meta.label_lower):
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        label = f"admin {meta.label_lower}"
        timer.page(label, lambda u=url: staff.get(u))
        if model_admin.search_fields:
            term = SEARCH.get(meta.label_lower, DEFAULT_SEARCH)
            timer.page(f"{label} ?q={term}", lambda u=url, t=term: staff.get(u, {"q": t}))
    timer.page("admin user change, most active player", lambda: staff.get(
        reverse("admin:auth_user_change", args=[heavy.pk])))
    timer.page("admin match change", lambda: staff.get(reverse("admin:games_match_change", args=[match.pk])))

    rows = timer.rows
    if not timer.only:
        rows += [export_games(call_command, timezone), recompute_ratings(args.recompute_seconds)]
    if args.json:
        Path(args.json).write_text(json.dumps({"size": args.size, "db": name, "label": args.label,
                                               "heavy_matches": heavy_matches, "rows": rows}, indent=1))


def export_games(call_command, timezone):
    """`export_games` over the last seven days to /dev/null: queries and ms per match."""
    from datetime import timedelta

    from django.db import connection

    from games.models import Match

    until = timezone.now() + timedelta(days=1)
    since = until - timedelta(days=8)
    count = Match.objects.filter(finished__gte=since, finished__lt=until).count()
    counted = []  # every query (Django's query log keeps only the last 9,000)

    def tally(execute, sql, params, many, context):
        counted.append(1)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(tally):
        t0, c0 = time.perf_counter(), time.process_time()
        call_command("export_games", "--since", since.date().isoformat(), "--until", until.date().isoformat(),
                     os.devnull, stderr=open(os.devnull, "w"))
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    queries = len(counted)
    row = {"page": f"export_games, last week ({count} matches)", "seconds": seconds, "queries": queries,
           "matches": count, "per_match_queries": queries / max(1, count),
           "per_match_ms": seconds * 1000 / max(1, count), "per_match_cpu_ms": cpu * 1000 / max(1, count)}
    print(f"{row['page']:<48} {seconds:8.1f} s {queries:8d} queries, {row['per_match_queries']:.2f} q, "
          f"{row['per_match_ms']:.1f} ms and {row['per_match_cpu_ms']:.1f} ms CPU per match", flush=True)
    return row


class _Stop(Exception):
    pass


def recompute_ratings(limit_seconds, ruleset="rami"):
    """`recording.recompute(ruleset)` inside a transaction rolled back at the end (or after
    `limit_seconds`): queries and ms per rated match."""
    from django.db import connection, transaction

    from leaderboards.recording import recompute

    state = {"queries": 0, "matches": set(), "stopped": False}
    t0, c0 = time.perf_counter(), time.process_time()

    def count(execute, sql, params, many, context):
        state["queries"] += 1
        if sql.startswith('INSERT INTO "leaderboards_ratingchange"'):
            # the rated matches written: one insert per match on the match-by-match path,
            # one per batch of matches on the batched one (its rows' match ids)
            columns = sql.split("(", 1)[1].split(")", 1)[0].replace('"', "").replace(" ", "").split(",")
            at = columns.index("match_id")
            if "UNNEST" in sql:  # Django's bulk insert on PostgreSQL: one array per column
                state["matches"].update(params[at])
            else:
                state["matches"].update(params[at::len(columns)])
        if time.perf_counter() - t0 > limit_seconds and not state["stopped"]:
            state["stopped"] = True
            raise _Stop
        return execute(sql, params, many, context)

    rated = None
    try:
        with transaction.atomic():
            with connection.execute_wrapper(count):
                try:
                    rated = recompute(ruleset)
                except _Stop:
                    pass
            seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
            raise _Stop  # roll back: the filled ratings stay as they were
    except _Stop:
        pass
    # Stopped, the recompute's own transaction was rolled back with what it wrote: its
    # progress is the rated matches whose rating changes it inserted.
    matches = rated if rated is not None else len(state["matches"])
    label = f"recompute_ratings {ruleset} ({matches} rated matches{'' if rated is not None else ', stopped'})"
    row = {"page": label, "seconds": seconds, "queries": state["queries"], "matches": matches,
           "per_match_queries": state["queries"] / max(1, matches), "per_match_ms": seconds * 1000 / max(1, matches),
           "per_match_cpu_ms": cpu * 1000 / max(1, matches), "finished": rated is not None}
    print(f"{label:<48} {seconds:8.1f} s {state['queries']:8d} queries, {row['per_match_queries']:.2f} q, "
          f"{row['per_match_ms']:.2f} ms and {row['per_match_cpu_ms']:.2f} ms CPU per match", flush=True)
    return row


def table(args):
    """A markdown table of JSON results side by side (one column per file)."""
    runs = []
    for spec in args.files:  # "a.json+b.json": one column, the later file's pages over the earlier's
        parts = [json.loads(Path(p).read_text()) for p in spec.split("+")]
        run = dict(parts[0])
        rows = {row["page"].split(" (")[0]: row for part in parts for row in part["rows"]}
        run["rows"] = list(rows.values())
        runs.append(run)
    heads = [f"{r['size']} {r.get('label') or ''}".strip() for r in runs]
    print("| page | " + " | ".join(heads) + " |")
    print("|---|" + "---|" * len(runs))
    order = []
    for run in runs:
        for row in run["rows"]:
            if row["page"].split(" (")[0] not in order:
                order.append(row["page"].split(" (")[0])
    for page in order:
        cells = []
        for run in runs:
            row = next((r for r in run["rows"] if r["page"].split(" (")[0] == page), None)
            if row is None:
                cells.append("–")
            elif "p50" in row:
                cpu = f" ({row['cpu']:.0f})" if "cpu" in row else ""
                cells.append(f"{row['p50']:.0f}/{row['p95']:.0f}{cpu}, {row['queries']} q")
            else:
                cpu = f" ({row['per_match_cpu_ms']:.1f})" if "per_match_cpu_ms" in row else ""
                cells.append(f"{row['per_match_queries']:.2f} q, {row['per_match_ms']:.1f}{cpu} ms /match")
        print(f"| {page} | " + " | ".join(cells) + " |")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for command in ("fill", "measure", "drop"):
        p = sub.add_parser(command)
        p.add_argument("--size", choices=["S", "M", "L"], required=True)
        p.add_argument("--server", default=SERVER)
        p.add_argument("--db")
    sub.choices["fill"].add_argument("--seed", type=int, default=1)
    sub.choices["measure"].add_argument("--repeat", type=int, default=10)
    sub.choices["measure"].add_argument("--json")
    sub.choices["measure"].add_argument("--label", default="")
    sub.choices["measure"].add_argument("--recompute-seconds", type=float, default=60)
    sub.choices["measure"].add_argument("--pages", help="comma-separated parts of page labels: only those pages")
    sub.choices["measure"].add_argument("--only", choices=["commands", "recompute"],
                                        help="no pages: export_games and recompute_ratings, or the recompute alone")
    sub.choices["measure"].add_argument("--priority", type=int, default=0,
                                        help="nice value for this process and its database session (root: -10)")
    sub.add_parser("table").add_argument("files", nargs="+", help="JSON files of `measure`; a+b merges two runs")
    args = parser.parse_args(argv)
    {"fill": fill, "measure": measure, "drop": drop, "table": table}[args.command](args)


if __name__ == "__main__":
    main()
