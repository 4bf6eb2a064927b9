"""okey17 on the real server (RULES.md §4): a staged opening below the threshold stays on
the rack when the player discards, and a refused playable discard shows its penalty.

    .venv/bin/python tools/dev/live_okey17.py
Solo table on a throwaway SQLite database, seat 0 given a known rack and a run R3-R5 on the
table. Phone viewport. Screenshots /tmp/shots/o17-*.png. Dev tool, not a test.
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
# okey Y5 (indicator Y4)
RACK = ["K1", "K2", "K3", "R6", "B7", "B9", "Y11", "Y12", "K9", "B1", "R12", "R13", "K6", "B4"]


shell = make_shell(env)


def rack_tiles(page):
    return page.eval_on_selector_all("#rack .slot",
                                     "els => els.map(e => e.querySelector('.tile')?.dataset.tile || null)")


try:
    wait_until_up(base, server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        name = f"o17{int(time.time()) % 100000}"
        register(page, base, name)
        tid = shell("from django.contrib.auth import get_user_model; from games.play import tables; "
                    f"u = get_user_model().objects.get(username='{name}'); "
                    "print(tables.create_table(u, ruleset='okey17', mode='solo', move_time=120).pk)").split()[-1]
        time.sleep(1.0)
        shell("from games.models import Game; from django.utils import timezone; from datetime import timedelta; "
              f"g = Game.objects.get(table_id={tid}); p = g.position; "
              f"p['indicator'] = 'Y4'; p['turn'] = 0; p['phase'] = 'play'; p['seats'][0]['rack'] = {RACK!r}; "
              "p['seats'][1]['opened'] = 'melds'; p['highest_opening'] = 17; "
              "p['table'] = [{'id': 1, 'owner': 1, 'tiles': ['R3', 'R4', 'R5']}]; "
              "p['turn_state'] = {'took': None, 'opened': False, 'grown': [], 'jokers': []}; "
              "g.position = p; g.turn = 0; g.version += 1; g.deadline_kind = 'move'; "
              "g.deadline = timezone.now() + timedelta(seconds=120); g.save()")
        page.goto(f"{base}/table/{tid}/")
        page.wait_for_selector("#rack .tile")
        expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=10000)
        # K1 K2 K3 is staged on the rack (sorted runs); its 2 points are below the threshold
        staged = page.inner_text("#opening-info")
        check("staged opening shown below the threshold", "of 18" in staged or "of 17" in staged, staged)
        page.click('#rack .tile[data-tile="R6"]')
        page.click("#discard-btn")
        page.wait_for_selector("#error-box.shown")
        expect(page.locator("#error-box")).to_contain_text("100", timeout=8000)
        check("refused playable discard shows its penalty",
              "100" in page.inner_text("#error-box"), page.inner_text("#error-box"))
        check("R6 stays in the rack", "R6" in rack_tiles(page))
        check("own penalty shown", "100" in page.inner_text("#round-info"), page.inner_text("#round-info"))
        page.screenshot(path=str(shots / "o17-penalty.png"), full_page=True)
        page.click('#rack .tile[data-tile="R6"]')   # unselect
        page.click('#rack .tile[data-tile="B1"]')
        page.click("#discard-btn")
        expect(page.locator("#turn-status.my-turn")).to_have_count(0, timeout=8000)
        tiles = rack_tiles(page)
        check("the staged below-threshold opening stays on the rack after the discard",
              all(t in tiles for t in ("K1", "K2", "K3")) and "B1" not in tiles, tiles)
        page.screenshot(path=str(shots / "o17-after-discard.png"), full_page=True)
        check("no page errors", not errors, errors)
        browser.close()
finally:
    server.terminate()
    server.wait(timeout=10)
print("FAILED:" if failures else "all ok", ", ".join(failures))
sys.exit(1 if failures else 0)
