"""The Celery application as the site's processes use it."""
import threading

from okeysite.celery import app


def test_a_thread_that_sends_a_task_reuses_the_process_result_backend():
    # Every HTTP request runs on a thread of its own, and a table start sends its timers
    # from there: a backend built per thread costs each such request about 5 ms of CPU.
    first = app.backend
    seen = []
    thread = threading.Thread(target=lambda: seen.append(app.backend))
    thread.start()
    thread.join()
    assert seen[0] is first
