"""The first-game hint in the browser: shown on a player's first game of any kind (here
Play now, two humans and two computers), not on their second; on a phone (390×844) it
stands within the screen once the page has scrolled to the dealt table; its words follow
the seat's phase: the round's first player (seat 0 in round 1) is told not to draw, the
next player to wait and then, on their turn, to draw. Screenshot: first-game-hint-phone."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import base_env, play_now_together, serve, shot

QUICK_WAIT = 5
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def hint_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("hint")
    env = base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}", OKEY_QUICK_MATCH_WAIT=str(QUICK_WAIT))
    with serve(workdir, env, name="hint") as url:
        yield url


def phone_page(browser):
    return browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()


def assert_on_screen(page, locator):
    """`locator`'s box lies inside the 390×844 viewport (the page scrolled as it does)."""
    page.wait_for_function("() => window.scrollY > 0 || document.documentElement.scrollHeight <= innerHeight")
    page.wait_for_timeout(300)  # a smooth scroll may still be moving
    box = locator.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


def test_the_first_game_hint_on_a_first_play_now_game_follows_the_phase(browser, hint_server):
    url = hint_server
    starter, follower = phone_page(browser), phone_page(browser)
    play_now_together(url, ((starter, "firststarter"), (follower, "firstfollower")))  # seats 0 and 1
    for page in (starter, follower):
        expect(page.locator("#rack .tile").first).to_be_visible(timeout=(QUICK_WAIT + 20) * 1000)
    hint = {p: p.locator("#first-game-hint") for p in (starter, follower)}
    # the round's first player was dealt one tile more: no draw in the words
    expect(starter.locator("#turn-status.my-turn")).to_be_visible(timeout=10_000)
    expect(hint[starter]).to_be_visible()
    expect(hint[starter]).to_contain_text("you start the round with one tile more, so you do not draw")
    assert "draw a tile" not in hint[starter].inner_text()
    assert_on_screen(starter, hint[starter])
    shot(starter, "first-game-hint-phone")
    # the next seat waits, then is told to draw
    expect(hint[follower]).to_contain_text("wait for your turn")
    assert_on_screen(follower, hint[follower])
    tiles = starter.locator("#rack .tile")
    tiles.last.click()
    starter.click("#discard-btn")
    expect(follower.locator("#turn-status.my-turn")).to_be_visible(timeout=10_000)
    expect(hint[follower]).to_contain_text("Your first game: draw a tile (from the pile or the last discard)")
    assert_on_screen(follower, hint[follower])
    expect(hint[starter]).to_contain_text("wait for your turn")
    # a second game, of another kind: no hint
    second = follower.context.new_page()
    second.goto(url + "/")
    second.click("#play-now button[data-ruleset=rami]")
    second.wait_for_url(re.compile(r"/table/\d+/$"))
    assert second.url != follower.url
    expect(second.locator("#rack .tile").first).to_be_visible(timeout=(QUICK_WAIT + 20) * 1000)
    expect(second.locator("#turn-status")).not_to_have_text("Connecting…")
    expect(second.locator("#first-game-hint")).to_be_hidden()
    for page in (starter, follower):
        page.context.close()
