"""Fault run of the scaled set-up: does any running table stay stuck past its deadline?

    .venv/bin/python -m bench.faults                      # the deploy/ set-up: worker + separate beat
    .venv/bin/python -m bench.faults --topology worker-B  # the old set-up: the sweeper inside the worker
    options: --redis-restarts N (8), --tables N (6), --observe S (20), --down S (2), --workers N (1)

Starts its own Redis and PostgreSQL cluster on free ports (never the machine's shared
ones: `bench.stack`), migrates, starts two daphne processes, the worker(s) and the beat
sweeper, and a few solo tables whose human seat a socket client plays (`bench.table_play`).
Then, one fault at a time: Redis restarts (an empty Redis: every queued timer is lost),
`kill -9` of each daphne, each worker and beat (restarted a second later, as the
supervisor in deploy/ does), and a PostgreSQL restart. For each fault it prints the longest
time a running table's deadline stayed overdue after the service was back (seconds), whether
every process survived it (a process that died is restarted by the bench so the run goes on,
and counted), the tables that never moved in the observation window, and the exceptions the
processes logged meanwhile.
"""
import argparse
import os
import re
import sys
import tempfile
import time

from bench import stack as st

OBSERVE_FIRST = 12.0  # seconds of normal play measured before the first fault


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topology", choices=["deploy", "worker-B"], default="deploy")
    parser.add_argument("--redis-restarts", type=int, default=8)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--observe", type=float, default=20.0, help="seconds watched after each fault")
    parser.add_argument("--down", type=float, default=2.0, help="seconds Redis/PostgreSQL stay down")
    parser.add_argument("--only", default="", help="comma list of fault kinds: redis,web,worker,beat,postgres")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs)")
    return parser.parse_args(argv)


def commands(args, workdir, ports):
    out = {f"web{i + 1}": st.daphne(port) for i, port in enumerate(ports)}
    if args.topology == "worker-B":
        out["worker1"] = st.worker("worker1", embedded_beat=True, schedule=workdir / "celerybeat-schedule")
    else:
        for i in range(args.workers):
            out[f"worker{i + 1}"] = st.worker(f"worker{i + 1}")
        out["beat"] = st.beat(workdir / "celerybeat-schedule")
    return out


EXCEPTION = re.compile(r"^(\w+(?:\.\w+)*(?:Error|Exception|Exit)):", re.M)


# What a broker or database outage makes every process log while it reconnects: counted,
# not named. Anything else (an AttributeError, "Unrecoverable error") is named in the report.
EXPECTED = {"ConnectionRefusedError", "ConnectionResetError", "redis.exceptions.ConnectionError",
            "kombu.exceptions.OperationalError", "IndexError", "celery.beat.SchedulingError",
            "django.db.utils.OperationalError", "psycopg.OperationalError", "redis.exceptions.TimeoutError"}


class Logs:
    """How far each process's log was read, to report what a fault made them log."""

    def __init__(self, stack):
        self.stack = stack
        self.offsets = {}

    def mark(self):
        self.offsets = {label: len(self.stack.log_text(label)) for label in self.stack.procs}

    def since_mark(self):
        """{label: (tracebacks logged, sorted names of unexpected exceptions)} since `mark()`."""
        found = {}
        for label in self.stack.procs:
            text = self.stack.log_text(label)[self.offsets.get(label, 0):]
            names = set(EXCEPTION.findall(text)) - EXPECTED
            if "Unrecoverable error" in text:
                names.add("Unrecoverable error")
            tracebacks = text.count("Traceback (most recent call last)")
            if tracebacks or names:
                found[label] = (tracebacks, sorted(names))
        return found


def run_fault(name, do, stack, monitor, logs, observe, players):
    """Run one fault: `do()` returns the epoch time the service was back. Returns a result dict."""
    pids = {label: stack.pid(label) for label in stack.procs}
    logs.mark()
    back = do()
    acks = players.totals()["acks"]
    time.sleep(observe)
    died = [label for label in stack.procs if not stack.alive(label) or stack.pid(label) != pids[label]]
    died = [label for label in died if label not in name.split()[-1:]]  # the killed process is expected
    for label in stack.procs:
        if not stack.alive(label):
            stack.restart(label)
    return {"fault": name, "late": monitor.lateness(back, back + observe), "died": died,
            "frozen": monitor.frozen(back + 3.0), "moves": players.totals()["acks"] - acks,
            "errors": logs.since_mark()}


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    workdir = st.Path(tempfile.mkdtemp(prefix="okey-faults-"))
    os.chmod(workdir, 0o755)  # the postgres user creates its cluster inside
    with st.PrivateRedis(workdir) as redis, st.PrivatePostgres(workdir) as pg:
        pg.create_database("okeysite")
        ports = [st.free_port(), st.free_port()]
        env = st.site_env(redis.url, pg.url("okeysite"), OKEY_CHANNEL_PREFIX="faults", ALLOWED_HOSTS="127.0.0.1")
        st.migrate(env)
        os.environ.update(env)
        os.environ["DJANGO_SETTINGS_MODULE"] = "okeysite.settings"
        import django

        django.setup()
        from bench.table_play import Monitor, Players, make_tables

        stack = st.Stack(workdir, env)
        stack.start(commands(args, workdir, ports))
        for port in ports:
            st.wait_for_port(port, 60)
        try:
            report(args, workdir, redis, pg, ports, stack, Monitor, Players, make_tables)
        finally:
            stack.stop()
    print(f"logs: {workdir}" if args.keep else "")


def report(args, workdir, redis, pg, ports, stack, Monitor, Players, make_tables):
    made = make_tables(args.tables)
    players = Players(made, ports)
    monitor = Monitor()
    players.start()
    monitor.start()
    logs = Logs(stack)
    kinds = set(filter(None, args.only.split(","))) or {"redis", "web", "worker", "beat", "postgres"}
    start = time.time()
    time.sleep(OBSERVE_FIRST)
    results = [{"fault": "none (normal play)", "late": monitor.lateness(start + 2, time.time()), "died": [],
                "frozen": monitor.frozen(start + 2), "moves": players.totals()["acks"], "errors": {}}]

    def kill(label):
        def do():
            stack.kill9(label)
            time.sleep(1.0)  # the supervisor's restart delay
            stack.restart(label)
            if label.startswith("web"):
                st.wait_for_port(ports[int(label[3:]) - 1], 60)
            return time.time()
        return do

    faults = []
    if "redis" in kinds:
        faults += [(f"redis restart {i + 1}", lambda: redis.restart(args.down) and time.time())
                   for i in range(args.redis_restarts)]
    if "web" in kinds:
        faults += [(f"kill -9 {label}", kill(label)) for label in stack.procs if label.startswith("web")]
    if "worker" in kinds:
        faults += [(f"kill -9 {label}", kill(label)) for label in stack.procs if label.startswith("worker")]
    if "beat" in kinds and "beat" in stack.procs:
        faults.append(("kill -9 beat", kill("beat")))
    if "postgres" in kinds:
        faults.append(("postgres restart", lambda: pg.restart(args.down) and time.time()))
    for name, do in faults:
        results.append(run_fault(name, do, stack, monitor, logs, args.observe, players))
        print(_line(results[-1]), flush=True)
    players.stop()
    monitor.stop()
    print()
    print(f"topology {args.topology}: 2 daphne, {args.workers if args.topology == 'deploy' else 1} worker(s), "
          f"{'beat process' if args.topology == 'deploy' else 'beat inside the worker (-B)'}; {args.tables} tables; "
          f"observed {args.observe:.0f} s after each fault; down {args.down:.0f} s")
    print(f"{'fault':<22} {'max overdue s':>13}  {'processes died':<16} {'frozen':>6} {'moves':>5}  "
          "tracebacks logged (unexpected exceptions)")
    for row in results:
        print(_line(row))
    totals = players.totals()
    print(f"socket clients: {totals['actions']} actions sent, {totals['acks']} accepted, "
          f"{totals['connects']} connections, {totals['errors']} refusals; monitor db errors {monitor.db_errors}")
    worst = max(r["late"] for r in results[1:]) if len(results) > 1 else 0.0
    survived = sum(1 for r in results[1:] if not r["died"])
    print(f"worst overdue after a fault: {worst:.1f} s; faults every process survived: {survived}/{len(results) - 1}")


def _line(row):
    errors = ", ".join(f"{label} {count}" + (f" ({'; '.join(names)})" if names else "")
                       for label, (count, names) in row["errors"].items()) or "-"
    frozen = f"{len(row['frozen'])}" + (f" ({','.join(row['frozen'])})" if row["frozen"] else "")
    return (f"{row['fault']:<22} {row['late']:>13.1f}  {','.join(row['died']) or '-':<16} {frozen:>6} "
            f"{row['moves']:>5}  {errors}")


if __name__ == "__main__":
    main()
