"""One round of okey17 and one of rami through the UI (issue 3), each from the lobby's
create form to the score table, with screenshots. The player never opens: in okey17 it
draws and discards (a refused playable or joker discard keeps the tile, so it tries the
next one — RULES.md §4); in rami it draws every turn (RULES.md §5)."""
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import REFUSAL, register, shot, table_version, wait_for_answer

ROUND_SECONDS = 300
MY_TURN = "#turn-status.my-turn"
ROUND_OVER_JS = ("() => { const s = document.querySelector('#score-table');"
                 " return !!(s && s.offsetParent); }")


def create_solo_table(page, base_url: str, ruleset: str) -> None:
    page.goto(base_url + "/")
    page.select_option("select[name=ruleset]", ruleset)
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(page.locator("#turn-status")).to_be_visible(timeout=15_000)


def okey17_turn(page) -> None:
    tiles = page.locator("#rack .tile")
    if tiles.count() == 14:
        page.click("#pile")
        expect(tiles).to_have_count(15, timeout=10_000)
    for index in range(tiles.count() - 1, -1, -1):
        tiles.nth(index).click()
        before = table_version(page)
        page.click("#discard-btn")
        wait_for_answer(page, before)
        if not page.locator(REFUSAL).count():
            return
        # refused (playable or joker discard): the tile stays, try another
    raise AssertionError("no discard was accepted")


def rami_turn(page) -> None:
    before = table_version(page)
    page.click("#draw-btn")
    wait_for_answer(page, before)


@pytest.mark.parametrize("ruleset, turn", [("okey17", okey17_turn), ("rami", rami_turn)])
def test_a_round_of_each_ruleset_through_the_ui(page, live_server_url, ruleset, turn):
    page.set_viewport_size({"width": 1366, "height": 800})
    register(page, live_server_url, f"player-{ruleset}")
    create_solo_table(page, live_server_url, ruleset)
    expect(page.locator("#rack .tile").first).to_be_visible(timeout=15_000)
    shot(page, f"table-{ruleset}")
    deadline = time.monotonic() + ROUND_SECONDS
    turns = 0
    while not page.evaluate(ROUND_OVER_JS):
        assert time.monotonic() < deadline, "the round did not end in time"
        if page.locator(MY_TURN).count():
            turn(page)
            turns += 1
        else:
            page.wait_for_timeout(150)
    assert turns >= 1
    expect(page.locator("#score-table .score-row")).to_have_count(4)
    # how the round ended, and every rack revealed (a finisher's may be empty)
    expect(page.locator("#end-reason")).not_to_be_empty()
    expect(page.locator("#score-table .rack-row")).to_have_count(4)
    assert page.locator("#score-table .rack-row .tile").count() > 0
    if ruleset == "rami":
        expect(page.locator("#score-table thead th")).to_have_count(3)   # no always-empty Penalties column
    shot(page, f"score-table-{ruleset}")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # taller than the phone, the overlay still reads from its top: its first heading is on screen
    assert page.evaluate("document.querySelector('.overlay').scrollTop") == 0
    assert page.evaluate("document.querySelector('.overlay .overlay-card:not([hidden]) h2')"
                         ".getBoundingClientRect().top") >= 0
    shot(page, f"score-table-{ruleset}-phone")
