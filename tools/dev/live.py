"""Play solo tables on the real server through the table page, on a phone viewport.

    .venv/bin/python tools/dev/live.py [okey51|rami|okey17] [turns]
Starts migrate + daphne on a throwaway SQLite database (like tests/browser/conftest.py),
registers a player, creates a solo table, and plays: okey rulesets draw, open when the
rack's gap groups reach the threshold, add when a meld fits, discard; rami lays the
rack's valid groups as new melds when they make the initial meld, else draws.
Screenshots go to /tmp/shots/live-*.png. Dev tool, not a test.
"""
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from live_server import start_server, wait_until_up  # noqa: E402

from tests.browser.conftest import register  # noqa: E402

ruleset = sys.argv[1] if len(sys.argv) > 1 else "okey51"
max_turns = int(sys.argv[2]) if len(sys.argv) > 2 else 12
shots = Path("/tmp/shots")
shots.mkdir(exist_ok=True)
work = Path(tempfile.mkdtemp())
env, base, server, log = start_server(work)


def my_turn(page):
    return page.locator("#turn-status.my-turn").count() > 0


try:
    wait_until_up(base, server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        name = f"live{int(time.time()) % 100000}"
        register(page, base, name)
        page.goto(base + "/")
        if page.locator(f"select[name=ruleset] option[value='{ruleset}']").count():
            page.select_option("select[name=ruleset]", ruleset)
            page.check("input[name=mode][value=solo]")
            if page.locator("select[name=rounds] option[value='1']").count():
                page.select_option("select[name=rounds]", "1")
            page.select_option("select[name=move_time]", "60")
            page.locator("form.create-table button[type=submit]").click()
            page.wait_for_url(re.compile(r"/table/\d+/$"))
        else:   # the lobby does not offer it yet: create the solo table with the service
            code = ("from django.contrib.auth import get_user_model; from games.play import tables; "
                    f"u = get_user_model().objects.get(username='{name}'); "
                    f"print(tables.create_table(u, ruleset='{ruleset}', mode='solo', move_time=60).pk)")
            out = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                                 check=True, capture_output=True, text=True).stdout.split()[-1]
            page.goto(f"{base}/table/{out}/")
        page.wait_for_selector("#rack .tile", timeout=15000)
        page.screenshot(path=str(shots / f"live-{ruleset}-start.png"), full_page=True)
        turns = 0
        deadline = time.monotonic() + 240
        while turns < max_turns and time.monotonic() < deadline:
            if page.locator("#score-table:not([hidden])").count():
                break
            if not my_turn(page):
                page.wait_for_timeout(200)
                continue
            turns += 1
            if ruleset == "rami":
                page.click("#sort-runs")
                badges = page.locator("#rack .group-points")
                for i in range(badges.count()):
                    slot = badges.nth(i).locator("xpath=..")
                    first = int(slot.get_attribute("data-slot"))
                    # select the whole gap group: tiles from `first` until the next empty slot
                    j = first
                    while page.locator(f'#rack .slot[data-slot="{j}"] .tile').count():
                        page.locator(f'#rack .slot[data-slot="{j}"] .tile').click()
                        j += 1
                        if j % 13 == 0:
                            break
                if page.locator("#rack .tile.selected").count():
                    page.click("#new-meld")
                opened = page.locator("#opening-info").inner_text() == "" or page.locator("#opening-info .ok").count()
                if page.locator(".rami-meld.changed").count() and opened:
                    page.screenshot(path=str(shots / f"live-{ruleset}-arranged.png"), full_page=True)
                    page.click("#submit-play")
                    page.wait_for_timeout(700)
                    if page.locator("#error-box.shown").count():
                        print("refused:", page.inner_text("#error-box"))
                        page.click("#undo-turn")
                        page.click("#draw-btn")
                else:
                    page.click("#undo-turn")
                    page.click("#draw-btn")
                page.wait_for_timeout(400)
                continue
            tiles = page.locator("#rack .tile")
            if "draw" in page.inner_text("#turn-status").lower() or tiles.count() % 3 == 2 and False:
                page.click("#pile")
                page.wait_for_timeout(500)
            if page.locator(".melds-total.ok").count():
                page.click("#open-btn")
                page.wait_for_timeout(700)
                print("open:", page.inner_text("#error-box") or "accepted")
                page.screenshot(path=str(shots / f"live-{ruleset}-opened.png"), full_page=True)
            page.locator("#rack .tile").last.click()
            page.click("#discard-btn")
            page.wait_for_timeout(700)
            if page.locator("#error-box.shown").count():
                print("discard refused:", page.inner_text("#error-box"))
                page.locator("#rack .tile").first.click()
                page.click("#discard-btn")
                page.wait_for_timeout(500)
        page.screenshot(path=str(shots / f"live-{ruleset}-end.png"), full_page=True)
        print("turns played:", turns)
        for e in errors:
            print("page error:", e)
        browser.close()
finally:
    server.terminate()
    server.wait(timeout=10)
    log.close()
    print("server log:", work / "server.log")
