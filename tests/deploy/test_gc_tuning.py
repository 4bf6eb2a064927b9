"""The serving processes' garbage collector (okeysite.gc_tuning): larger thresholds and
the start-up objects frozen out of the scans; OKEY_GC_THRESHOLD="" keeps Python's own."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = ("import gc; from okeysite.gc_tuning import tune_gc; "
         "print(tune_gc(), gc.get_threshold(), gc.get_freeze_count() > 0)")


def _probe(**env):
    base = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    return subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=dict(base, **env),
                          capture_output=True, text=True, timeout=60)


def test_the_default_raises_the_thresholds_and_freezes_what_is_loaded():
    done = _probe()
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(50000,", "20,", "100)", "(50000,", "20,", "100)", "True"]


def test_an_empty_setting_keeps_pythons_collector():
    done = _probe(OKEY_GC_THRESHOLD="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(700,", "10,", "10)", "(700,", "10,", "10)", "False"]


def test_a_malformed_setting_is_refused_at_start():
    done = _probe(OKEY_GC_THRESHOLD="50000,20")
    assert done.returncode != 0 and "OKEY_GC_THRESHOLD is three positive integers" in done.stderr


def test_the_asgi_application_and_the_celery_children_tune_it(tmp_path):
    # what daphne imports (no embedded worker thread started here)
    done = subprocess.run(
        [sys.executable, "-c", "import gc, okeysite.asgi; print(gc.get_threshold(), gc.get_freeze_count() > 0)"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
        | {"OKEY_EMBEDDED_WORKER": "0", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["(50000,", "20,", "100)", "True"]
    from celery import signals

    from okeysite.celery import tune_worker_gc
    assert any(receiver() is tune_worker_gc for _key, receiver in signals.worker_process_init.receivers)
