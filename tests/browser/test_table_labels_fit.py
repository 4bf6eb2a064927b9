"""The table's buttons and the centre's titles in every language (fr, es, en, tr) on the
narrow phones (360 and 390 px, touch), at the start of the player's turn: each one inside
the screen, its label whole (wrapped, never cut with "…" nor spilling out of its box),
and still a 44 px tap target. Screenshots go to test-artifacts/."""
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import register, shot
from tests.browser.test_rulesets_round import MY_TURN, create_solo_table

MEASURE = """() => {
  const shown = (e) => e.offsetParent !== null && !e.closest('[hidden]');
  const all = document.querySelectorAll('#table-app .actions .btn, #table-app #center button, #table-app .mini-label');
  const items = [...all].filter(shown).map((e) => { const r = e.getBoundingClientRect();
      return {id: e.id || e.className, text: e.textContent.trim(), left: r.left, right: r.right,
              w: r.width, h: r.height,
              cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
              button: e.matches('button')}; });
  return {scrollW: document.documentElement.scrollWidth, vw: innerWidth, items};
}"""


@pytest.mark.parametrize("ruleset", ["okey51", "rami"])
@pytest.mark.parametrize("language", ["fr", "es", "en", "tr"])
def test_the_table_labels_fit_a_narrow_phone_in_every_language(browser, live_server_url, language, ruleset):
    context = browser.new_context(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True,
                                  locale=language)
    page = context.new_page()
    try:
        register(page, live_server_url, f"labels-{ruleset}-{language}")
        create_solo_table(page, live_server_url, ruleset)
        expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
        expect(page.locator("html")).to_have_attribute("lang", language)
        for width, height in ((360, 780), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(200)
            m = page.evaluate(MEASURE)
            shot(page, f"labels-{ruleset}-{language}-{width}")
            assert m["scrollW"] <= width, f"the page scrolls sideways: {m['scrollW']} > {width}"
            assert m["items"], "no button on the table"
            off = [i for i in m["items"] if i["left"] < 0 or i["right"] > width]
            assert not off, f"past the screen's edge at {width} px: {off}"
            cut = [i for i in m["items"] if i["cut"]]
            assert not cut, f"labels cut at {width} px: {cut}"
            small = [i for i in m["items"] if i["button"] and (i["w"] < 44 or i["h"] < 44)]
            assert not small, f"tap targets under 44 px at {width} px: {small}"
    finally:
        context.close()
