"""A whole solo round of each ruleset through the table page on the real server, on a phone
(390x844, touch) and a desktop (1366x800), with screenshots to compare before and after a
change of the client.

    .venv/bin/python tools/dev/live_solo_rounds.py [okey51 okey17 rami] [--out DIR]
Starts daphne in embedded mode on a scratch SQLite database (live_server.py), registers a
player per viewport and ruleset, creates the solo table from the lobby and plays every turn:
okey rulesets sort the rack, draw, open when the gap groups reach the threshold, and discard
(trying the next tile when okey17 refuses a playable discard); rami lays the valid gap groups
once they make the initial meld, else draws. Screenshots: DIR/solo-<ruleset>-<viewport>-
{start,mid,scores}.png (DIR defaults to /tmp/shots). Prints one line per check and the page
errors. Dev tool, not a test.
"""
import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from live_server import check, failures, start_server, wait_until_up  # noqa: E402

from tests.browser.conftest import register  # noqa: E402

VIEWPORTS = {"phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
             "desktop": {"viewport": {"width": 1366, "height": 800}}}
ROUND_SECONDS = 300
SCORES_SHOWN = "() => { const s = document.querySelector('#score-table'); return !!(s && s.offsetParent); }"

args = argparse.ArgumentParser()
args.add_argument("rulesets", nargs="*", default=["okey51", "okey17", "rami"])
args.add_argument("--out", default="/tmp/shots")
opts = args.parse_args()
shots = Path(opts.out)
shots.mkdir(parents=True, exist_ok=True)


def press(page, selector, touch):
    """Tap on a touch phone, click on a desktop."""
    target = page.locator(selector).first
    target.tap() if touch else target.click()


def turn_over(page, timeout_ms):
    try:
        page.wait_for_function("() => !document.querySelector('#turn-status.my-turn') || (" + SCORES_SHOWN + ")()",
                               timeout=timeout_ms)
        return True
    except Exception:  # noqa: BLE001 - a refused move keeps the turn
        return False


def okey_turn(page, touch):
    tiles = page.locator("#rack .tile")
    if page.locator("#pile.can").count():
        before = tiles.count()
        press(page, "#pile", touch)
        expect(tiles).to_have_count(before + 1, timeout=10_000)
    if page.locator(".melds-total.ok").count():
        press(page, "#open-btn", touch)
        page.wait_for_timeout(600)
    for index in range(tiles.count() - 1, -1, -1):
        tile = tiles.nth(index)
        tile.tap() if touch else tile.click()
        press(page, "#discard-btn", touch)
        if turn_over(page, 1_500):
            return
        if "selected" in (tile.get_attribute("class") or ""):
            tile.tap() if touch else tile.click()
    raise AssertionError("no discard was accepted")


def rami_turn(page, touch):
    press(page, "#sort-runs", touch)
    for badge in range(page.locator("#rack .group-points").count()):
        first = int(page.locator("#rack .group-points").nth(badge).locator("xpath=..").get_attribute("data-slot"))
        slot = first
        while page.locator(f'#rack .slot[data-slot="{slot}"] .tile').count():
            press(page, f'#rack .slot[data-slot="{slot}"] .tile', touch)
            slot += 1
            if slot % 13 == 0:
                break
    if page.locator("#rack .tile.selected").count():
        press(page, "#new-meld", touch)
    opened = page.locator("#opening-info").inner_text() == "" or page.locator("#opening-info .ok").count()
    if page.locator(".rami-meld.changed").count() and opened:
        press(page, "#submit-play", touch)
        if turn_over(page, 2_000):
            return
        press(page, "#undo-turn", touch)
    elif page.locator(".rami-meld.changed").count():
        press(page, "#undo-turn", touch)
    press(page, "#draw-btn", touch)
    assert turn_over(page, 10_000)


def play_round(browser, base, ruleset, name, context_opts):
    touch = bool(context_opts.get("has_touch"))
    ctx = browser.new_context(**context_opts)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "favicon" not in m.text else None)
    user = f"{name}{ruleset}{int(time.time()) % 100000}"
    register(page, base, user)
    page.goto(base + "/")
    page.select_option("select[name=ruleset]", ruleset)
    page.check("input[name=mode][value=solo]")
    if ruleset == "okey51":
        page.select_option("select[name=rounds]", "1")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(page.locator("#rack .tile").first).to_be_visible(timeout=15_000)
    tag = f"solo-{ruleset}-{name}"
    page.screenshot(path=str(shots / f"{tag}-start.png"), full_page=True)
    check(f"{tag}: no horizontal scroll", not page.evaluate("document.documentElement.scrollWidth > window.innerWidth"))
    turns, deadline = 0, time.monotonic() + ROUND_SECONDS
    while not page.evaluate(SCORES_SHOWN):
        assert time.monotonic() < deadline, "the round did not end in time"
        if page.locator("#turn-status.my-turn").count():
            (rami_turn if ruleset == "rami" else okey_turn)(page, touch)
            turns += 1
            if turns == 4:
                page.screenshot(path=str(shots / f"{tag}-mid.png"), full_page=True)
        else:
            page.wait_for_timeout(150)
    page.screenshot(path=str(shots / f"{tag}-scores.png"), full_page=True)
    check(f"{tag}: played {turns} turns to the score table", turns >= 1
          and page.locator("#score-table .score-row").count() == 4)
    check(f"{tag}: no page errors", not errors, errors)
    ctx.close()


work = Path(tempfile.mkdtemp())
env, base, server, log = start_server(work)
try:
    wait_until_up(base, server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        for ruleset in opts.rulesets:
            for name, context_opts in VIEWPORTS.items():
                play_round(browser, base, ruleset, name, context_opts)
        browser.close()
finally:
    server.terminate()
    server.wait(timeout=10)
    log.close()
print("screenshots in", shots, "- server log:", work / "server.log")
print("FAILURES:", failures if failures else "none")
sys.exit(1 if failures else 0)
