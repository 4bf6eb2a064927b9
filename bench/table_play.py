"""Live tables for fault runs: solo tables whose human seat a WebSocket client plays with
the computers' own bot (`games.bots.choose_action` on the snapshot's view), and a
monitor that samples how late each running table's deadline is.

Needs Django set up against the stack's database (the caller sets the environment and
calls `django.setup()` first). The clients reconnect after any close, so a daphne that
is killed and restarted, or a Redis restart, only pauses them.
"""
import asyncio
import itertools
import json
import threading
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from games.bots import choose_action
from games.models import Game, Table
from games.play import tables

RULESETS = ("okey51", "okey17", "rami")


def make_tables(count, move_time=20, prefix="fault"):
    """`count` solo tables (rulesets in turn, many rounds), one new user each.

    Returns a list of (table id, session cookie header value) pairs."""
    users = get_user_model().objects
    made = []
    for n, ruleset in zip(range(count), itertools.cycle(RULESETS)):
        name = f"{prefix}{n}-{int(time.time() * 1000) % 10**8}"
        user = users.create_user(username=name, email=f"{name}@example.com", password="pw-" + name)
        options = {"rounds": 3 if ruleset == "okey51" else 20}  # okey51 plays 1 or 3 rounds
        table = tables.create_table(user, ruleset, options, mode="solo", move_time=move_time)
        client = Client()
        client.force_login(user)
        made.append((table.pk, f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"))
    return made


class Player:
    """One table's socket client: plays its seat's turn from each snapshot, reconnects
    after a close. Counts `actions` sent, `acks`, `connects` and `errors` (refusals)."""

    def __init__(self, table_id, cookie, ports):
        self.table_id = table_id
        self.cookie = cookie
        self.ports = itertools.cycle(ports)
        self.actions = self.acks = self.connects = self.errors = 0
        self.last_frame = None
        self.stopped = False

    async def run(self):
        from websockets.asyncio.client import connect

        n = 0
        while not self.stopped:
            port = next(self.ports)
            try:
                async with connect(f"ws://127.0.0.1:{port}/ws/table/{self.table_id}/",
                                   origin=f"http://127.0.0.1:{port}",
                                   additional_headers=[("Cookie", self.cookie)], open_timeout=5) as sock:
                    self.connects += 1
                    async for text in sock:
                        if self.stopped:
                            return
                        frame = json.loads(text)
                        self.last_frame = time.time()
                        if frame["type"] == "ack":
                            self.acks += 1
                        elif frame["type"] == "error":
                            self.errors += 1
                        elif frame["type"] == "snapshot":
                            action = self._choose(frame["view"])
                            if action is not None:
                                n += 1
                                self.actions += 1
                                await sock.send(json.dumps({"type": "action", "id": f"a{n}",
                                                            "version": frame["version"], "action": action}))
            except Exception:  # noqa: BLE001 - a closed or refused socket: try again (the fault)
                pass
            await asyncio.sleep(0.5)

    @staticmethod
    def _choose(view):
        if view.get("status") != "playing" or view.get("seat") is None or view.get("turn") != view["seat"]:
            return None
        if view.get("phase") in (None, "over") or view.get("round_end"):
            return None
        action = dict(choose_action(view, "normal", view["version"]))
        action.pop("seat", None)
        return action


class Players:
    """All the players on a background event loop: `start()`, `stop()`, `totals()`."""

    def __init__(self, made, ports):
        self.players = [Player(table_id, cookie, ports[i % len(ports):] + ports[:i % len(ports)])
                        for i, (table_id, cookie) in enumerate(made)]
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(asyncio.gather(*(p.run() for p in self.players)))

    def start(self):
        self.thread.start()

    def stop(self):
        for player in self.players:
            player.stopped = True
        self.thread.join(15)

    def totals(self):
        return {key: sum(getattr(p, key) for p in self.players) for key in ("actions", "acks", "connects", "errors")}


class Monitor:
    """Samples every `interval` seconds the running tables' deadlines (one query).

    `lateness(since)`: the longest time, over the samples taken since `since` (epoch
    seconds), that a deadline stayed unserved past max(deadline, since) — a deadline that
    fell due during an outage counts only from the moment the service was back. Also
    `versions()` (the sum of the game versions, to see tables move on) and `db_errors`.
    """

    def __init__(self, interval=0.2):
        self.interval = interval
        self.samples = []  # (epoch seconds, {game id: (version, deadline epoch seconds, deadline kind)})
        self.db_errors = 0
        self.stopped = False
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        from django.db import close_old_connections, connection

        while not self.stopped:
            try:
                rows = (Game.objects.filter(table__status=Table.Status.PLAYING, deadline__isnull=False)
                        .values_list("pk", "version", "deadline", "deadline_kind"))
                self.samples.append((time.time(), {pk: (v, d.timestamp(), k) for pk, v, d, k in rows}))
            except Exception:  # noqa: BLE001 - the database is down (a fault): sample again later
                self.db_errors += 1
                connection.close()
            close_old_connections()
            time.sleep(self.interval)

    def start(self):
        self.thread.start()

    def stop(self):
        self.stopped = True
        self.thread.join(5)

    def lateness(self, since, until=None):
        worst = 0.0
        for at, games in self.samples:
            if at < since or (until is not None and at > until):
                continue
            for _version, deadline, _kind in games.values():
                worst = max(worst, at - max(deadline, since))
        return worst

    def versions(self):
        return sum(row[0] for row in self.samples[-1][1].values()) if self.samples else 0

    def frozen(self, since):
        """The deadline kinds ("move": a human's turn, "bot", "next_round") of the games still
        running at the last sample whose version did not move in any sample since `since`
        (epoch seconds); a sorted list, one item per game."""
        window = [games for at, games in self.samples if at >= since]
        if len(window) < 2:
            return []
        return sorted(kind for pk, (version, _d, kind) in window[-1].items()
                      if all(games.get(pk, (version,))[0] == version for games in window))
