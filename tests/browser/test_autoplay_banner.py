"""A player whose seat a computer plays sees it and takes the seat back with one tap
(RULES.md §6: two move times running out in a row put the seat on autoplay; the `resume`
frame gives it back, docs/protocol.md). The table's move time is set to 4 s
in the database before the deal (the form offers 15 s at least) so two timeouts pass
quickly; the server is this module's own, on a database file the test can reach."""
import re
import sqlite3

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import base_env, register, serve, shot

MOVE_SECONDS = 4
# `selector`'s centre is on the screen and the element itself is what a tap there reaches
ON_TOP = """(selector) => { const e = document.querySelector(selector); if (!e) return false;
  const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
  const hit = document.elementFromPoint(x, y); return !!hit && (hit === e || e.contains(hit)); }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("autoplay")
    db = workdir / "db.sqlite3"
    with serve(workdir, base_env(DATABASE_URL=f"sqlite:///{db}"), name="autoplay-server") as url:
        yield url, db


def test_a_player_on_autoplay_sees_the_banner_and_takes_the_seat_back(browser, server):
    url, db = server
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        register(page, url, "away-player")

        def short_clock(route):
            # the table exists once the form's answer names it, and is dealt after its page sends a seed
            response = route.fetch(max_redirects=0)
            table_id = int(re.search(r"/table/(\d+)/$", response.headers["location"]).group(1))
            with sqlite3.connect(db, timeout=10) as conn:
                conn.execute("UPDATE games_table SET move_time = ? WHERE id = ?", (MOVE_SECONDS, table_id))
            route.fulfill(response=response)

        page.route(re.compile(r".*/tables/new/$"), short_clock)
        page.goto(url + "/")
        page.select_option("select[name=ruleset]", "okey51")
        page.check("input[name=mode][value=solo]")
        # three rounds: a first round the computers finish fast must not end the match
        # before the banner is seen
        page.select_option("select[name=rounds]", "3")
        page.uncheck("input[name=practice]")  # a move clock, so that the computer takes over
        page.locator("form.create-table button[type=submit]").click()
        page.wait_for_url(re.compile(r"/table/\d+/$"))
        banner = page.locator("#away-banner.autoplay")
        expect(banner).to_be_visible(timeout=45_000)
        expect(banner).to_contain_text("computer is playing your seat")
        expect(page.locator("#turn-status")).not_to_contain_text("Your turn")
        shot(page, "autoplay-banner-phone")
        # the banner stands before the first game's hint, and on the phone turned sideways
        # its button is on screen and nothing lies over it
        expect(page.locator("#first-game-hint")).to_be_hidden()
        page.set_viewport_size({"width": 844, "height": 390})
        page.wait_for_function(ON_TOP, arg="#resume-btn")
        shot(page, "autoplay-banner-phone-sideways")
        page.set_viewport_size({"width": 390, "height": 844})
        # back in the seat the player reads before the clock runs out again: the turns after
        # the tap get a long move time (a loaded host once took the 4 s and put the seat
        # back on autoplay before "Welcome back" was read)
        table_id = int(re.search(r"/table/(\d+)/$", page.url).group(1))
        with sqlite3.connect(db, timeout=10) as conn:
            conn.execute("UPDATE games_table SET move_time = ? WHERE id = ?", (60, table_id))
        page.locator("#resume-btn").tap()
        expect(banner).to_be_hidden(timeout=10_000)
        # back in their seat, the player reads what the computer did for them
        expect(page.locator("#away-banner")).to_contain_text("Welcome back")
        expect(page.locator("#away-banner .away-did")).to_contain_text("for you")
        shot(page, "autoplay-welcome-back-phone")
    finally:
        context.close()
