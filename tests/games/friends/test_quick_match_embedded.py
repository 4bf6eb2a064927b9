"""Play now in the embedded mode (SQLite, no advisory locks): its IMMEDIATE transactions let
one writer in at a time, so players pressing Play now together still share a table."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import threading
from django.core.management import call_command
from django.contrib.auth import get_user_model
from django.db import connection
from games.models import Seat, Table
from games.play import quickmatch

call_command("migrate", verbosity=0)
users = [get_user_model().objects.create(username=f"p{i}") for i in range(10)]
start = threading.Barrier(len(users))
errors = []

def press(user):
    try:
        start.wait()
        quickmatch.play_now(user, "okey51")
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()

threads = [threading.Thread(target=press, args=(u,)) for u in users]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("errors", len(errors), errors[:1])
print("tables", Table.objects.filter(quick=True).count())
print("seated", Seat.objects.filter(user__isnull=False).count())
print("players", Seat.objects.filter(user__isnull=False).values("user").distinct().count())
"""


def test_ten_players_pressing_play_now_at_once_on_sqlite_share_three_tables(tmp_path):
    base = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); exec(open(0).read())"], input=PROBE, cwd=ROOT,
        capture_output=True, text=True, timeout=300,
        env=dict(base, DATABASE_URL=f"sqlite:///{tmp_path / 'embedded.sqlite3'}",
                 DJANGO_SETTINGS_MODULE="okeysite.settings", DEBUG="1"))
    assert done.returncode == 0, done.stderr[-3000:]
    seen = dict(line.split(" ", 1) for line in done.stdout.splitlines() if line.strip())
    assert seen["errors"].startswith("0 "), seen["errors"]
    assert (seen["tables"], seen["seated"], seen["players"]) == ("3", "10", "10")
