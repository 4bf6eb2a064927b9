"""What one load run recorded, and the latency figures computed from it afterwards.

Nothing is computed while the load runs: sockets only append ``(time, version)`` per
snapshot and the moment each action was sent and acknowledged (``time.perf_counter``
seconds). Afterwards an action's three latencies are

- **ack**: action sent -> its ``ack`` on the same socket;
- **own snapshot**: action sent -> the first snapshot on the same socket whose version is
  at least the acknowledged version (the product sends it after the ack; a later design
  may send it first, so the order is not assumed);
- **others**: action sent -> the first such snapshot on each *other* human socket of the
  table (one sample per other socket).

Only actions sent inside the measurement window count; a snapshot that never came is
counted as ``lost``.
"""
from __future__ import annotations

import asyncio
import bisect
import time
from collections import Counter
from dataclasses import dataclass, field


def percentile(xs: list[float], q: float) -> float | None:
    """The nearest-rank ``q`` percentile (0..100) of ``xs``; None when empty."""
    if not xs:
        return None
    s = sorted(xs)
    rank = max(1, -(-len(s) * q // 100))  # ceil(n q / 100)
    return s[int(min(rank, len(s))) - 1]


def summary(seconds: list[float]) -> dict:
    """``{"n", "p50", "p90", "p99", "max", "mean"}`` of latencies given in seconds, in ms."""
    if not seconds:
        return {"n": 0, "p50": None, "p90": None, "p99": None, "max": None, "mean": None}
    ms = [x * 1000.0 for x in seconds]
    return {"n": len(ms), "p50": round(percentile(ms, 50), 2), "p90": round(percentile(ms, 90), 2),
            "p99": round(percentile(ms, 99), 2), "max": round(max(ms), 2), "mean": round(sum(ms) / len(ms), 2)}


@dataclass
class Recording:
    """Everything one run saw. Keys: ``table`` is the server's table id (or the bare
    table number), ``slot`` the human socket's index at that table."""
    sent: list[tuple[float, int, int, str]] = field(default_factory=list)  # (t, table, slot, action id)
    acks: dict[tuple[int, int, str], tuple[float, int]] = field(default_factory=dict)  # -> (t, version)
    refused: set[tuple[int, int, str]] = field(default_factory=set)  # actions answered with an error
    arrivals: dict[tuple[int, int], list[tuple[float, int]]] = field(default_factory=dict)  # (t, version)
    by_id: dict[tuple[int, int], dict[str, float]] = field(default_factory=dict)  # bare: action id -> t
    humans: dict[int, int] = field(default_factory=dict)  # table -> humans
    errors: Counter = field(default_factory=Counter)  # error frame codes, client-side failures
    closes: Counter = field(default_factory=Counter)  # unexpected close codes
    setup: Counter = field(default_factory=Counter)  # failed set-up steps "step:status"
    events: Counter = field(default_factory=Counter)  # tables started/finished/stalled, reconnects...
    sizes: list[int] = field(default_factory=list)  # snapshot frame sizes (bytes), sampled
    loop_lag: list[tuple[float, float]] = field(default_factory=list)  # (t, seconds late)
    http: list[tuple[float, str]] = field(default_factory=list)  # (t, step) of each page request

    def arrival(self, table: int, slot: int, t: float, version: int) -> None:
        self.arrivals.setdefault((table, slot), []).append((t, version))


def _first_at_least(arrivals: list[tuple[float, int]], times: list[float], t0: float, version: int) -> float | None:
    i = bisect.bisect_left(times, t0)
    while i < len(arrivals):
        if arrivals[i][1] >= version:
            return arrivals[i][0]
        i += 1
    return None


def latencies(rec: Recording, start: float, end: float, by_id: bool = False) -> dict:
    """Latency summaries (ms) of the actions sent in [start, end): ``ack``, ``own``,
    ``others``, plus ``lost`` (snapshots that never arrived: own + others), ``acked``,
    ``refused`` (answered with an error frame) and ``unanswered`` (when the run stopped).
    ``by_id``: match snapshots by action id (the bare app), else by version."""
    times = {key: [a[0] for a in arr] for key, arr in rec.arrivals.items()}
    ack, own, others = [], [], []
    lost = acked = refused = unanswered = 0
    for t0, table, slot, aid in rec.sent:
        if not start <= t0 < end:
            continue
        got = rec.acks.get((table, slot, aid))
        if got is None:
            if (table, slot, aid) in rec.refused:
                refused += 1
            else:
                unanswered += 1  # no answer before the run stopped
            continue
        acked += 1
        ack.append(got[0] - t0)
        for other in range(rec.humans.get(table, 1)):
            if by_id:
                t = rec.by_id.get((table, other), {}).get(aid)
            else:
                key = (table, other)
                t = _first_at_least(rec.arrivals.get(key, []), times.get(key, []), t0, got[1])
            if t is None:
                lost += 1
            elif other == slot:
                own.append(t - t0)
            else:
                others.append(t - t0)
    return {"ack": summary(ack), "own": summary(own), "others": summary(others), "lost": lost, "acked": acked,
            "refused": refused, "unanswered": unanswered}


def throughput(rec: Recording, start: float, end: float) -> dict:
    """Per second over [start, end): ``versions`` (distinct table versions seen in a
    snapshot on any socket), ``versions_advanced`` (per table, newest version at the end
    minus newest before the window: counts versions no snapshot showed), ``snapshots``
    (frames received), ``actions_sent``, ``actions_acked``, ``http_requests`` (pages and
    forms of replacement tables)."""
    seconds = max(end - start, 1e-9)
    seen: set[tuple[int, int]] = set()
    before: dict[int, int] = {}
    last: dict[int, int] = {}
    first_in: dict[int, int] = {}
    frames = 0
    for (table, _slot), arr in rec.arrivals.items():
        for t, version in arr:
            if t < start:
                before[table] = max(before.get(table, -1), version)
            elif t < end:
                frames += 1
                seen.add((table, version))
                last[table] = max(last.get(table, -1), version)
                first_in[table] = min(first_in.get(table, version), version)
    advanced = sum(v - before.get(table, first_in[table] - 1) for table, v in last.items())
    sent = sum(1 for s in rec.sent if start <= s[0] < end)
    acked = sum(1 for s in rec.sent if start <= s[0] < end and (s[1], s[2], s[3]) in rec.acks)
    return {"versions_per_s": round(len(seen) / seconds, 1), "versions_advanced_per_s": round(advanced / seconds, 1),
            "snapshots_per_s": round(frames / seconds, 1), "actions_sent_per_s": round(sent / seconds, 1),
            "actions_per_s": round(acked / seconds, 1),
            "http_requests_per_s": round(sum(1 for t, _ in rec.http if start <= t < end) / seconds, 1)}


def loop_lag(rec: Recording, start: float, end: float) -> dict:
    """How late the load generator's event loop woke up (ms): when this is large, the
    client, not the server, adds latency."""
    return summary([lag for t, lag in rec.loop_lag if start <= t < end])


def ratio(product: dict, bare: dict, key: str) -> float | None:
    """product / bare of a summary figure (``p50``, ``p99``); None when either is missing."""
    a, b = product.get(key), bare.get(key)
    if a is None or not b:
        return None
    return round(a / b, 1)


async def watch_loop_lag(rec: Recording, stop: asyncio.Event, interval: float = 0.05) -> None:
    """Until ``stop``: record in ``rec.loop_lag`` how late the event loop wakes from a
    ``interval``-second sleep (seconds)."""
    while not stop.is_set():
        t = time.perf_counter()
        await asyncio.sleep(interval)
        now = time.perf_counter()
        rec.loop_lag.append((now, max(0.0, now - t - interval)))
