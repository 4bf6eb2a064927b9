"""Browser tests: the real server (daphne, embedded mode) in a subprocess, driven by
Debian's headless chromium through Playwright (ARCHITECTURE.md, known traps).

The server runs the README's embedded default — SQLite, in-memory channel layer and the
Celery worker inside the process — with short computer delays so a round ends quickly.
Screenshots go to ``test-artifacts/``.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bench.stack import DAPHNE_OPTIONS

# An `expect` waits up to 15 s by default, not Playwright's 5: each one returns as soon as what
# it checks holds, so only a slow answer waits longer, and a CI host under load has taken
# over 5 s to answer a move or to draw a snapshot.
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(session, config, items):
    """Browser tests run last (they are the slowest) and are marked ``browser``.

    Playwright's sync API runs an event loop in the test thread while a browser is open,
    so the browser fixture is module-scoped and nothing async runs after these tests.
    """
    for item in items:
        if Path(item.path).resolve().is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("server did not start")


def base_env(**overrides: str) -> dict:
    """The test process's environment without its database/broker settings, plus overrides:
    short computer delays so a round ends quickly, and a long pause before the next round
    (no test plays past one round) so that the score table stays up while the test looks
    for it: with the fast rami bots and a 1 s pause a loaded machine could miss it. The
    seeding window is long enough for a loaded machine to show the commitment before the
    deal; the table's browser sends its seed within 1.5 s, which deals at once."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(OKEY_BOT_DELAY="0.05", OKEY_BOT_STEP_DELAY="0.02", OKEY_NEXT_ROUND_DELAY="15",
               OKEY_SEED_WINDOW="10", OKEY_RULESETS="okey51,okey17,rami", PYTHONUNBUFFERED="1")
    env.update(overrides)
    return env


_MIGRATED = {}  # {root: a SQLite database migrated once in this test process}


def _migrate(env: dict, root: Path) -> None:
    """Bring the database of ``env`` (DATABASE_URL) to the latest migration. A SQLite file not
    there yet is a copy of one migrated once per test process (`migrate` cost 5-8 s of CPU
    per server started, and no migration reads the environment); any other database is
    migrated in place."""
    url = env.get("DATABASE_URL", "")
    target = Path(root) / url[len("sqlite:///"):] if url.startswith("sqlite:///") else None
    if target is None or target.exists():
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=root, env=env, check=True,
                       stdout=subprocess.DEVNULL)
        return
    if root not in _MIGRATED:
        folder = Path(tempfile.mkdtemp(prefix="okeysite-migrated-"))
        atexit.register(shutil.rmtree, folder, True)
        _MIGRATED[root] = folder / "db.sqlite3"
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=root, check=True,
                       env={**env, "DATABASE_URL": f"sqlite:///{_MIGRATED[root]}"}, stdout=subprocess.DEVNULL)
    # the backup API copies a database in WAL mode whole, whatever is left in its -wal file
    with contextlib.closing(sqlite3.connect(_MIGRATED[root])) as source, \
            contextlib.closing(sqlite3.connect(target)) as copy:
        source.backup(copy)


@contextlib.contextmanager
def serve(workdir: Path, env: dict, name: str = "server", worker: bool = False, root: Path = ROOT):
    """Migrate, start daphne with the deployed options (bench.stack.DAPHNE_OPTIONS) and, with
    ``worker``, a separate ``celery worker -B``; yield the URL.

    Logs are copied to test-artifacts/<name>*.log afterwards. Unless ``env`` names an
    OKEY_STATIC_ROOT, the server's is an empty folder of its own: it serves the source files
    (a manifest left by `make run` in staticfiles/ would name older copies).
    """
    if "OKEY_STATIC_ROOT" not in env:
        (workdir / "static").mkdir(exist_ok=True)
        env = {**env, "OKEY_STATIC_ROOT": str(workdir / "static")}
    _migrate(env, root)
    port = _free_port()
    commands = {name: [sys.executable, "-m", "daphne", *DAPHNE_OPTIONS,
                       "-b", "127.0.0.1", "-p", str(port), "okeysite.asgi:application"]}
    if worker:
        commands[f"{name}-worker"] = [sys.executable, "-m", "celery", "-A", "okeysite", "worker", "-B",
                                      "--pool", "solo", "--loglevel", "INFO",
                                      "--schedule", str(workdir / "celerybeat-schedule")]
    procs = {}
    try:
        for label, command in commands.items():
            log = open(workdir / f"{label}.log", "wb")
            procs[label] = (subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT), log)
        _wait_for_port(port, procs[name][0])
        yield f"http://127.0.0.1:{port}"
    finally:
        for label, (proc, log) in procs.items():
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
            log.close()
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"{label}.log").write_bytes((workdir / f"{label}.log").read_bytes())


PG = "postgres://postgres@127.0.0.1:5432"


@contextlib.contextmanager
def scaled_site(workdir: Path, label: str, **overrides: str):
    """The README's scaled set-up on this machine: a PostgreSQL database of its own (made,
    then dropped with its connections), the Redis layer and broker under a channel prefix of
    its own, daphne and a separate worker (`serve`), console e-mail and daphne serving the
    static files (no SMTP server or web server here). `overrides` go to the environment;
    yields the URL."""
    import uuid

    import psycopg

    name = f"okeysite_{label}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = base_env(DATABASE_URL=f"{PG}/{name}", REDIS_URL="redis://127.0.0.1:6379/0", OKEY_CHANNEL_PREFIX=name,
                   EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend", OKEY_SERVE_STATIC="1")
    env.update(overrides)
    try:
        with serve(workdir, env, name=label, worker=True) as url:
            yield url
    finally:
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# How far the page scrolls sideways, and the height of each visible element of `selector`.
_MEASURE = """(selector) => ({
  sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  heights: [...document.querySelectorAll(selector)].filter((e) => e.offsetParent !== null)
    .map((e) => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect().height]),
})"""


def assert_fits(page, selector: str) -> None:
    """The page does not scroll sideways, and every visible element of `selector` (there is
    at least one) is at least 44 px high: a finger's tap target."""
    found = page.evaluate(_MEASURE, selector)
    assert found["sideways"] <= 0, f"{page.url} scrolls sideways by {found['sideways']} px"
    assert found["heights"], f"no {selector} on {page.url}"
    small = [(text, h) for text, h in found["heights"] if h < 44]
    assert not small, f"tap targets under 44 px on {page.url}: {small}"


@pytest.fixture(scope="session")
def live_server_url(tmp_path_factory):
    """The README's embedded default (SQLite, in-memory layer, worker in the server) on a
    fresh database; yields the base URL."""
    workdir = tmp_path_factory.mktemp("server")
    with serve(workdir, base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}")) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    yield page
    context.close()


# The last table version the page's socket applied (docs/protocol.md §1), or -1 before any.
_TABLE_VERSION = "() => (window.okeyTable && window.okeyTable.socket) ? window.okeyTable.socket.version : -1"


# The error line showing why a move did not go through: the server's refusal or the client's
# own hint (sending an action clears it).
REFUSAL = "#error-box.shown"


def table_version(page) -> int:
    """The version of the last snapshot the table page applied (-1 before the first)."""
    return page.evaluate(_TABLE_VERSION)


def wait_for_answer(page, before: int, timeout_ms: int = 30_000) -> None:
    """Wait until the table page applies a version after `before` (the server answered the
    move just sent and the page drew it) or shows a refusal (REFUSAL). What is awaited is
    the answer, not a turn-line change: on a slow host the computers can play and hand the
    turn back before a poll of the turn line sees it leave. Raises AssertionError with the turn
    line when neither comes within `timeout_ms` (milliseconds)."""
    try:
        page.wait_for_function(
            f"(before) => ({_TABLE_VERSION})() > before"
            f" || !!document.querySelector('{REFUSAL}')",
            arg=before, timeout=timeout_ms)
    except Exception as error:
        shot(page, "move-not-answered")
        status = page.locator("#turn-status").inner_text()
        raise AssertionError(f"the move was not answered after version {before}: status {status!r}") from error


def shot(page, name: str) -> Path:
    """Save a full-page screenshot as test-artifacts/<name>.png and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def register(page, base_url: str, name: str, password: str = "tiles-and-racks-42", email: str | None = None) -> None:
    """Sign up through allauth's form (e-mail `<name>@example.com` unless `email` is given);
    leaves the browser logged in."""
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=email]", email or f"{name}@example.com")
    if page.locator("input[name=username]").count():
        page.fill("input[name=username]", name)
    page.fill("input[name=password1]", password)
    if page.locator("input[name=password2]").count():
        page.fill("input[name=password2]", password)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_load_state("networkidle")
    # a refused sign-up (a form error, a rate limit) stays on the form: say so here, not
    # later as a missing button of a logged-in page
    assert "/accounts/signup/" not in page.url, f"sign-up of {name} refused: {page.inner_text('body')[:300]}"


def play_now_together(base_url: str, named_pages, ruleset: str = "okey51") -> str:
    """Sign up each (page, name) of `named_pages`, then press Play now for `ruleset` on each
    page in turn; returns the table's URL, the same for all (Play now shares one table)."""
    for page, name in named_pages:
        register(page, base_url, name)
        page.goto(base_url + "/")
    for page, _name in named_pages:
        page.click(f"#play-now button[data-ruleset={ruleset}]")
        page.wait_for_url(re.compile(r"/table/\d+/$"))
    assert len({page.url for page, _name in named_pages}) == 1, [page.url for page, _name in named_pages]
    return named_pages[0][0].url


def seat_online_guest(host, guest, guest_name: str, base_url: str, move_time: str | None = None,
                      timeout: int = 30_000) -> int:
    """`host` creates an online okey51 table of one round (with `move_time`, seconds as the
    form's option, when given), `guest` (signed in as `guest_name`) joins it from the lobby,
    and the host's page shows them, before the start. Returns the table id."""

    host.goto(base_url + "/")
    host.select_option("select[name=ruleset]", "okey51")
    host.check("input[name=mode][value=online]")
    host.select_option("select[name=rounds]", "1")
    if move_time is not None:
        host.select_option("select[name=move_time]", move_time)
    host.locator("form.create-table button[type=submit]").click()
    host.wait_for_url(re.compile(r"/table/\d+/$"))
    table_id = int(re.search(r"/table/(\d+)/", host.url).group(1))
    guest.goto(base_url + "/")
    guest.locator(f"form[action='/table/{table_id}/join/'] button").click()
    guest.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    expect(host.locator("#prestart-seats")).to_contain_text(guest_name, timeout=timeout)
    return table_id


def start_online_match(host, guest, guest_name: str, base_url: str, move_time: str, timeout: int = 30_000) -> int:
    """`seat_online_guest`, then `host` starts the match. Waits (at most `timeout` ms a
    step) until both racks show. Returns the table id."""

    table_id = seat_online_guest(host, guest, guest_name, base_url, move_time, timeout)
    host.click("#start-btn")
    for page in (host, guest):
        expect(page.locator("#rack .tile").first).to_be_visible(timeout=timeout)
    return table_id
