"""Racing starts over two servers: whatever starts a table (Play now filling it, the Play
now wait ending, a rematch accepted or timing out, the creator's Start) takes the table's
lock and reads its status again under it, so racing requests make one table and one
match, never a second one nor a 500; players pressing Play now together share a table.

The requests are real HTTP POSTs, shared between two `daphne` processes on this test's
PostgreSQL and Redis (the `servers` fixture of tests/games/test_racing_two_servers.py),
each request with its own thread and session, released together by a barrier. Where the
order matters, the test holds the table's lock itself until the racing requests all wait
for it, so they meet exactly where a second start used to come from."""
import http.client
import math
import re
import secrets
import threading
import time
from collections import Counter
from datetime import timedelta
from functools import partial

import pytest
from django.db import connection
from django.utils import timezone

from games.forms import available_rulesets
from games.models import Match, Seat, Table
from games.play import commit, quickmatch, rematch, tables
from tests.games import test_racing_two_servers
from tests.games.play.helpers import online_table, play_out

pytestmark = pytest.mark.django_db(transaction=True)

servers = test_racing_two_servers.servers  # the two daphne processes

TIMEOUT = 60  # seconds for one request (fifty at once share two cores)


@pytest.fixture
def players(django_user_model, session_cookie):
    """Factory: players(n, prefix) -> [(user, cookie header)] of n new users, logged in."""
    def make(n, prefix="p"):
        made = []
        for i in range(n):
            user = django_user_model.objects.create(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com")
            made.append((user, session_cookie(user).decode()))
        return made
    return make


def post(port, path, cookie, data=""):
    """POST `path` to the server on `port` as the session `cookie`, with a CSRF token of its
    own. Returns (status, Location header or "")."""
    token = secrets.token_hex(16)  # 32 characters: an unmasked CSRF secret
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request("POST", path, body=data, headers={
            "Cookie": f"{cookie}; csrftoken={token}", "X-CSRFToken": token, "Host": "127.0.0.1",
            "Content-Type": "application/x-www-form-urlencoded"})
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("Location") or ""
    finally:
        conn.close()


def race(calls):
    """Run every `calls[i]()` in a thread of its own, released together. Returns their
    results in order (an exception raised is returned as it is)."""
    results = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i):
        try:
            start.wait()
            results[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - the test looks at every outcome
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 3)
    return results


class Held:
    """`with Held(table_id, waiters):` holds the table's commit lock in a thread of its own
    and gives it back once `waiters` other sessions wait for a lock (or after 20 s)."""

    def __init__(self, table_id, waiters):
        self.table_id, self.waiters = table_id, waiters
        self.taken, self.release = threading.Event(), threading.Event()

    def _hold(self):
        try:
            with commit.locked(self.table_id):
                self.taken.set()
                self.release.wait(30)
        finally:
            connection.close()

    def __enter__(self):
        self.thread = threading.Thread(target=self._hold)
        self.thread.start()
        assert self.taken.wait(10)
        self.watcher = threading.Thread(target=self._watch)
        self.watcher.start()
        return self

    def _watch(self):
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and _lock_waiters() < self.waiters:
                time.sleep(0.02)
        finally:
            connection.close()
            self.release.set()

    def __exit__(self, *exc):
        self.release.set()
        self.watcher.join()
        self.thread.join()


def _lock_waiters():
    with connection.cursor() as cursor:
        # pg_locks, read live: pg_stat_activity keeps one snapshot for a whole transaction
        cursor.execute("SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted")
        return cursor.fetchone()[0]


def table_id_of(location):
    found = re.fullmatch(r"/table/(\d+)/", location)
    return int(found.group(1)) if found else None


def assert_no_errors(stack):
    """Stop both servers and check their logs: no traceback, no 500."""
    stack.stop()
    for label in stack.procs:
        log = stack.log_text(label)
        assert "Traceback" not in log and "Internal Server Error" not in log, f"{label}:\n{log[-4000:]}"


def quick_tables(ruleset):
    return list(Table.objects.filter(ruleset=ruleset, quick=True).order_by("pk"))


def humans_at(table):
    return [s.user_id for s in Seat.objects.filter(table=table, user__isnull=False, left=False)]


def test_fifty_players_pressing_play_now_at_once_sit_once_each_at_thirteen_tables(servers, players):
    stack, ports = servers
    crowd = players(50)
    answers = race([lambda port=ports[i % 2], cookie=cookie: post(port, "/play/okey51/", cookie)
                    for i, (_user, cookie) in enumerate(crowd)])
    made = quick_tables("okey51")
    seats = 4
    statuses = [a[0] if isinstance(a, tuple) else a for a in answers]
    figures = (f"answers {dict(Counter(statuses))}, {len(made)} tables, humans per table "
               f"{sorted(len(humans_at(t)) for t in made)}")
    assert statuses == [302] * 50, figures
    assert len(made) == 13, figures
    assert len(made) == math.ceil(50 / seats) == 13
    seated = [uid for table in made for uid in humans_at(table)]
    assert sorted(seated) == sorted(user.pk for user, _c in crowd)  # every player exactly once
    where = {uid: table.pk for table in made for uid in humans_at(table)}
    assert all(table_id_of(answers[i][1]) == where[user.pk] for i, (user, _c) in enumerate(crowd))
    full = [t for t in made if len(humans_at(t)) == seats]
    assert len(full) == 12 and all(t.status == Table.Status.PLAYING for t in full)
    assert Match.objects.filter(table__in=made).count() == 12
    assert [len(humans_at(t)) for t in made if t not in full] == [2]
    assert_no_errors(stack)


def test_two_players_pressing_play_now_together_share_a_table_in_every_ruleset(servers, players):
    stack, ports = servers
    for ruleset, _label in available_rulesets():
        pair = players(2, prefix=f"{ruleset}-")
        answers = race([partial(post, port, f"/play/{ruleset}/", cookie) for port, (_user, cookie) in zip(ports, pair)])
        made = quick_tables(ruleset)
        assert [a[0] for a in answers] == [302, 302], ruleset
        assert len(made) == 1, f"{ruleset}: {len(made)} tables for two players"
        assert sorted(humans_at(made[0])) == sorted(user.pk for user, _c in pair)
        assert {table_id_of(a[1]) for a in answers} == {made[0].pk}
    assert_no_errors(stack)


def test_ten_requests_of_one_player_seat_them_at_one_table(servers, players):
    stack, ports = servers
    [(user, cookie)] = players(1)
    answers = race([lambda port=ports[i % 2]: post(port, "/play/rami/", cookie) for i in range(10)])
    made = quick_tables("rami")
    assert [a[0] for a in answers] == [302] * 10
    assert len(made) == 1 and humans_at(made[0]) == [user.pk]
    assert {table_id_of(a[1]) for a in answers} == {made[0].pk}
    # and once that table plays, Play now leads back to it, not to a second one
    tables.start_match(user, made[0].pk)
    assert table_id_of(post(ports[0], "/play/rami/", cookie)[1]) == made[0].pk
    assert len(quick_tables("rami")) == 1
    assert_no_errors(stack)


def test_racing_starts_of_a_full_table_start_it_once(servers, players):
    """The creator's Start twice, on both servers, and the table filling up: one match."""
    stack, ports = servers
    for trial in range(3):
        (creator, cookie), *others = players(4, prefix=f"s{trial}-")
        table = tables.create_table(creator, "okey51", {"rounds": 1}, mode="online")
        for user, _c in others:
            tables.join_table(user, table.pk)
        path = f"/table/{table.pk}/start/"
        with Held(table.pk, waiters=3):
            answers = race([partial(post, ports[0], path, cookie), partial(post, ports[1], path, cookie),
                            partial(quickmatch._start_if_full, table.pk)])
        assert [a[0] for a in answers[:2]] == [302, 302], answers
        assert answers[2] is None, answers[2]
        assert Match.objects.filter(table=table).count() == 1
        assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert_no_errors(stack)


def test_the_play_now_wait_ending_as_the_last_player_comes_makes_one_match(servers, players):
    stack, ports = servers
    for trial in range(4):
        waiting = players(3, prefix=f"w{trial}-")
        (last, cookie), = players(1, prefix=f"last{trial}-")
        table = quickmatch.play_now(waiting[0][0], "okey51")
        for user, _c in waiting[1:]:
            quickmatch.play_now(user, "okey51")
        Table.objects.filter(pk=table.pk).update(created=timezone.now() - timedelta(seconds=60))
        with Held(table.pk, waiters=3):
            answers = race([partial(post, ports[trial % 2], "/play/okey51/", cookie),
                            partial(quickmatch.start_due, table.pk), partial(quickmatch.start_due, table.pk)])
        assert answers[0][0] == 302 and not any(isinstance(a, Exception) for a in answers), answers
        assert sum(answers[1:]) <= 1  # the last player may have filled and started it first
        assert Match.objects.filter(table=table).count() == 1
        assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
        seated = [t.pk for t in Table.objects.filter(quick=True, seats__user=last)]
        assert seated == [table_id_of(answers[0][1])]  # at the table that started, or a new one
        Table.objects.filter(pk__in=seated, status=Table.Status.OPEN).update(status=Table.Status.CLOSED)
    assert_no_errors(stack)


def test_two_rematch_offers_at_once_make_one_rematch(servers, alice, bob, session_cookie):
    stack, ports = servers
    cookies = [session_cookie(user).decode() for user in (alice, bob)]
    for _trial in range(3):
        old = online_table(alice, bob, options={"rounds": 1, "doubling": False})
        play_out(old)
        path = f"/table/{old.pk}/rematch/"
        answers = race([partial(post, port, path, cookie) for port, cookie in zip(ports, cookies)])
        old.refresh_from_db()
        rematches = Table.objects.filter(pk__gt=old.pk)
        assert [a[0] for a in answers] == [302, 302]
        assert rematches.count() == 1, f"{rematches.count()} rematch tables"
        new = rematches.get()
        assert old.rematch_table_id == new.pk and {table_id_of(a[1]) for a in answers} == {new.pk}
        assert sorted(humans_at(new)) == sorted([alice.pk, bob.pk])
        assert new.status == Table.Status.PLAYING and Match.objects.filter(table=new).count() == 1
        tables.close_table(new.pk, "next trial")
    assert_no_errors(stack)


def test_the_rematch_deadline_racing_an_accept_makes_one_match(servers, alice, bob, session_cookie):
    stack, ports = servers
    cookie = session_cookie(bob).decode()
    for trial in range(4):
        old = online_table(alice, bob, options={"rounds": 1, "doubling": False})
        play_out(old)
        new = rematch.offer(alice, old.pk)
        Table.objects.filter(pk=new.pk).update(rematch_deadline=timezone.now() - timedelta(seconds=1))
        path = f"/table/{old.pk}/rematch/answer/"
        with Held(new.pk, waiters=3):
            answers = race([partial(post, ports[trial % 2], path, cookie, "accept=yes"),
                            partial(rematch.start_due, new.pk), partial(rematch.start_due, new.pk)])
        assert answers[0][0] == 302 and not any(isinstance(a, Exception) for a in answers), answers
        assert Match.objects.filter(table=new).count() == 1
        assert Table.objects.get(pk=new.pk).status == Table.Status.PLAYING
        tables.close_table(new.pk, "next trial")
    assert_no_errors(stack)
