"""Run one function in several threads released together, as racing requests would,
each on its own database connection."""
import threading

from django.db import connection


def run_together(function, count):
    """Call `function()` in `count` threads released at once by a barrier. Returns the
    list of results (in finishing order); re-raises the first exception a thread raised."""
    barrier, results, errors = threading.Barrier(count), [], []

    def run():
        try:
            barrier.wait()
            results.append(function())
        except Exception as exc:  # noqa: BLE001 - re-raised below, in the test's thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return results
