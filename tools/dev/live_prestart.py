"""Two players and a spectator at an online table on the real server: joins and leaves
seen live, the seat list before the deal, a spectator's view.

    .venv/bin/python tools/dev/live_prestart.py
Starts migrate + daphne on a throwaway SQLite database, registers A (creator), B and C.
Checks: A sees B join and leave without a reload, the seat list is readable, B leaves with
the Leave form, nothing playable shows before the deal, free seats say so, after the start
the seat list goes away, C (spectator) sees the table but no rack. Screenshots go to
/tmp/shots/pre-*.png. Dev tool, not a test.
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


shell = make_shell(env)


def seats(page):
    return page.eval_on_selector_all("#prestart-seats li", "els => els.map(e => e.textContent.trim())")


try:
    wait_until_up(base, server)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        ctx = {k: browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
               for k in "ABC"}
        pages = {k: c.new_page() for k, c in ctx.items()}
        errors = []
        for pg in pages.values():
            pg.on("pageerror", lambda e: errors.append(str(e)))
        stamp = int(time.time()) % 100000
        names = {k: f"{k.lower()}pre{stamp}" for k in "ABC"}
        for k, pg in pages.items():
            register(pg, base, names[k])
        A, B, C = pages["A"], pages["B"], pages["C"]
        tid = shell("from django.contrib.auth import get_user_model; from games.play import tables; "
                    f"u = get_user_model().objects.get(username='{names['A']}'); "
                    "print(tables.create_table(u, ruleset='okey51', mode='online', move_time=120).pk)").split()[-1]
        A.goto(f"{base}/table/{tid}/")
        A.wait_for_selector("#prestart-seats li[data-seat]")
        colours = A.eval_on_selector("#prestart-seats li",
                                     "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        check("seat list text and background differ", colours[0] != colours[1], colours)
        check("creator can close the table", A.locator("#leave-btn").count() == 1)
        check("no rack before the deal", A.locator("#rack .tile").count() == 0 and not A.locator("#rack").is_visible())
        check("no action buttons before the deal",
              not A.locator("#open-btn").is_visible() and not A.locator("#take-discard").is_visible())
        check("free seats say so, no disconnected dot",
              A.locator(".seat-card.free").count() == 3 and A.locator(".away-dot").count() == 0,
              A.inner_text("#opponents"))
        A.screenshot(path=str(shots / "pre-A-open.png"), full_page=True)

        B.goto(f"{base}/table/{tid}/")
        B.click("#join-btn")
        B.wait_for_selector("#leave-btn")
        expect(A.locator("#prestart-seats li:not(.free)")).to_have_count(2, timeout=8000)
        check("A sees B join without a reload", any(names["B"] in s for s in seats(A)), seats(A))
        A.screenshot(path=str(shots / "pre-A-sees-B.png"), full_page=True)
        B.screenshot(path=str(shots / "pre-B-joined.png"), full_page=True)
        B.click("#leave-btn")
        B.wait_for_load_state("networkidle")
        check("leaving goes back to the lobby", f"/table/{tid}" not in B.url, B.url)
        expect(A.locator("#prestart-seats li:not(.free)")).to_have_count(1, timeout=8000)
        check("A sees B leave", not any(names["B"] in s for s in seats(A)), seats(A))

        B.goto(f"{base}/table/{tid}/")
        B.click("#join-btn")
        B.wait_for_selector("#leave-btn")
        C.goto(f"{base}/table/{tid}/")
        C.wait_for_selector("#prestart-seats li[data-seat]")
        A.click("#start-btn")
        A.wait_for_selector("#rack .tile", timeout=15000)
        B.wait_for_selector("#rack .tile", timeout=15000)
        check("seat list gone once the match started", not B.locator("#prestart").is_visible())
        C.wait_for_selector(".seat-card .rack-count", timeout=15000)
        check("spectator sees no rack", not C.locator("#rack").is_visible() and C.locator("#rack .tile").count() == 0)
        check("spectator sees no action buttons or discard box", not C.locator("#discard-btn").is_visible()
              and not C.locator("#discard-zone").is_visible() and not C.locator("#take-discard").is_visible())
        check("spectator sees the centre", C.locator("#pile").is_visible())
        C.screenshot(path=str(shots / "pre-C-spectator.png"), full_page=True)
        B.screenshot(path=str(shots / "pre-B-started.png"), full_page=True)
        turn_b = B.locator("#turn-status.my-turn").count()
        check("out of turn the turn buttons are disabled",
              turn_b == 1 or B.locator("#discard-btn:disabled").count() == 1)
        wide = B.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        check("no horizontal scroll at 390", not wide)
        size = B.eval_on_selector("#rack .tile",
                                  "e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height]")
        check("phone rack tiles at least 27 x 44", size[0] >= 27 and size[1] >= 44, size)
        check("no page errors", not errors, errors)
        browser.close()
finally:
    server.terminate()
    server.wait(timeout=10)
print("FAILED:" if failures else "all ok", ", ".join(failures))
sys.exit(1 if failures else 0)
