"""The table's cues, on a started solo table: the player's own seat has a clock ring that
turns red in its last 5 s; a chat line shows in a bubble at the speaker's seat for 3 s; the
sound control is off until turned on and says so, and "?" opens the shortcuts sheet; motion
is transform/opacity only, 250 ms at most, and none under reduced motion. (That the table
and its sheets are one screen at every size: tests/browser/test_table_one_screen.py.)"""
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register, shot
from tests.browser.test_rulesets_round import MY_TURN
from tests.browser.test_table_one_screen import context_for, new_solo_table


def test_your_own_clock_ring_turns_red_in_the_last_five_seconds(browser, live_server_url):
    context = context_for(browser, "390x844")
    page = context.new_page()
    try:
        register(page, live_server_url, "ringwatcher")
        new_solo_table(page, live_server_url, rounds="1", practice=False, move_time="15")
        expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
        mine = page.locator("#my-seat .seat-card.me")
        expect(mine).to_have_class(re.compile(r"\btimed\b"))
        expect(mine).not_to_have_class(re.compile(r"\blow\b"))
        ring = "() => getComputedStyle(document.querySelector('#my-seat .avatar')).backgroundImage"
        assert "conic-gradient" in page.evaluate(ring)
        expect(mine).to_have_class(re.compile(r"\blow\b"), timeout=15_000)
        assert "rgb(208, 49, 45)" in page.evaluate(ring)
        shot(page, "one-screen-own-clock-red")
    finally:
        context.close()


def test_a_chat_line_shows_in_a_bubble_at_the_speakers_seat_for_three_seconds(browser, live_server_url):
    context = context_for(browser, "390x844")
    page = context.new_page()
    try:
        register(page, live_server_url, "bubbler")
        new_solo_table(page, live_server_url)
        page.click("#chat-btn")
        page.locator("#chat-quick button").first.click()
        page.keyboard.press("Escape")
        bubble = page.locator("#my-seat .bubble")
        expect(bubble).to_be_visible(timeout=5_000)
        shot(page, "one-screen-bubble")
        start = time.monotonic()
        expect(bubble).to_be_hidden(timeout=6_000)
        assert 1.5 < time.monotonic() - start + 0.5 < 5, "the bubble did not stay about 3 s"
    finally:
        context.close()


def test_the_sound_control_and_the_shortcuts_sheet(browser, live_server_url):
    context = context_for(browser, "1366x800")
    page = context.new_page()
    try:
        register(page, live_server_url, "listener")
        new_solo_table(page, live_server_url)
        # off until the player turns it on, and the top bar's button says so before any tap
        button = page.locator("#sound-btn")
        expect(button).to_have_class(re.compile(r"\bmuted\b"))
        expect(button).to_have_attribute("aria-label", "Sound: off")
        shot(page, "one-screen-sound-off")
        button.click()
        toggle = page.locator("#sound-toggle")
        expect(toggle).to_be_visible()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(button).not_to_have_class(re.compile(r"\bmuted\b"))
        expect(button).to_have_attribute("aria-label", "Sound: on")
        page.locator("#sound-volume").fill("30")
        assert page.evaluate("localStorage.getItem('okeysite:volume')") == "0.3"
        assert page.evaluate("localStorage.getItem('okeysite:sound')") == "on"
        page.keyboard.press("Escape")
        page.locator("body").press("?")
        sheet = page.locator("#shortcuts-sheet")
        expect(sheet).to_be_visible()
        for key in ("P", "T", "O", "D", "Esc"):
            expect(sheet.locator("kbd", has_text=re.compile(f"^{key}$"))).to_have_count(1)
        shot(page, "one-screen-shortcuts")
    finally:
        context.close()


@pytest.mark.parametrize("reduced", [False, True])
def test_motion_is_short_transform_and_opacity_and_none_under_reduced_motion(browser, live_server_url, reduced):
    context = context_for(browser, "1366x800", reduced_motion="reduce" if reduced else "no-preference")
    page = context.new_page()
    try:
        # every animation the page starts, as it starts: its duration and the properties it moves
        page.add_init_script("""window.__motion = [];
          document.addEventListener('animationstart', (e) => {
            for (const a of document.getAnimations()) {
              const props = new Set();
              for (const k of a.effect.getKeyframes()) for (const p of Object.keys(k))
                if (!['offset', 'easing', 'composite', 'computedOffset'].includes(p)) props.add(p);
              window.__motion.push({name: a.animationName, ms: a.effect.getTiming().duration, props: [...props]});
            }
          }, true);""")
        register(page, live_server_url, f"mover{int(reduced)}")
        new_solo_table(page, live_server_url, rounds="3")
        expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
        tiles = page.locator("#rack .tile")
        if tiles.count() == 14:
            page.click("#pile")
            expect(tiles).to_have_count(15, timeout=10_000)
        tiles.last.click()
        page.click("#discard-btn")
        page.wait_for_timeout(1500)     # the computers draw and discard after us
        motion = page.evaluate("window.__motion")
        if reduced:
            assert motion == [], f"animations under reduced motion: {motion[:5]}"
        else:
            assert motion, "no animation at all for a draw, a discard and the deal"
            long = [m for m in motion if m["ms"] > 250]
            assert not long, f"animations over 250 ms: {long[:5]}"
            other = [m for m in motion if set(m["props"]) - {"transform", "opacity"}]
            assert not other, f"animations of other properties than transform and opacity: {other[:5]}"
    finally:
        context.close()
