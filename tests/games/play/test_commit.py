"""The commit path itself: the timers it schedules reach the real broker."""
import pytest

from games.play import tables

pytestmark = pytest.mark.django_db(transaction=True)


def test_scheduled_timers_go_to_the_real_broker_in_this_runs_queue(alice, settings):
    from okeysite.celery import app
    from tests.conftest import TEST_QUEUE

    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("REDIS_URL is not set: the embedded memory broker is the configuration")
    with app.connection_for_write() as conn:
        before = conn.default_channel.client.llen(TEST_QUEUE)
        tables.create_table(alice, "okey51", {}, mode="solo")  # arms alice's move timer on commit
        assert conn.default_channel.client.llen(TEST_QUEUE) == before + 1


def test_only_the_commit_path_bumps_versions_logs_moves_or_sets_deadlines():
    """ARCHITECTURE.md invariant 2, read off the source: outside games/play/commit.py no
    module of the project assigns Game.version or a deadline, nor creates Move rows."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    writes = re.compile(r"\.version\s*(\+?=)(?!=)|\.deadline(_kind)?\s*=(?!=)|Move\.objects\.(bulk_)?create|"
                        r"\bMove\((?!models\.Model)|update\([^)]*\b(version|deadline)\b")
    found = []
    for package in ("games", "accounts", "leaderboards", "okeysite"):
        for path in (root / package).rglob("*.py"):
            relative = path.relative_to(root).as_posix()
            if "/migrations/" in relative or relative == "games/play/commit.py" or "/engine/" in relative:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if writes.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []
