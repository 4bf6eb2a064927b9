"""The backup procedure of docs/backups.md, tried: a database holding finished and running
matches is dumped with `pg_dump`, restored with `pg_restore` into a new database, and the
restored site is checked as an operator would after a restore: every stored round passes
`manage.py verify_round`, the stored history is the same row for row, and the running
tables resume (their timers re-armed by `sweep_deadlines --startup`, their next turns
played and still verifiable)."""
import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest

from bench.stack import site_env

ROOT = Path(__file__).resolve().parents[2]
PG = "postgres://postgres@127.0.0.1:5432"

# Run inside `manage.py shell`: the timers the commit path schedules go to a queue of this
# test's own, on a Redis database of its own, that no worker reads (the test fires them).
PRIVATE_QUEUE = """
import os
from okeysite.celery import app
app.conf.task_default_queue = app.conf.task_default_routing_key = os.environ["OKEY_TEST_QUEUE"]
"""

FILL = PRIVATE_QUEUE + """
import json
from django.contrib.auth import get_user_model
from games.models import Seat
from games.play import tables
from tests.games.play.helpers import game_of, online_table, play_out

users = [get_user_model().objects.create_user(n, n + "@example.com", "pw-" + n + "-1234")
         for n in ("ann", "ben", "cem")]
finished_solo = tables.create_table(users[0], "okey51", {}, mode="solo")
Seat.objects.filter(table=finished_solo, index=0).update(autoplay=True)
play_out(finished_solo)
finished_online = online_table(users[1], users[2], options={"rounds": 1})
Seat.objects.filter(table=finished_online, user__isnull=False).update(autoplay=True)
play_out(finished_online)
running = online_table(users[0], users[1], options={"rounds": 3})
Seat.objects.filter(table=running, user__isnull=False).update(autoplay=True)
game = play_out(running, until=lambda g: g.version >= 12)
print(json.dumps({"running": running.pk, "version": game.version}))
"""

# The stored history, in an order that does not depend on the database's row order.
DIGEST = """
import hashlib, json
from games.models import Game, Match, Move, Round, Seat, Table
from leaderboards.models import Rating, RatingChange, SoloRecord

def rows(queryset, *fields):
    return [list(r) for r in queryset.order_by("pk").values_list(*fields)]

history = {
    "tables": rows(Table.objects, "pk", "ruleset", "mode", "status", "chain_tip"),
    "seats": rows(Seat.objects, "pk", "table_id", "index", "user_id", "absent"),
    "matches": rows(Match.objects, "pk", "table_id", "finished", "totals", "standings"),
    "rounds": rows(Round.objects, "pk", "index", "commitment", "server_seed", "client_seeds",
                   "initial_position", "final_position"),
    "moves": rows(Move.objects, "pk", "round_id", "number", "action", "result", "actor"),
    "games": rows(Game.objects, "pk", "version", "position", "deadline_kind"),
    "ratings": rows(Rating.objects, "pk", "user_id", "ruleset", "mu", "sigma"),
    "changes": rows(RatingChange.objects, "pk", "user_id", "mu_after"),
    "solo": rows(SoloRecord.objects, "pk", "user_id", "ruleset"),
}
print(json.dumps({name: len(r) for name, r in history.items()}))
print(hashlib.sha256(json.dumps(history, sort_keys=True, default=str).encode()).hexdigest())
print(json.dumps(list(Round.objects.order_by("pk").values_list("pk", flat=True))))
"""

RESUME = PRIVATE_QUEUE + """
import json, os
from games.models import Table
from tests.games.play.helpers import game_of, play_out

table = Table.objects.get(pk=int(os.environ["OKEY_RESUME_TABLE"]))
before = game_of(table).version
game = play_out(table, until=lambda g: g.version >= before + 6)
print(json.dumps({"before": before, "after": game.version}))
"""


def manage(env, *args, code=None, check=True):
    """Run `manage.py args` (or `manage.py shell -c code`) in the site's environment `env`."""
    argv = [sys.executable, "manage.py", *args]
    if code is not None:
        argv = [sys.executable, "manage.py", "shell", "-v", "0", "-c", code]
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    if check and done.returncode:
        raise AssertionError(f"{args or 'shell'} failed:\n{done.stdout}\n{done.stderr}")
    return done


def database(name):
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop(name):
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def databases():
    """Two new databases (source, restored), dropped afterwards."""
    key = uuid.uuid4().hex[:8]
    names = (f"okeysite_backup_{key}", f"okeysite_restored_{key}")
    for name in names:
        database(name)
    yield names
    for name in names:
        drop(name)


def test_a_dump_restores_to_a_site_whose_rounds_verify_and_whose_tables_resume(databases, tmp_path):
    source, restored = databases
    queue = f"okeysite-backup-{uuid.uuid4().hex[:8]}"
    redis = f"redis://127.0.0.1:6379/{8 + os.getpid() % 7}"

    def env(name):
        return site_env(redis, f"{PG}/{name}", OKEY_CHANNEL_PREFIX=queue, OKEY_TEST_QUEUE=queue,
                        OKEY_SEED_WINDOW="0", ALLOWED_HOSTS="127.0.0.1,localhost")

    manage(env(source), "migrate", "--noinput", "-v", "0")
    filled = json.loads(manage(env(source), code=FILL).stdout.strip().splitlines()[-1])

    # docs/backups.md: the dump (custom format, one consistent snapshot) and the restore
    dump = tmp_path / "okeysite.dump"
    subprocess.run(["pg_dump", "--format=custom", "--no-owner", f"--file={dump}", f"{PG}/{source}"], check=True)
    subprocess.run(["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={PG}/{restored}", str(dump)],
                   check=True)

    counts, digest, round_ids = manage(env(source), code=DIGEST).stdout.strip().splitlines()[-3:]
    assert manage(env(restored), code=DIGEST).stdout.strip().splitlines()[-3:] == [counts, digest, round_ids]
    counts = json.loads(counts)
    assert counts["matches"] == 3 and counts["rounds"] >= 3 and counts["moves"] > 100, counts

    # nothing to migrate: the restored schema is the code's
    assert "No planned migration operations" in manage(env(restored), "migrate", "--plan").stdout
    for round_id in json.loads(round_ids):
        said = manage(env(restored), "verify_round", str(round_id), check=False)
        assert said.returncode == 0, said.stdout + said.stderr
        assert "verified" in said.stdout

    # the running table's deadline comes back with the processes (its Celery timer did
    # not survive: the broker is not backed up), then the table plays on from where it was
    rearmed = manage(env(restored), "sweep_deadlines", "--startup").stdout
    assert rearmed.startswith("1 timer(s) re-armed"), rearmed
    out = manage({**env(restored), "OKEY_RESUME_TABLE": str(filled["running"])}, code=RESUME).stdout
    resumed = json.loads(out.strip().splitlines()[-1])
    assert resumed["before"] == filled["version"] and resumed["after"] >= filled["version"] + 6
    for round_id in json.loads(manage(env(restored), code=DIGEST).stdout.strip().splitlines()[-1]):
        said = manage(env(restored), "verify_round", str(round_id), check=False)
        assert said.returncode == 0, said.stdout + said.stderr
