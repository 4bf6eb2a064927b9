"""On the real server: rami undo, the suspension banner and the prestart seat list, desktop and phone.

    .venv/bin/python tools/dev/live_undo_and_suspension.py
Two daphne servers on free ports with scratch SQLite files: an embedded one (solo rami:
lay three tiles, Undo, the rack is back exactly as it was), and one on the Redis channel
layer (a private prefix) so a suspension applied from `manage.py shell` reaches the open
page: the turn banner gives the reason, the clock stops, every control is disabled.
Also the online table before the start (the seat list once). Screenshots: /tmp/shots/undo-*.png.
"""
import os
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from tests.browser.conftest import _free_port, _wait_for_port, register  # noqa: E402

shots = Path("/tmp/shots")
shots.mkdir(exist_ok=True)
failures = []


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name + ("" if cond else f"  {detail}"))
    if not cond:
        failures.append(name)


@contextmanager
def server(**extra):
    work = Path(tempfile.mkdtemp())
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}", OKEY_BOT_DELAY="0.3", OKEY_BOT_STEP_DELAY="0.1",
               PYTHONUNBUFFERED="1", DEBUG="1", **extra)
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    port = _free_port()
    log = open(work / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                             "okeysite.asgi:application"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)

    def shell(code):
        return subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                              check=True, capture_output=True, text=True).stdout.strip()
    try:
        _wait_for_port(port, proc)
        yield f"http://127.0.0.1:{port}", shell
    finally:
        proc.terminate()
        proc.wait(10)


def rack_slots(page):
    return page.eval_on_selector_all("#rack .slot", "els => els.map(s => { const t = s.querySelector('.tile'); "
                                                    "return t ? t.dataset.tile : null; })")


def rami_undo(browser, base, shell, viewport, tag):
    page = browser.new_page(viewport=viewport, has_touch=viewport["width"] < 600)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"u{tag}{int(time.time()) % 100000}"
    register(page, base, name)
    tid = shell("from django.contrib.auth import get_user_model; from games.play import tables; "
                f"u = get_user_model().objects.get(username='{name}'); "
                "print(tables.create_table(u, ruleset='rami', mode='solo', move_time=120).pk)").split()[-1]
    page.goto(f"{base}/table/{tid}/")
    expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=30000)
    before = rack_slots(page)
    tiles = [t for t in before if t][:3]
    for t in tiles:
        page.locator(f'#rack .tile[data-tile="{t}"]:not(.selected)').first.click()
    page.locator("#new-meld").click()
    expect(page.locator(".rami-meld .tile")).to_have_count(3)
    page.screenshot(path=str(shots / f"undo-rami-laid-{tag}.png"))
    page.locator("#undo-turn").click()
    after = rack_slots(page)
    check(f"rami undo restores the rack exactly ({tag})", after == before, f"{before} -> {after}")
    page.screenshot(path=str(shots / f"undo-rami-undo-{tag}.png"))
    check(f"no page errors ({tag})", not errors, errors)
    page.close()


def suspension(browser, base, shell, viewport, tag):
    page = browser.new_page(viewport=viewport, has_touch=viewport["width"] < 600)
    name = f"s{tag}{int(time.time()) % 100000}"
    register(page, base, name)
    tid = shell("from django.contrib.auth import get_user_model; from games.play import tables; "
                f"u = get_user_model().objects.get(username='{name}'); "
                "print(tables.create_table(u, ruleset='okey51', mode='online', move_time=60).pk)").split()[-1]
    page.goto(f"{base}/table/{tid}/")
    expect(page.locator("#turn-status")).to_have_text("Waiting for the match to start", timeout=15000)
    check(f"seat list once before the start ({tag})", page.locator("#opponents").is_hidden()
          and page.locator("#prestart-seats li").count() == 4)
    page.screenshot(path=str(shots / f"undo-prestart-{tag}.png"))
    shell("from django.contrib.auth import get_user_model; from accounts.moderation import sanction; "
          "from django.utils import timezone; from datetime import timedelta; "
          f"u = get_user_model().objects.get(username='{name}'); "
          "sanction(u, 'suspend', 'Insults in the chat', until=timezone.now() + timedelta(days=2))")
    expect(page.locator("#turn-status.blocked-banner")).to_contain_text("Insults in the chat", timeout=15000)
    check(f"blocked: every control disabled ({tag})",
          page.eval_on_selector_all("#table-app button, #table-app input, #prestart button",
                                    "els => els.filter(b => !b.disabled).length") == 0)
    check(f"blocked: clock empty ({tag})", page.locator("#clock").text_content() == "")
    page.screenshot(path=str(shots / f"undo-suspended-{tag}.png"))
    page.close()


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    with server() as (base, shell):
        rami_undo(browser, base, shell, DESKTOP, "dt")
        rami_undo(browser, base, shell, PHONE, "ph")
    with server(REDIS_URL="redis://127.0.0.1:6379/0",
                OKEY_CHANNEL_PREFIX=f"undo{uuid.uuid4().hex[:8]}") as (base, shell):
        suspension(browser, base, shell, DESKTOP, "dt")
        suspension(browser, base, shell, PHONE, "ph")
    browser.close()
print("FAILURES:", failures if failures else "none")
sys.exit(1 if failures else 0)
