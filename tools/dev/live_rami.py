"""On the real server: rami's initial meld with a joker, then (next turn) rearranging the
table — the rami flows of the table page against the real engine.

    .venv/bin/python tools/dev/live_rami.py
Creates a solo rami table, then (dev only!) rewrites seat 0's rack and the table in the
stored position, and plays through the page on a phone viewport.
Screenshots in /tmp/shots/rami-*.png.
"""
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from live_server import check, failures, make_shell, start_server, wait_until_up  # noqa: E402

from tests.browser.conftest import register  # noqa: E402

shots = Path("/tmp/shots")
shots.mkdir(exist_ok=True)
work = Path(tempfile.mkdtemp())
env, base, server, log = start_server(work)

RACK = ["R10", "R11", "R12", "K4", "B4", "Y4", "J", "B7", "K9", "Y1", "K13", "R2", "Y9", "K6"]
TABLE = [["B8", "B9", "B10"], ["Y5", "Y6", "Y7"]]


shell = make_shell(env)




def select(page, *tiles):
    for t in tiles:
        page.locator(f'#rack .tile[data-tile="{t}"]:not(.selected)').first.click()


try:
    wait_until_up(base, server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        name = f"ra{int(time.time()) % 100000}"
        register(page, base, name)
        tid = shell("from django.contrib.auth import get_user_model; from games.play import tables; "
                    f"u = get_user_model().objects.get(username='{name}'); "
                    "print(tables.create_table(u, ruleset='rami', mode='solo', move_time=120).pk)").split()[-1]
        time.sleep(1.0)
        shell("from games.models import Game; from django.utils import timezone; from datetime import timedelta; "
              f"g = Game.objects.get(table_id={tid}); p = g.position; "
              f"p['turn'] = 0; p['seats'][0]['rack'] = {RACK!r}; p['table'] = {TABLE!r}; "
              "p['turn_state'] = {'passes': 0}; "
              "g.position = p; g.turn = 0; g.version += 1; g.deadline_kind = 'move'; "
              "g.deadline = timezone.now() + timedelta(seconds=120); g.save()")
        page.goto(f"{base}/table/{tid}/")
        page.wait_for_selector("#rack .tile")
        expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=10000)
        # the initial meld may not touch the table: a 25-point try is refused with a reason
        select(page, "K4", "B4", "Y4")
        page.click("#new-meld")
        check("initial meld total shown",
              "12 of 30" in page.inner_text("#opening-info"), page.inner_text("#opening-info"))
        page.click("#submit-play")
        page.wait_for_timeout(800)
        check("below 30 is refused with a reason", page.locator("#error-box.shown").count() == 1)
        print("refusal:", page.inner_text("#error-box"))
        select(page, "R10", "R11", "R12", "J")
        page.click("#new-meld")
        check("initial meld now 12 + 46",
              "58 of 30" in page.inner_text("#opening-info"), page.inner_text("#opening-info"))
        page.screenshot(path=str(shots / "rami-arranged.png"), full_page=True)
        page.click("#submit-play")
        expect(page.locator("#turn-status.my-turn")).to_have_count(0, timeout=10000)
        check("initial meld with a joker accepted",
              page.locator('.rami-meld:not(.changed) .tile[data-tile="J=R13"], '
                           '.rami-meld:not(.changed) .tile[data-tile="J=R9"]').count() == 1,
              page.inner_text("#error-box"))
        # our next turn: put B7 on the B8-B10 run (tap, undo, then drag)
        expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=60000)
        run = page.locator('.rami-meld:has(.tile[data-tile="B8"])')
        select(page, "B7")
        run.click()
        check("B7 moved onto the run locally", page.locator('.rami-meld.changed .tile[data-tile="B7"]').count() == 1)
        page.click("#undo-turn")
        check("undo puts B7 back", page.locator('#rack .tile[data-tile="B7"]').count() == 1)
        page.locator('#rack .tile[data-tile="B7"]').drag_to(page.locator('.rami-meld:has(.tile[data-tile="B8"])'))
        page.wait_for_timeout(300)
        check("drag B7 onto the run", page.locator('.rami-meld .tile[data-tile="B7"]').count() == 1)
        page.click("#submit-play")
        expect(page.locator("#turn-status.my-turn")).to_have_count(0, timeout=10000)
        check("rearranged table accepted", page.locator('.rami-meld:not(.changed) .tile[data-tile="B7"]').count() == 1,
              page.inner_text("#error-box"))
        page.screenshot(path=str(shots / "rami-after.png"), full_page=True)
        check("no page errors", not errors, errors)
        browser.close()
finally:
    server.terminate()
    server.wait(timeout=10)
    log.close()
    print("server log:", work / "server.log")
sys.exit(1 if failures else 0)
