"""The Celery application as the site's processes use it."""
import os
import subprocess
import sys
import threading
from pathlib import Path

from okeysite.celery import app

ROOT = Path(__file__).resolve().parents[2]


def test_a_thread_that_sends_a_task_reuses_the_process_result_backend():
    # Every HTTP request runs on a thread of its own, and a table start sends its timers
    # from there: a backend built per thread costs each such request about 5 ms of CPU.
    first = app.backend
    seen = []
    thread = threading.Thread(target=lambda: seen.append(app.backend))
    thread.start()
    thread.join()
    assert seen[0] is first


def test_the_serving_process_loads_the_broker_transport_before_its_first_task():
    # The first table start after a deploy would otherwise wait for these imports (~70 ms
    # of CPU; 380 ms with the first send).
    code = ("import sys; import okeysite.asgi; from okeysite.celery import app; "
            "print('kombu.transport.redis' in sys.modules, app.backend is app.backend)")
    env = dict(os.environ, REDIS_URL="redis://127.0.0.1:6379/13", DJANGO_SETTINGS_MODULE="okeysite.settings")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "True"]
