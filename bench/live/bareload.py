"""Load for the bare-Channels app (``bench.live.bare_app``): the same sockets, the same
message rate, no game.

K tables with H sockets each connect to ``/ws/bare/<table>/`` (round-robin over the bare
daphne ports, same Origin header as the product). Each table sends ``rate`` frames per
second on a fixed schedule (a random phase per table, the sender cycling through its
sockets) -- the rate is the product's measured table versions per second divided by K,
since every product version is one snapshot to each human socket. Each frame asks for a
snapshot of ``size`` bytes (the product's median snapshot). Latencies are matched by
action id, into the same :class:`~bench.live.stats.Recording` shape as the product.
"""
from __future__ import annotations

import asyncio
import json
import random
import time

from bench.live import wsclient
from bench.live.procstat import Meter, hold_window
from bench.live.stats import Recording, watch_loop_lag


async def _reader(ws: wsclient.WebSocket, rec: Recording, table: int, slot: int, stop: asyncio.Event) -> None:
    seen = rec.by_id.setdefault((table, slot), {})
    while True:
        text = await ws.recv()
        now = time.perf_counter()
        if text is None:
            if not stop.is_set():
                rec.closes[ws.close_code] += 1
            return
        frame = json.loads(text)
        kind = frame.get("type")
        if kind == "snapshot":
            seen[frame["id"]] = now
            rec.arrival(table, slot, now, frame["version"])
        elif kind == "ack":
            rec.acks[(table, slot, frame["id"])] = (now, frame["version"])
        elif kind == "error":
            rec.errors[str(frame.get("code"))] += 1


async def _sender(sockets: list[wsclient.WebSocket], rec: Recording, table: int, rate: float, size: int,
                  stop: asyncio.Event, rng: random.Random) -> None:
    interval = 1.0 / rate
    next_at = time.perf_counter() + rng.uniform(0, interval)
    n = 0
    while not stop.is_set():
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        slot = n % len(sockets)
        n += 1
        action_id = f"b{slot}-{n}"
        frame = json.dumps({"type": "action", "id": action_id, "version": n, "size": size})
        rec.sent.append((time.perf_counter(), table, slot, action_id))
        await sockets[slot].send(frame)
        next_at = max(next_at + interval, time.perf_counter())  # fall behind, never burst


async def run_bare(host: str, ports: list[int], tables: int, humans: int, rate: float, size: int,
                   warmup: float, seconds: float, seed: str, meter: Meter) -> tuple[Recording, float, float]:
    """Run the bare load; returns ``(recording, window start, window end)`` (perf_counter s).
    ``rate``: frames per second per table; ``size``: snapshot bytes; ``meter`` measures
    the bare processes over the window. Raises HandshakeError/OSError if a socket cannot
    connect."""
    rec = Recording()
    stop = asyncio.Event()
    rng = random.Random(f"bare|{seed}")
    sockets: list[list[wsclient.WebSocket]] = []
    readers = []
    n = 0
    for table in range(tables):
        row = []
        rec.humans[table] = humans
        for slot in range(humans):
            port = ports[n % len(ports)]
            n += 1
            ws = await wsclient.connect(host, port, f"/ws/bare/{table}/", {"Origin": f"http://{host}:{port}"})
            row.append(ws)
            readers.append(asyncio.create_task(_reader(ws, rec, table, slot, stop)))
        sockets.append(row)
    lag = asyncio.create_task(watch_loop_lag(rec, stop))
    senders = [asyncio.create_task(_sender(row, rec, t, rate, size, stop, rng)) for t, row in enumerate(sockets)]
    await asyncio.sleep(warmup)
    start, end = await hold_window(meter, seconds)
    stop.set()
    await asyncio.sleep(1.0)  # let the last snapshots of the window arrive
    for task in senders + [lag]:
        task.cancel()
    await asyncio.gather(*senders, lag, return_exceptions=True)
    for task in readers:
        task.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    await asyncio.gather(*(ws.close(timeout=1.0) for row in sockets for ws in row), return_exceptions=True)
    return rec, start, end
