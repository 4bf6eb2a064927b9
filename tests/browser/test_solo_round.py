"""A new player's first round, through the UI only (issue 2): register, create a solo
okey51 table from the lobby, play every turn (draw from the pile, discard a tile) until
the round ends, and see the score table."""
import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import REFUSAL, register, shot, table_version, wait_for_answer

ROUND_SECONDS = 240


def play_turns_until_round_end(page, deadline: float) -> int:
    """Draw and discard on each of our turns until #score-table shows; returns our turns.
    What to do is read from the turn banner (the draw phase says "draw from the pile"), not
    guessed from the rack's size; a seat the computer took over (a clock that ran out on a
    slow host) is taken back with "Play myself"."""
    turns = 0
    tiles = page.locator("#rack .tile")
    while time.monotonic() < deadline:
        if page.locator("#score-table").is_visible():
            return turns
        if page.locator("#resume-btn").is_visible():
            page.click("#resume-btn")
            continue
        status = page.locator("#turn-status.my-turn")
        if not status.count():
            page.wait_for_timeout(150)
            continue
        if "draw from the pile" in status.inner_text():
            before = tiles.count()
            page.click("#pile")
            expect(tiles).to_have_count(before + 1, timeout=30_000)
        tiles.last.click()
        expect(tiles.last).to_have_class(re.compile(r"\bselected\b"))
        before = table_version(page)
        page.click("#discard-btn")
        # the server's answer is what is awaited, not its speed (a loaded CI host has taken
        # over 10 s), nor the turn line, which the computers can hand back between two polls
        wait_for_answer(page, before)
        if page.locator(REFUSAL).count():
            raise AssertionError(f"the discard was refused: {page.locator(REFUSAL).inner_text()!r}")
        turns += 1
    raise AssertionError("the round did not end in time")


def test_new_player_plays_a_solo_okey51_round(page, live_server_url):
    register(page, live_server_url, "newplayer")
    page.goto(live_server_url + "/")
    expect(page.locator("form.create-table")).to_be_visible()
    shot(page, "lobby")

    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    page.select_option("select[name=rounds]", "1")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))

    expect(page.locator("#rack .tile").first).to_be_visible(timeout=15_000)
    expect(page.locator("#pile")).to_be_visible()
    # three computers, labelled with their level
    expect(page.get_by_text(re.compile("Computer")).first).to_be_visible(timeout=10_000)
    assert page.get_by_text(re.compile("Computer")).count() >= 3
    shot(page, "table")

    turns = play_turns_until_round_end(page, time.monotonic() + ROUND_SECONDS)
    assert turns >= 1
    score_rows = page.locator("#score-table .score-row")
    expect(score_rows).to_have_count(4)
    shot(page, "score-table")
