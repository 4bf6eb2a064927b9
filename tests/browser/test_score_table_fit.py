"""The score table over the table fits a phone (390x844, touch) and a desktop (1366x800)
when a player's name is long: every column lies inside the card, the long name ends in
"…" with the whole name in its title. Screenshots go to test-artifacts/."""
import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import register, shot
from tests.browser.test_solo_round import ROUND_SECONDS, play_turns_until_round_end
from tests.browser.test_table_fit import SIZES

LONG_NAME = "Bartholomew_Vanderbilt_the_3rd"   # one word, the longest name sign-up takes (30)

MEASURE = """() => {
  const card = document.querySelector('#score-table').getBoundingClientRect();
  const right = Math.min(card.right, innerWidth);
  const cells = [...document.querySelectorAll('#score-table thead th, #score-table .score-row > *')]
    .map((e) => { const r = e.getBoundingClientRect();
      return {text: e.textContent.trim().slice(0, 20), left: r.left, right: r.right}; })
    .filter((c) => c.left < card.left - .5 || c.right > right + .5);
  const name = [...document.querySelectorAll('#score-table .score-row.me .score-name')]
    .map((e) => ({title: e.title,
                  lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)),
                  clipped: e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight}));
  return {card: [card.left, card.right], vw: innerWidth, outside: cells, name};
}"""


def assert_fits(page, size):
    page.wait_for_timeout(300)   # the overlay's render settles
    m = page.evaluate(MEASURE)
    shot(page, f"score-table-long-name-{size}")
    assert not m["outside"], f"score table cells outside the card {m['card']} at {m['vw']} px: {m['outside']}"
    assert m["name"] and m["name"][0]["title"] == LONG_NAME, m["name"]
    return m


def test_the_score_table_shows_every_column_with_a_long_name(browser, live_server_url):
    phone = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    page = phone.new_page()
    try:
        register(page, live_server_url, LONG_NAME)
        page.goto(live_server_url + "/")
        page.select_option("select[name=ruleset]", "okey51")
        page.check("input[name=mode][value=solo]")
        page.select_option("select[name=rounds]", "3")   # the round's table, not the match's end
        page.locator("form.create-table button[type=submit]").click()
        page.wait_for_url(re.compile(r"/table/\d+/$"))
        expect(page.locator("#rack .tile").first).to_be_visible(timeout=15_000)
        play_turns_until_round_end(page, time.monotonic() + ROUND_SECONDS)
        expect(page.locator("#score-table .score-row")).to_have_count(4)
        # five columns in 390 px: the name gives way on two lines, and says so with "…"
        name = assert_fits(page, "phone")["name"][0]
        assert name["clipped"] and name["lines"] == 2, name
        desktop = browser.new_context(viewport=SIZES["desktop"])
        try:
            desktop.add_cookies(phone.cookies())
            wide = desktop.new_page()
            wide.goto(page.url)
            expect(wide.locator("#score-table .score-row")).to_have_count(4, timeout=15_000)
            assert_fits(wide, "desktop")
        finally:
            desktop.close()
    finally:
        phone.close()
