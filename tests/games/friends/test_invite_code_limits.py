"""Invite codes cannot be guessed at full speed: at most 10 wrong codes a minute are
checked per user and per client address, counted in the shared cache (every process
together), then every try — right or wrong — gets a 429 page in the visitor's language."""
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.play import tables

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]
LIMIT = 10


@pytest.fixture
def cache_prefix(settings):
    """Invite codes tried count in the shared cache (Redis in the test run): this test's
    counts are its own, under a key prefix no other test or run uses."""
    prefix = f"okeysite-test-{uuid.uuid4().hex}"
    caches = {name: dict(conf) for name, conf in settings.CACHES.items()}
    caches["default"]["KEY_PREFIX"] = prefix
    settings.CACHES = caches
    return prefix


@pytest.fixture(autouse=True)
def _own_counts(cache_prefix, settings):
    """Each test counts under its own prefix, and its slots outlive it: on a loaded host a
    test's twenty requests can take longer than the one-minute window, and slots freed
    mid-test read as a limit that does not hold. The test of the window sets its own."""
    settings.OKEY_INVITE_GUESS_WINDOW = 3600
    yield


def private_table(user):
    return tables.create_table(user, "okey51", {"rounds": 1}, mode="online", private=True)


def wrong_code(n):
    return f"WRONG{n:03d}"


def client(address, user=None, lang=None):
    made = Client(REMOTE_ADDR=address, **({"HTTP_ACCEPT_LANGUAGE": lang} if lang else {}))
    if user is not None:
        made.force_login(user)
    return made


def try_code(visitor, code):
    return visitor.get(reverse("table_invite", args=[code])).status_code


def test_the_eleventh_wrong_code_of_a_minute_is_refused_even_when_right(alice, carol):
    table = private_table(alice)
    guesser = client("203.0.113.40", carol)
    answers = [try_code(guesser, wrong_code(n)) for n in range(50)]
    assert answers[:LIMIT] == [302] * LIMIT  # "No such table." in the lobby
    assert answers[LIMIT:] == [429] * (50 - LIMIT)
    assert try_code(guesser, table.invite_code) == 429  # the answer tells nothing about the code
    assert guesser.get(reverse("table", args=[table.pk])).status_code == 404
    assert not table.seats.filter(user=carol).exists()


def test_the_limit_holds_per_user_and_per_address(alice, bob, carol):
    table = private_table(alice)
    for n in range(LIMIT):
        assert try_code(client("203.0.113.41", carol), wrong_code(n)) == 302
    # carol from another address, and anyone from carol's address, is refused
    assert try_code(client("198.51.100.41", carol), wrong_code(99)) == 429
    assert try_code(client("203.0.113.41", bob), table.invite_code) == 429
    assert try_code(client("203.0.113.41"), wrong_code(98)) == 429
    # bob elsewhere is not
    assert try_code(client("198.51.100.42", bob), table.invite_code) == 302


def test_a_right_code_gives_its_attempt_back(alice, bob):
    table = private_table(alice)
    friend = client("203.0.113.42", bob)
    for _ in range(3 * LIMIT):
        assert friend.get(reverse("table_invite", args=[table.invite_code]))["Location"] == reverse(
            "table", args=[table.pk])
    for n in range(LIMIT):
        assert try_code(friend, wrong_code(n)) == 302
    assert try_code(friend, wrong_code(LIMIT)) == 429


def test_codes_in_a_tables_address_count_alike_for_missing_and_private_tables(alice, carol):
    table = private_table(alice)
    missing = table.pk + 1000
    guesser = client("203.0.113.43", carol)
    answers = [guesser.get(reverse("table", args=[(table.pk, missing)[n % 2]]), {"invite": wrong_code(n)}).status_code
               for n in range(2 * LIMIT)]
    assert answers == [404] * LIMIT + [429] * LIMIT
    for name in ("match", "replay", "table"):
        for pk in (table.pk, missing):
            assert guesser.get(reverse(name, args=[pk]), {"invite": table.invite_code}).status_code == 429
    # without a code nothing is tried: the missing and the private table are a plain 404
    assert [guesser.get(reverse("table", args=[pk])).status_code for pk in (table.pk, missing)] == [404, 404]
    # the lobby's code form leads to the same limit
    assert guesser.get(reverse("invite_code"), {"code": "ABCD2345"}, follow=True).status_code == 429


@pytest.mark.parametrize("lang, words", [
    ("fr", "Trop de requêtes sont venues de votre connexion"),
    ("es", "Han llegado demasiadas solicitudes desde su conexión"),
    ("tr", "Bağlantınızdan kısa sürede çok fazla istek geldi"),
    ("en", "Too many requests came from your connection"),
])
def test_the_429_page_speaks_the_players_language(carol, lang, words):
    guesser = client("203.0.113.44", carol, lang=lang)
    for n in range(LIMIT):
        try_code(guesser, wrong_code(n))
    response = guesser.get(reverse("table_invite", args=[wrong_code(LIMIT)]))
    assert response.status_code == 429
    assert words in response.content.decode()


def test_racing_guesses_get_no_more_than_the_limit(carol):
    answers = []
    start = threading.Barrier(40)

    def guess(n):
        try:
            visitor = client("203.0.113.45", carol)
            start.wait()
            answers.append(try_code(visitor, wrong_code(n)))
        finally:
            connection.close()

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [302] * LIMIT + [429] * (40 - LIMIT)


def test_wrong_codes_tried_in_another_process_count_here(carol, cache_prefix):
    # Six wrong codes in a separate Python process (as another daphne would count them),
    # four here: one shared count, the eleventh is refused.
    script = (
        "from django.test import Client\n"
        "for n in range(6):\n"
        "    print(Client(REMOTE_ADDR='203.0.113.46').get('/invite/OTHER{:03d}/'.format(n)).status_code)\n"
    )
    if connection.vendor != "postgresql" or "REDIS_URL" not in os.environ:
        pytest.fail("this test needs the test run's PostgreSQL and Redis")
    env = dict(os.environ, OKEY_CHANNEL_PREFIX=cache_prefix, ALLOWED_HOSTS="testserver",
               DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}")
    done = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", script], cwd=ROOT, env=env,
                          check=True, capture_output=True, text=True)
    assert done.stdout.split() == ["302"] * 6, done.stderr
    here = client("203.0.113.46")
    assert [try_code(here, wrong_code(n)) for n in range(5)] == [302] * 4 + [429]


def test_the_attempts_come_back_after_the_window(settings, carol):
    settings.OKEY_INVITE_GUESS_WINDOW = 1
    guesser = client("203.0.113.47", carol)
    assert [try_code(guesser, wrong_code(n)) for n in range(LIMIT + 1)] == [302] * LIMIT + [429]
    time.sleep(2.1)  # the slots' lifetime in the cache is whole seconds
    assert try_code(guesser, wrong_code(99)) == 302
