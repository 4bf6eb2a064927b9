"""Failed-login limits (accounts.login_limits) in the real shared cache, with real logins:
a guesser's address is refused, the owner on another address is not, the counts are the
same for every process, and the account-wide cool-down ends by itself."""
import http.client
import os
import secrets
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from urllib.parse import urlencode

import pytest
from allauth.core.internal import ratelimit
from django.core.cache import cache
from django.db import connection
from django.test import Client

from tests.accounts.conftest import CACHE_PREFIX
from tests.games import test_racing_two_servers

pytestmark = pytest.mark.django_db(transaction=True)

servers = test_racing_two_servers.servers  # two daphne processes on this run's PostgreSQL and Redis

ROOT = Path(__file__).resolve().parents[2]
TOO_MANY = "Too many failed login attempts"


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The limits, not the hashing, are under test: with the production hasher each failed
    # login costs about a second of CPU on a busy machine, and twenty of them could outlast
    # the one-minute window of the account-wide cool-down they must fill.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(django_user_model):
    """A user with an e-mail no other test (nor run) uses: the limits count per account."""
    name = f"owner{uuid.uuid4().hex[:10]}"
    return django_user_model.objects.create_user(name, f"{name}@example.com", "Right-password-42")


def login_as(named, password, address):
    """POST the login form from `address` with `named` (a user name or an e-mail) in its
    login field; returns (logged in?, page text)."""
    client = Client(REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"login": named, "password": password})
    return "_auth_user_id" in client.session, response.content.decode()


def login(user, password, address, by="email"):
    """`login_as` naming `user` by its `by` ("email" or "username")."""
    return login_as(getattr(user, by), password, address)


def test_a_guesser_is_refused_but_the_owner_logs_in_from_another_address(owner):
    for _ in range(5):
        assert not login(owner, "wrong-guess", "203.0.113.7")[0]
    ok, page = login(owner, "Right-password-42", "203.0.113.7")
    assert not ok and TOO_MANY in page  # the guesser's address, even with the right password
    assert login(owner, "Right-password-42", "198.51.100.20")[0]  # the owner's phone


def test_a_player_logs_in_with_their_user_name_or_their_email(owner):
    assert login(owner, "Right-password-42", "198.51.100.20", by="username")[0]
    assert login(owner, "Right-password-42", "198.51.100.20", by="email")[0]


def test_alternating_user_name_and_email_counts_against_the_one_account(owner):
    for n in range(5):
        assert not login(owner, "wrong-guess", "203.0.113.8", by=("username", "email")[n % 2])[0]
    for by in ("username", "email"):
        ok, page = login(owner, "Right-password-42", "203.0.113.8", by=by)
        assert not ok and TOO_MANY in page
    assert login(owner, "Right-password-42", "198.51.100.21", by="username")[0]  # the owner's phone


def test_a_second_email_address_counts_against_the_one_account(owner):
    from allauth.account.models import EmailAddress

    second = EmailAddress.objects.create(user=owner, email=f"second.{owner.email}", verified=False, primary=False)
    for n in range(5):
        address = (owner.email, second.email)[n % 2]
        assert not login_as(address, "wrong-guess", "203.0.113.11")[0]
    ok, page = login_as(second.email, "Right-password-42", "203.0.113.11")
    assert not ok and TOO_MANY in page


def test_a_user_name_written_like_an_email_counts_against_its_account(django_user_model):
    name = f"fan{uuid.uuid4().hex[:8]}@tiles.example"
    player = django_user_model.objects.create_user(name, f"{uuid.uuid4().hex[:10]}@example.com", "Right-password-42")
    for n in range(5):
        assert not login_as((player.username, player.email)[n % 2], "wrong-guess", "203.0.113.12")[0]
    for named in (player.username, player.email):
        ok, page = login_as(named, "Right-password-42", "203.0.113.12")
        assert not ok and TOO_MANY in page


def test_an_email_with_accented_capitals_counts_against_its_account(django_user_model):
    # allauth finds the account by the lower-cased address; SQLite (the embedded default)
    # folds only ASCII letters in a case-insensitive match, PostgreSQL all of them.
    player = django_user_model.objects.create_user(f"idn{uuid.uuid4().hex[:8]}", f"{uuid.uuid4().hex[:8]}@bé.example",
                                                   "Right-password-42")
    for n in range(5):
        assert not login_as((player.username, player.email.upper())[n % 2], "wrong-guess", "203.0.113.13")[0]
    ok, page = login_as(player.email.upper(), "Right-password-42", "203.0.113.13")
    assert not ok and TOO_MANY in page


def test_the_owners_own_logins_never_add_up(owner):
    for _ in range(12):
        assert login(owner, "Right-password-42", "198.51.100.20")[0]


def test_failures_counted_by_another_process_count_here(owner):
    # Three failures in a separate Python process (as another daphne would count them), two here:
    # with one shared cache the sixth attempt from that address is refused.
    code = (
        "from django.test import Client\n"
        "for _ in range(3):\n"
        f"    print(Client(REMOTE_ADDR='203.0.113.9').post('/accounts/login/', "
        f"{{'login': '{owner.email}', 'password': 'wrong'}}).status_code)\n"
    )
    env = dict(os.environ, OKEY_CHANNEL_PREFIX=CACHE_PREFIX, ALLOWED_HOSTS="testserver",
               DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{connection.settings_dict['NAME']}")
    if connection.vendor != "postgresql" or "REDIS_URL" not in os.environ:
        pytest.fail("this test needs the test run's PostgreSQL and Redis (make test)")
    done = subprocess.run([sys.executable, "manage.py", "shell", "-v", "0", "-c", code], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True)
    assert done.stdout.split() == ["200", "200", "200"], done.stderr  # the form again, with its error
    for _ in range(2):
        assert not login(owner, "wrong", "203.0.113.9")[0]
    ok, page = login(owner, "Right-password-42", "203.0.113.9")
    assert not ok and TOO_MANY in page


def account_history_key(owner):
    from django.test import RequestFactory

    request = RequestFactory().post("/accounts/login/")
    rate = ratelimit.parse_rates("20/m/key")[0]
    return ratelimit.get_cache_key(request, app="allauth.account", action="login_failed_account", rate=rate,
                                   key=f"user:{owner.pk}")


def test_a_guesser_on_many_addresses_gets_a_cool_down_that_ends_within_a_minute(owner):
    for n in range(20):
        assert not login(owner, "wrong", f"203.0.113.{n + 10}")[0]
    ok, page = login(owner, "Right-password-42", "198.51.100.20")
    assert not ok and TOO_MANY in page  # the account-wide cool-down
    # A minute later (the stored failure times, moved one minute back) the owner is in.
    key = account_history_key(owner)
    history = cache.get(key)
    assert len(history) == 20
    cache.set(key, [at - 61 for at in history], 120)
    assert login(owner, "Right-password-42", "198.51.100.20")[0]


@pytest.mark.parametrize("lang, address, wait", [
    ("en", "192.0.2.41", "Please wait a minute, then try again."),
    ("fr", "192.0.2.42", "Patientez une minute, puis réessayez."),
    ("es", "192.0.2.43", "Espere un minuto y vuelva a intentarlo."),
    ("tr", "192.0.2.44", "Lütfen bir dakika bekleyip yeniden deneyin."),
])
def test_too_many_logins_from_one_address_get_the_sites_own_page(lang, address, wait):
    # allauth's login view takes 30 posts a minute from an address ("login" rate), then
    # answers 429 with the template 429.html: the site's, in the player's language.
    client = Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=lang)
    for _ in range(30):
        assert client.post("/accounts/login/", {}).status_code == 200  # the form again: empty fields
    response = client.post("/accounts/login/", {})
    assert response.status_code == 429
    page = response.content.decode()
    assert wait in page
    assert 'class="site-nav"' in page and f'lang="{lang}"' in page  # the site's base template
    assert "Too Many Requests" not in page


@pytest.fixture
def embedded_cache(settings, tmp_path):
    """The embedded mode's cache (settings.EMBEDDED_CACHE), in a directory of this test's own."""
    settings.CACHES = {"default": dict(settings.EMBEDDED_CACHE, LOCATION=str(tmp_path / "cache"))}


def wrong_password_burst(user, address, size=12):
    """`size` wrong-password logins for `user` from `address` at the same moment, each in a
    thread of its own (as daphne serves requests); returns how many reached the password
    check (the others were refused by a limit)."""
    from django.db import connections

    start, pages = threading.Barrier(size), [""] * size

    def attempt(n):
        try:
            start.wait()
            pages[n] = login(user, "wrong-guess", address)[1]
        finally:
            connections.close_all()  # the thread's own connection, before the test database goes

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    checked = sum("is not correct" in page for page in pages)
    assert checked + sum(TOO_MANY in page for page in pages) == size
    return checked


def test_the_embedded_cache_grants_one_lock_to_simultaneous_callers(embedded_cache):
    # allauth's rate limits lock each counter with cache.add before reading and rewriting
    # it: of callers in threads of their own at the same moment, one only may get it.
    # (Django's own file cache granted it to several in about a third of the rounds.)
    for round_ in range(100):
        start, granted = threading.Barrier(12), []

        def take(key=f"lock-{round_}", start=start, granted=granted):
            start.wait()
            if cache.add(key, True, 10):
                granted.append(key)

        threads = [threading.Thread(target=take) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(granted) == 1, f"round {round_}: {len(granted)} callers got the lock"


def test_simultaneous_wrong_passwords_pass_at_most_the_limit_in_embedded_mode(embedded_cache, django_user_model):
    # A few bursts, each for an account of its own: at most the limit (5 per address and
    # account) of each reach the password check.
    for burst in range(3):
        name = f"burst{uuid.uuid4().hex[:10]}"
        user = django_user_model.objects.create_user(name, f"{name}@example.com", "Right-password-42")
        address = f"203.0.113.{60 + burst}"
        checked = wrong_password_burst(user, address)
        assert checked <= 5, f"burst {burst}: {checked} wrong passwords checked"
        # The count holds exactly the checked ones: an attempt refused because a counter
        # stayed locked too long counted nothing, so its place is still free.
        for _ in range(5 - checked):
            assert "is not correct" in login(user, "wrong-guess", address)[1]
        ok, page = login(user, "Right-password-42", address)
        assert not ok and TOO_MANY in page


def test_failures_count_once_whichever_process_or_host_name_answers(owner, settings):
    # Two daphne processes answer on two ports (Host "127.0.0.1:8000" and ":8001"), and a
    # site may allow several names: the count is the account's and the address's, the same
    # in the shared cache whichever host name the request carried.
    settings.ALLOWED_HOSTS = ["*"]
    hosts = ["127.0.0.1:8000", "127.0.0.1:8001"]
    for attempt in range(5):
        client = Client(REMOTE_ADDR="203.0.113.44", HTTP_HOST=hosts[attempt % 2])
        response = client.post("/accounts/login/", {"login": owner.email, "password": "wrong-guess"})
        assert TOO_MANY not in response.content.decode()
    for host in hosts:
        client = Client(REMOTE_ADDR="203.0.113.44", HTTP_HOST=host)
        response = client.post("/accounts/login/", {"login": owner.email, "password": "wrong-guess"})
        assert TOO_MANY in response.content.decode(), host


def login_over_http(port, named, password):
    """POST the login form to the daphne process on `port`, as a browser on that port does
    (its Host names the port, a CSRF token of its own, English). Returns the page's text."""
    token = secrets.token_hex(16)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", "/accounts/login/", body=urlencode({"login": named, "password": password}), headers={
            "Host": f"127.0.0.1:{port}", "Cookie": f"csrftoken={token}", "X-CSRFToken": token,
            "Accept-Language": "en", "Content-Type": "application/x-www-form-urlencoded"})
        response = conn.getresponse()
        return response.read().decode()
    finally:
        conn.close()


def test_wrong_passwords_alternating_between_two_daphne_processes_count_once(owner, servers):
    # The guesser's five wrong passwords (5/300s per address and account) alternate between
    # the two processes; the sixth is refused by either, and so is the right password.
    _, ports = servers
    for attempt in range(5):
        page = login_over_http(ports[attempt % 2], owner.email, "wrong-guess")
        assert "login" in page and TOO_MANY not in page
    for port in ports:
        assert TOO_MANY in login_over_http(port, owner.email, "wrong-guess"), port
    assert TOO_MANY in login_over_http(ports[0], owner.email, "Right-password-42")
