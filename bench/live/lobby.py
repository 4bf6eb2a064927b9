"""Lobby fan-out: N lobby sockets, then table changes, one at a time.

Each change is made through the site's forms: a table created (lobby form, mode online),
a second user joining it (the table page's join form), its creator starting it (start
form). For each change it records how long after the POST was sent every lobby socket
received a frame showing it, and the database work the server did for it.

A lobby frame "shows" the change when it is the current ``{"type": "tables", "tables":
[...]}`` list and the table is in it (create), has 2 seats taken (join) or is listed as
playing or gone from it (start: the lobby lists running public matches to watch). A frame
without a ``tables`` list (a later protocol, e.g. diffs) counts as soon
as it arrives after the POST.

Database work (PostgreSQL only): the delta of this database's ``pg_stat_database``
counters from just before the POST to ``settle`` seconds after the last socket got the
change -- ``xact_commit`` is committed transactions, which in Django's autocommit mode is
one per query outside ``atomic()`` blocks plus one per block. ``pg_stat_statements``
would count queries exactly but needs ``shared_preload_libraries`` (a server restart), so
it is not used. The sweeper (every 15 s) and started tables' timers can add a few.
"""
from __future__ import annotations

import asyncio
import json
import re
import time

from bench.live import wsclient
from bench.live.procstat import Meter
from bench.live.stats import summary
from bench.live.web import Browser, PageError, find_form


class LobbySocket:
    """One anonymous lobby socket; ``frames`` is [(perf_counter time, frame text)].

    Frames are kept as text and parsed only once a change has reached every socket
    (``parsed``): parsing 500 copies of the list while they arrive would delay the later
    sockets' arrival times by the load generator's own work, and 500 sockets' worth of
    parsed lists make its garbage collector pause (strings are not tracked)."""

    def __init__(self):
        self.frames: list[tuple[float, str]] = []
        self.ws: wsclient.WebSocket | None = None
        self.task: asyncio.Task | None = None

    async def read(self) -> None:
        """Append every frame with its arrival time until the socket closes."""
        while True:
            text = await self.ws.recv()
            if text is None:
                return
            self.frames.append((time.perf_counter(), text))

    def parsed(self, index: int) -> dict:
        """Frame ``index`` as JSON ({} when it is not JSON)."""
        try:
            return json.loads(self.frames[index][1])
        except ValueError:
            return {}


def _shows(kind: str, table_id: int):
    def check(frame: dict) -> bool:
        tables = frame.get("tables")
        if not isinstance(tables, list):
            return True
        entry = next((t for t in tables if isinstance(t, dict) and t.get("id") == table_id), None)
        if kind == "create":
            return entry is not None
        if kind == "join":
            return entry is not None and (entry.get("seats_taken") or 0) >= 2
        return entry is None or entry.get("status") == "playing"
    return check


async def _measure(stack, sockets: list[LobbySocket], kind: str, post, timeout: float, settle: float) -> dict:
    """Make one change (``post()`` returns the table id) and wait until every socket shows it."""
    before = await asyncio.to_thread(stack.pg_counters)
    marks = [len(s.frames) for s in sockets]
    t0 = time.perf_counter()
    table_id = await post()
    posted = time.perf_counter() - t0
    check = _shows(kind, table_id)
    got: dict[int, float] = {}
    extra_frames = 0
    deadline = t0 + timeout
    while len(got) < len(sockets) and time.perf_counter() < deadline:
        # parse nothing while frames still arrive: wait until every socket waiting for the
        # change has a frame it has not looked at (or the time is up)
        if any(i not in got and marks[i] >= len(sock.frames) for i, sock in enumerate(sockets)):
            await asyncio.sleep(0.005)
            if time.perf_counter() < deadline:
                continue
        for i, sock in enumerate(sockets):
            if i in got:
                continue
            while marks[i] < len(sock.frames):
                t = sock.frames[marks[i]][0]
                frame = sock.parsed(marks[i])
                marks[i] += 1
                if check(frame):
                    got[i] = t - t0
                    break
                extra_frames += 1
    await asyncio.sleep(settle)
    after = await asyncio.to_thread(stack.pg_counters)
    delta = ({k: after[k] - before[k] for k in after if k != "server_xact_commit"}
             if before and after else None)
    lat = list(got.values())
    return {"kind": kind, "table": table_id, "post_ms": round(posted * 1000, 1), "delivered": len(got),
            "missing": len(sockets) - len(got), "all_ms": round(max(lat) * 1000, 1) if lat else None,
            "per_socket": summary(lat), "frames_not_showing_it": extra_frames, "pg": delta, "_lat": lat}


async def run_lobby(stack, host: str, ports: list[int], count: int, changes: int, ruleset: str,
                    form: dict[str, str], settle: float = 2.5, timeout: float = 30.0) -> dict:
    """Open ``count`` lobby sockets and make ``changes`` create/join/start cycles.
    Returns per-change records and summaries (ms; ``pg`` deltas or None on SQLite)."""
    users = await asyncio.to_thread(stack.make_users, 2, "lobbyuser")
    creator, joiner = (Browser(host, ports, u["cookies"]) for u in users)
    sockets = []
    connect_start = time.perf_counter()
    servers = Meter({name: pid for name, pid in stack.roots().items() if name.startswith("daphne")})
    servers.start()
    for i in range(count):
        sock = LobbySocket()
        port = ports[i % len(ports)]
        sock.ws = await wsclient.connect(host, port, "/ws/lobby/", {"Origin": f"http://{host}:{port}"})
        sock.task = asyncio.create_task(sock.read())
        sockets.append(sock)
    deadline = time.monotonic() + 60
    while any(not s.frames for s in sockets) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    initial = sum(1 for s in sockets if s.frames)
    connect_seconds = time.perf_counter() - connect_start  # one socket after the other, each to its first list
    servers.stop()
    connect_cpu = sum(p["cpu_seconds"] for p in servers.report()["processes"].values())
    await asyncio.sleep(settle)

    records = []
    for _ in range(changes):
        # the pages a user reads before each change are outside the measured time
        _, forms = await creator.get_page("/", "lobby")
        create_form = find_form(forms, field_name="ruleset")
        if create_form is None:
            raise PageError("lobby: no create-table form", 200)
        table_path = {}

        # each closure is awaited at once inside this iteration: bind its loop values anyway
        async def post_create(create_form=create_form, table_path=table_path):
            path = await creator.submit(create_form, {"ruleset": ruleset, "mode": "online", **form},
                                        step="create")
            found = re.search(r"/table/(\d+)/", path)
            if not found:
                raise PageError("create: redirected elsewhere", 302, path)
            table_path["path"] = path
            return int(found.group(1))

        rec = await _measure(stack, sockets, "create", post_create, timeout, settle)
        records.append(rec)
        table_id = rec["table"]
        _, forms = await joiner.get_page(table_path["path"], "table page")
        join = find_form(forms, action_suffix="/join/")
        if join is None:
            raise PageError("table page: no join form", 200)

        async def post_join(join=join, table_id=table_id):
            await joiner.submit(join, step="join")
            return table_id

        records.append(await _measure(stack, sockets, "join", post_join, timeout, settle))
        _, forms = await creator.get_page(table_path["path"], "table page")
        start = find_form(forms, action_suffix="/start/")
        if start is None:
            raise PageError("table page: no start form", 200)

        async def post_start(start=start, table_id=table_id):
            await creator.submit(start, step="start")
            return table_id

        records.append(await _measure(stack, sockets, "start", post_start, timeout, settle))
    for sock in sockets:
        sock.task.cancel()
    await asyncio.gather(*(s.task for s in sockets), return_exceptions=True)
    closes = {}
    for sock in sockets:
        if sock.ws.close_code is not None:
            closes[sock.ws.close_code] = closes.get(sock.ws.close_code, 0) + 1
    await asyncio.gather(*(s.ws.close(timeout=1.0) for s in sockets), return_exceptions=True)
    every = [x for r in records for x in r.pop("_lat")]
    alls = [r["all_ms"] / 1000 for r in records if r["all_ms"] is not None]
    pg = [r["pg"] for r in records if r["pg"]]
    return {
        "sockets": count, "connected": initial, "connect_seconds": round(connect_seconds, 2),
        "connect_server_cpu_ms_per_socket": round(1000 * connect_cpu / max(count, 1), 2), "changes": records,
        "per_socket": summary(every), "all_sockets": summary(alls),
        "missing": sum(r["missing"] for r in records),
        "xact_commit_per_change": _per_kind(records, "xact_commit") if pg else None,
        "tup_returned_per_change": _per_kind(records, "tup_returned") if pg else None,
        "unexpected_closes": closes,
    }


def _per_kind(records: list[dict], key: str) -> dict:
    out = {}
    for kind in ("create", "join", "start"):
        values = [r["pg"][key] for r in records if r["kind"] == kind and r["pg"]]
        if values:
            out[kind] = {"min": min(values), "median": sorted(values)[len(values) // 2], "max": max(values)}
    return out
