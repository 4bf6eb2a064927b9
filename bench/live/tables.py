"""K live tables with H human sockets each, played closed-loop through the real site.

Each table is set up the way people do it: the creator opens the lobby and submits its
create-table form (mode online), every other human opens the table page and submits its
join form, all sockets connect, then the creator submits the start form and computers
take the free seats. Each human socket then plays: whenever a snapshot says it is its
seat's turn it asks ``games.bots.choose_action(view, level, seed)`` for a legal action
and sends it as an ``action`` frame with the snapshot's version (docs/protocol.md §4), one action
in flight at a time. ``pace="human"`` waits 2-5 s (uniform, seeded) after its turn starts;
``"fast"`` acts at once.

Like the site's table client: on ``stale_version`` it asks for a ``sync`` and plays on the
next snapshot; on a version gap in a non-snapshot frame it asks for a ``sync``; after an
unexpected close it reconnects with back-off (not after 4401/4403/4404). A refused action
is retried with another seed, at most three times per version. A table whose match is
over (or that stops moving for ``stall`` seconds) is closed and its creator makes a new
one, so K stays constant; the counts are in ``Recording.events``.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time

from bench.live import wsclient
from bench.live.stats import Recording
from bench.live.web import Browser, PageError, find_form

REFUSED_CLOSES = (4401, 4403, 4404)  # not logged in, suspended, no such table: do not retry
MAX_REFUSALS = 3
ANSWER_TIMEOUT = 15.0  # seconds without ack/error before an action counts as unanswered
_WS_PATH = re.compile(r'"ws_path"\s*:\s*"([^"]+)"')


def my_turn(view: dict | None) -> bool:
    """True when ``view`` (a snapshot's view) says its own seat is to play in a live round."""
    if not view:
        return False
    seat = view.get("seat")
    return (seat is not None and view.get("turn") == seat and view.get("result") is None
            and view.get("status", "playing") == "playing")


class Run:
    """What all tables of one load run share: the servers, the recording, the knobs."""

    def __init__(self, host: str, ports: list[int], rec: Recording, *, humans: int, rulesets: list[str],
                 pace: str, level: str, seed: str, stall: float, form: dict[str, str]):
        from games.bots import choose_action  # the only project code the load generator runs

        self.choose_action = choose_action
        self.host, self.ports, self.rec = host, ports, rec
        self.humans, self.rulesets, self.pace, self.level, self.seed = humans, rulesets, pace, level, seed
        self.stall, self.form = stall, form
        self.setup_gate = asyncio.Semaphore(8)  # tables being set up at once
        self.stopping = False
        self.tables: set[LiveTable] = set()
        self._port = 0

    def next_port(self) -> int:
        """Round-robin over the daphne ports: each socket picks one."""
        self._port += 1
        return self.ports[self._port % len(self.ports)]

    def stop(self) -> None:
        self.stopping = True
        for table in list(self.tables):
            table.done.set()


class HumanSocket:
    """One human's table socket and the player behind it."""

    def __init__(self, run: Run, table: "LiveTable", slot: int, browser: Browser):
        self.run, self.table, self.slot, self.browser = run, table, slot, browser
        self.ws: wsclient.WebSocket | None = None
        self.task: asyncio.Task | None = None
        self.view: dict | None = None
        self.version = -1
        self.pending: str | None = None
        self.pending_at = 0.0
        self.wait_version = -1
        self.in_turn = False
        self.ready_at = 0.0
        self.timer: asyncio.TimerHandle | None = None
        self.refusals: dict[int, int] = {}
        self.sent = 0
        self.frames = 0
        self.seeded_round = None  # the round this socket sent its client seed for
        self.rng = random.Random(f"{run.seed}|{table.index}|{table.generation}|{slot}")

    async def open(self) -> None:
        """Connect with the browser's cookies and the site's Origin (raises HandshakeError/OSError)."""
        port = self.run.next_port()
        headers = {"Origin": f"http://{self.run.host}:{port}", "Cookie": self.browser.cookie_header(),
                   "Accept-Language": "en"}
        self.ws = await wsclient.connect(self.run.host, port, self.table.ws_path, headers)

    async def play(self) -> None:
        """Read frames until the table is done; reconnect after an unexpected close."""
        rec, retry = self.run.rec, 0
        while True:
            text = await self.ws.recv()
            now = time.perf_counter()
            if text is not None:
                retry = 0
                await self.on_frame(now, text)
                continue
            if self.table.done.is_set():
                return
            code = self.ws.close_code
            rec.closes[code] += 1
            if code in REFUSED_CLOSES or retry >= 5:
                self.table.finish("lost_socket")
                return
            await asyncio.sleep(0.5 * 2 ** retry)
            retry += 1
            self.pending = None
            try:
                await self.open()
                rec.events["reconnects"] += 1
            except (wsclient.HandshakeError, OSError, asyncio.TimeoutError) as exc:
                rec.errors[f"reconnect:{type(exc).__name__}"] += 1

    async def on_frame(self, now: float, text: str) -> None:
        rec = self.run.rec
        try:
            frame = json.loads(text)
        except ValueError:
            rec.errors["bad_json_from_server"] += 1
            return
        kind = frame.get("type")
        version = frame.get("version")
        if kind == "seeding" or (kind == "snapshot" and (frame.get("view") or {}).get("seeding")):
            await self.send_seed(frame if kind == "seeding" else frame["view"]["seeding"])
        if kind == "snapshot" and isinstance(version, int):
            rec.arrival(self.table.id, self.slot, now, version)
            self.frames += 1
            if self.frames % 8 == 1:
                rec.sizes.append(len(text.encode()))
            if version >= self.version:
                self.version, self.view = version, frame.get("view") or {}
                self.table.on_view(version, self.view, now)
            await self.maybe_act()
            return
        if isinstance(version, int) and version > self.version + 1 and self.version >= 0:
            await self.ws.send('{"type":"sync"}')  # a gap: catch up (docs/protocol.md §4)
        if kind == "ack":
            if frame.get("id") == self.pending and isinstance(version, int):
                rec.acks[(self.table.id, self.slot, self.pending)] = (now, version)
                self.pending, self.wait_version = None, version
            else:
                rec.errors["ack_for_unknown_id"] += 1
            await self.maybe_act()
        elif kind == "error":
            code = str(frame.get("code") or "no_code")
            rec.errors[code] += 1
            if self.pending is not None and frame.get("id") == self.pending:
                rec.refused.add((self.table.id, self.slot, self.pending))
                self.pending = None
                if code == "stale_version":
                    await self.ws.send('{"type":"sync"}')
                else:
                    self.refusals[self.version] = self.refusals.get(self.version, 0) + 1
                    await self.maybe_act()
        elif kind == "round_end":
            if frame.get("match_over"):
                self.table.finish("finished")

    async def send_seed(self, window: dict) -> None:
        """Answer a seeding window with a client seed, once per round, as the table page
        does (docs/fair-deals.md §1): without it every deal waits out OKEY_SEED_WINDOW."""
        round_no = window.get("round")
        if not isinstance(round_no, int) or round_no == self.seeded_round:
            return
        self.seeded_round = round_no
        await self.ws.send(json.dumps({"type": "seed", "round": round_no, "seed": os.urandom(16).hex()}))

    def _wake(self) -> None:
        self.timer = None
        asyncio.ensure_future(self.maybe_act())

    async def maybe_act(self) -> None:
        """Send this seat's next action if it is its turn and nothing is in flight."""
        if self.pending is not None or self.run.stopping or self.table.done.is_set():
            return
        if self.version < self.wait_version:  # the snapshot of our own accepted move is coming
            return
        view = self.view
        if not my_turn(view):
            self.in_turn = False
            return
        now = time.perf_counter()
        if not self.in_turn:
            self.in_turn = True
            self.ready_at = now + (self.rng.uniform(2.0, 5.0) if self.run.pace == "human" else 0.0)
        if now < self.ready_at:
            if self.timer is None:
                self.timer = asyncio.get_running_loop().call_later(self.ready_at - now, self._wake)
            return
        refused = self.refusals.get(self.version, 0)
        if refused >= MAX_REFUSALS:
            return
        rec = self.run.rec
        try:
            action = dict(self.run.choose_action(view, self.run.level,
                                                 f"{self.run.seed}|{self.table.id}|{self.slot}|{self.version}|{refused}"))
        except Exception:  # noqa: BLE001 - a bot failure is a figure, not a crash of the load
            rec.errors["client_bot_exception"] += 1
            self.refusals[self.version] = refused + 1
            return
        action.pop("seat", None)  # the server knows the seat (docs/protocol.md §2)
        self.sent += 1
        action_id = f"{self.slot}-{self.sent}"
        frame = json.dumps({"type": "action", "id": action_id, "version": self.version, "action": action},
                           separators=(",", ":"))
        self.pending, self.pending_at = action_id, time.perf_counter()
        rec.sent.append((self.pending_at, self.table.id, self.slot, action_id))
        if not await self.ws.send(frame):
            self.pending = None

    async def watch(self, now: float) -> None:
        """Called every second: an action unanswered for ANSWER_TIMEOUT seconds, or acked
        without its snapshot for as long, gets a ``sync`` (the next snapshot restarts the player)."""
        if now - self.pending_at <= ANSWER_TIMEOUT:
            return
        if self.pending is not None:
            self.run.rec.errors["no_answer"] += 1
        elif self.version < self.wait_version:
            self.run.rec.errors["no_snapshot_after_ack"] += 1
        else:
            return
        self.pending, self.wait_version, self.pending_at = None, -1, now
        await self.ws.send('{"type":"sync"}')

    async def close(self) -> None:
        """Stop playing, then close the socket (one reader at a time on the stream)."""
        if self.timer is not None:
            self.timer.cancel()
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        if self.ws is not None:
            await self.ws.close()


class LiveTable:
    """One table from creation to the end of its match."""

    def __init__(self, run: Run, index: int, generation: int, browsers: list[Browser], ruleset: str):
        self.run, self.index, self.generation = run, index, generation
        self.browsers, self.ruleset = browsers, ruleset
        self.id = -1
        self.ws_path = ""
        self.sockets: list[HumanSocket] = []
        self.done = asyncio.Event()
        self.started = asyncio.Event()
        self.max_version = -1
        self.last_change = time.perf_counter()
        self.start_sent = False

    def on_view(self, version: int, view: dict, now: float) -> None:
        if version > self.max_version:
            self.max_version, self.last_change = version, now
        if view.get("rack_counts") or view.get("turn") is not None:
            self.started.set()
        status = view.get("status")
        if status == "finished" or (view.get("round_end") or {}).get("match_over"):
            self.finish("finished")
        elif status == "closed":
            self.finish("closed")

    def finish(self, why: str) -> None:
        if not self.done.is_set():
            if not self.run.stopping:
                self.run.rec.events[f"tables_{why}"] += 1
            self.done.set()

    async def setup(self) -> None:
        """Create, join, connect, start (raises PageError, HandshakeError, OSError). A table
        that fails before its start is closed again with its creator's leave form."""
        async with self.run.setup_gate:
            try:
                await self._setup()
            except (PageError, wsclient.HandshakeError, OSError, asyncio.TimeoutError):
                if self.id >= 0 and not self.start_sent:
                    await self._abandon()
                elif self.id >= 0:
                    self.run.rec.events["tables_abandoned_while_playing"] += 1
                raise

    async def _abandon(self) -> None:
        creator = self.browsers[0]
        try:
            _, forms = await creator.get_page(f"/table/{self.id}/", "table page")
            leave = find_form(forms, action_suffix="/leave/")
            if leave is not None:
                await creator.submit(leave, step="leave")
                self.run.rec.events["tables_closed_after_failed_setup"] += 1
        except PageError as exc:
            self.run.rec.setup[f"{exc.step}:{exc.status}"] += 1

    async def _setup(self) -> None:
        creator, others = self.browsers[0], self.browsers[1:]
        _, forms = await creator.get_page("/", "lobby")
        form = find_form(forms, field_name="ruleset")
        if form is None:
            raise PageError("lobby: no create-table form", 200)
        values = {"ruleset": self.ruleset, "mode": "online", **self.run.form}
        for name, value in values.items():
            if name in form.choices and value not in form.choices[name]:
                raise PageError(f"lobby: {name}={value} not offered ({form.choices[name]})", 200)
        path = await creator.submit(form, values, step="create")
        found = re.search(r"/table/(\d+)/", path)
        if not found:
            raise PageError("create: redirected elsewhere", 302, path)
        self.id = int(found.group(1))
        self.run.rec.humans[self.id] = len(self.browsers)
        for browser in others:
            _, forms = await browser.get_page(path, "table page")
            join = find_form(forms, action_suffix="/join/")
            if join is None:
                raise PageError("table page: no join form", 200)
            await browser.submit(join, step="join")
        page, forms = await creator.get_page(path, "table page")
        found = _WS_PATH.search(page.body)
        self.ws_path = found.group(1).replace("\\u002F", "/") if found else f"/ws/table/{self.id}/"
        start = find_form(forms, action_suffix="/start/")
        if start is None:
            raise PageError("table page: no start form", 200)
        for slot, browser in enumerate(self.browsers):
            sock = HumanSocket(self.run, self, slot, browser)
            await self._connect(sock)
            sock.task = asyncio.create_task(sock.play())
            self.sockets.append(sock)
        self.start_sent = True
        await creator.submit(start, step="start")
        try:
            await asyncio.wait_for(self.started.wait(), 30)
        except asyncio.TimeoutError:
            raise PageError("start: no dealt snapshot within 30 s", 0) from None
        self.last_change = time.perf_counter()
        self.run.rec.events["tables_started"] += 1

    async def _connect(self, sock: HumanSocket, attempts: int = 5) -> None:
        """Connect like the table client: retry with back-off (daphne drops a socket the
        application has not accepted within its connect timeout, 5 s, on a busy server)."""
        for attempt in range(attempts):
            try:
                await sock.open()
                return
            except (wsclient.HandshakeError, OSError, asyncio.TimeoutError) as exc:
                self.run.rec.setup[f"connect:{getattr(exc, 'status', None) or type(exc).__name__}"] += 1
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(0.5 * 2 ** attempt)

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.sockets), return_exceptions=True)


async def table_slot(run: Run, index: int, browsers: list[Browser]) -> None:
    """Keep one table playing until the run stops: set it up, wait for its end, replace it."""
    generation = 0
    while not run.stopping:
        ruleset = run.rulesets[(index + generation) % len(run.rulesets)]
        table = LiveTable(run, index, generation, browsers, ruleset)
        generation += 1
        run.tables.add(table)
        try:
            await table.setup()
            await table.done.wait()
            if not run.stopping:
                await asyncio.sleep(1.0)  # the last snapshots reach every socket, as in a browser
        except PageError as exc:
            run.rec.setup[f"{exc.step}:{exc.status}"] += 1
            await asyncio.sleep(1.0)
        except (wsclient.HandshakeError, OSError, asyncio.TimeoutError) as exc:
            run.rec.setup[f"socket:{getattr(exc, 'status', type(exc).__name__)}"] += 1
            await asyncio.sleep(1.0)
        finally:
            run.tables.discard(table)
            await table.close()


async def watchdog(run: Run) -> None:
    """Every second: unanswered actions, stalled tables (no new version for ``run.stall`` s)."""
    while not run.stopping:
        await asyncio.sleep(1.0)
        now = time.perf_counter()
        for table in list(run.tables):
            if table.started.is_set() and not table.done.is_set() and now - table.last_change > run.stall:
                table.finish("stalled")
            for sock in table.sockets:
                await sock.watch(now)
