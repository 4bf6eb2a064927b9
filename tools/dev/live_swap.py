"""Swap versus add on the real server: with okey Y9, a meld Y6 · okey-as-Y7 · Y8 and Y7 in the
rack, the meld lights as a swap and a tap sends `swap` (accepted); Y5 lights as an add.

    .venv/bin/python tools/dev/live_swap.py
Solo okey51 table on a throwaway SQLite database, desktop viewport, assisted.
Screenshot /tmp/shots/swap-*.png. Dev tool, not a test.
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
RACK = ["Y7", "Y5", "K2", "B10", "R4"]


shell = make_shell(env)


try:
    wait_until_up(base, server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        frames = []
        page.on("websocket",
                lambda ws: ws.on("framesent", lambda f: frames.append(f if isinstance(f, str) else str(f))))
        name = f"sw{int(time.time()) % 100000}"
        register(page, base, name)
        tid = shell("from django.contrib.auth import get_user_model; from games.play import tables; "
                    f"u = get_user_model().objects.get(username='{name}'); "
                    "print(tables.create_table(u, ruleset='okey51', mode='solo', "
                    "move_time=120, assisted=True).pk)").split()[-1]
        time.sleep(1.0)
        shell("from games.models import Game; from django.utils import timezone; from datetime import timedelta; "
              f"g = Game.objects.get(table_id={tid}); p = g.position; "
              f"p['indicator'] = 'Y8'; p['turn'] = 0; p['phase'] = 'play'; p['seats'][0]['rack'] = {RACK!r}; "
              "p['seats'][0]['opened'] = 'melds'; p['seats'][1]['opened'] = 'melds'; p['highest_opening'] = 60; "
              "p['table'] = [{'id': 1, 'owner': 1, 'tiles': ['Y6', 'Y9=Y7', 'Y8']}, "
              "{'id': 2, 'owner': 0, 'tiles': ['R1', 'R2', 'R3']}]; "
              "p['turn_state'] = {'took': None, 'opened': False}; "
              "g.position = p; g.turn = 0; g.version += 1; g.deadline_kind = 'move'; "
              "g.deadline = timezone.now() + timedelta(seconds=120); g.save()")
        page.goto(f"{base}/table/{tid}/")
        page.wait_for_selector("#rack .tile")
        expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=10000)
        page.click('#rack .tile[data-tile="Y7"]')
        check("the meld lights as a swap for Y7", page.locator('.meld.fits-swap[data-meld-id="1"]').count() == 1
              and page.locator(".meld.fits").count() == 0)
        page.screenshot(path=str(shots / "swap-lit.png"))
        page.click('.meld[data-meld-id="1"]')
        expect(page.locator('#rack .tile[data-tile="Y9"]')).to_have_count(1, timeout=8000)
        sent = [f for f in frames if '"action"' in f]
        check("a swap was sent, not an add", sent and '"swap"' in sent[-1] and '"add"' not in sent[-1], sent[-1:])
        check("the okey came back to the rack", page.locator('#rack .tile[data-tile="Y9"]').count() == 1)
        page.click('#rack .tile[data-tile="R4"]')
        check("R4 lights the run R1-R3 as an add", page.locator('.meld.fits[data-meld-id="2"]').count() == 1)
        page.click('.meld[data-meld-id="2"]')
        expect(page.locator('#rack .tile[data-tile="R4"]')).to_have_count(0, timeout=8000)
        sent = [f for f in frames if '"action"' in f]
        check("an add was sent for R4", '"add"' in sent[-1], sent[-1:])
        page.screenshot(path=str(shots / "swap-after.png"))
        check("no page errors", not errors, errors)
        browser.close()
finally:
    server.terminate()
    server.wait(timeout=10)
print("FAILED:" if failures else "all ok", ", ".join(failures))
sys.exit(1 if failures else 0)
