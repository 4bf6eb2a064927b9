"""On the real server: take the previous discard into an opening, add a tile and a wild,
discard — the okey51 flows of the table page against the real engine.

    .venv/bin/python tools/dev/live_open.py
Creates a solo okey51 table, then (dev only!) rewrites seat 0's rack and the previous
seat's discard pile in the stored position so the flows are possible, and plays them
through the page on a phone viewport. Screenshots in /tmp/shots/open-*.png.
"""
import os
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

# Y5 = okey (indicator Y4)
RACK = ["R10", "R11", "R12", "K13", "B13", "Y13", "R1", "Y5", "B2", "K6", "Y8", "B11", "K3", "R4"]


shell = make_shell(env)




try:
    wait_until_up(base, server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        name = f"op{int(time.time()) % 100000}"
        register(page, base, name)
        if os.environ.get("LIVE_LANG"):       # e.g. LIVE_LANG=fr to look at a translated table
            page.goto(base + "/")
            page.select_option("#lang-select", os.environ["LIVE_LANG"])
            page.wait_for_load_state("networkidle")
        tid = shell("from django.contrib.auth import get_user_model; from games.play import tables; "
                    f"u = get_user_model().objects.get(username='{name}'); "
                    "print(tables.create_table(u, ruleset='okey51', mode='solo', move_time=120).pk)").split()[-1]
        time.sleep(1.0)
        shell("from games.models import Game; from django.utils import timezone; from datetime import timedelta; "
              f"g = Game.objects.get(table_id={tid}); p = g.position; "
              f"p['indicator'] = 'Y4'; p['turn'] = 0; p['phase'] = 'draw'; p['seats'][0]['rack'] = {RACK!r}; "
              "p['discards'][3] = ['R13']; p['turn_state'] = {'took': None, 'opened': False}; "
              "g.position = p; g.turn = 0; g.version += 1; g.deadline_kind = 'move'; "
              "g.deadline = timezone.now() + timedelta(seconds=120); g.save()")
        page.goto(f"{base}/table/{tid}/")
        page.wait_for_selector("#rack .tile")
        expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=10000)
        page.click("#take-discard")
        check("taken discard in the rack", page.locator('#rack .tile.taken[data-tile="R13"]').count() == 1)
        # put R13 right after R12: find R12's slot and the slot after it
        slot12 = int(page.locator('#rack .tile[data-tile="R12"]').locator("xpath=..").get_attribute("data-slot"))
        after = slot12 + 1
        check("the slot after R12 is a gap", page.locator(f'#rack .slot[data-slot="{after}"] .tile').count() == 0)
        check("the taken tile is selected", page.locator('#rack .tile.taken.selected').count() == 1)
        page.click('#rack .tile.taken')                       # unselect; first make room after R12
        for k, t in enumerate(("K13", "B13", "Y13")):           # move the 13s group to the second row's end
            page.click(f'#rack .tile[data-tile="{t}"]')
            page.click(f'#rack .slot[data-slot="{23 + k}"]')
        page.click('#rack .tile.taken')
        page.click(f'#rack .slot[data-slot="{after}"]')
        page.screenshot(path=str(shots / f"open-arranged{os.environ.get('LIVE_LANG', '')}.png"), full_page=True)
        print("info:", page.inner_text("#opening-info"))
        page.click("#open-btn")
        page.wait_for_timeout(1000)
        check("opening with the taken discard accepted", page.locator(".meld[data-meld-id]").count() >= 2,
              page.inner_text("#error-box"))
        page.click('#rack .tile[data-tile="R1"]')
        run_id = page.locator('.meld:has(.tile[data-tile="R10"])').get_attribute("data-meld-id")
        page.click(f'.meld[data-meld-id="{run_id}"]')
        page.wait_for_timeout(800)
        check("add R1 after R13 (okey51)",
              page.locator(f'.meld[data-meld-id="{run_id}"] .tile[data-tile="R1"]').count() == 1,
              page.inner_text("#error-box"))
        page.click('#rack .tile[data-tile="Y5"]')
        grp = page.locator('.meld:has(.tile[data-tile="K13"])').get_attribute("data-meld-id")
        page.click(f'.meld[data-meld-id="{grp}"]')
        page.wait_for_timeout(800)
        check("add the okey to the group as R13",
              page.locator(f'.meld[data-meld-id="{grp}"] .tile[data-tile="Y5=R13"]').count() == 1,
              page.inner_text("#error-box"))
        page.click("#pile")
        page.wait_for_timeout(500)
        check("drawing after taking is refused with a reason", page.locator("#error-box.shown").count() == 1)
        print("refusal:", page.inner_text("#error-box"))
        page.locator('#rack .tile[data-tile="K6"]').click()
        page.click("#discard-btn")
        page.wait_for_timeout(800)
        check("discard ends the turn", page.locator("#turn-status.my-turn").count() == 0, page.inner_text("#error-box"))
        page.screenshot(path=str(shots / f"open-after{os.environ.get('LIVE_LANG', '')}.png"), full_page=True)
        page.click("#chat summary")
        page.fill("#chat-input", "iyi oyunlar")
        page.press("#chat-input", "Enter")
        page.wait_for_timeout(800)
        check("chat line comes back from the server", "iyi oyunlar" in page.inner_text("#chat-lines"),
              page.inner_text("#chat-status"))
        check("no page errors", not errors, errors)
        browser.close()
finally:
    server.terminate()
    server.wait(timeout=10)
    log.close()
    print("server log:", work / "server.log")
sys.exit(1 if failures else 0)
