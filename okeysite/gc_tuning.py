"""The garbage collector of the serving processes (daphne, Celery workers).

With Python's default thresholds (700, 10, 10) a server at 100 live tables ran a full
collection every 4-5 s, each 150-330 ms with every thread stopped: the tail of the table
latency (embedded, 100 tables: p99 175-225 ms) and a fifth of the process's CPU. Objects
that live a turn or two (views, timer entries, queued frames) outlived the youngest
generation and filled the oldest. With larger thresholds they die young, and what the
process loaded at start-up is frozen out of every collection (`gc.freeze`):
one full collection in 45 s, p99 119 ms, 7.5 against 9.8 ms of CPU per version
(bench/README.md, live tables).
"""
import gc
import os

DEFAULT_THRESHOLD = "50000,20,100"  # allocations before a young collection; young ones before an old one, twice


def tune_gc():
    """Freeze what is loaded now out of the collector's scans and set its thresholds from
    OKEY_GC_THRESHOLD ("g0,g1,g2"; empty: Python's own, nothing frozen). Call once the
    process has set itself up. Returns the thresholds in force (tuple of 3 ints).
    Raises ValueError for a malformed OKEY_GC_THRESHOLD."""
    value = os.environ.get("OKEY_GC_THRESHOLD", DEFAULT_THRESHOLD).strip()
    if not value:
        return gc.get_threshold()
    thresholds = tuple(int(part) for part in value.split(","))
    if len(thresholds) != 3 or min(thresholds) < 1:
        raise ValueError(f"OKEY_GC_THRESHOLD is three positive integers, not {value!r}")
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    return thresholds
