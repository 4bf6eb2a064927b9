"""axe-core (tests/browser/vendor/axe-core, from the npm registry) audits the lobby, the
table during a turn and with each sheet open, the match page, the replay and a rules page
in Chromium, on a phone and a desktop: no serious or critical violation."""
import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import ROOT, register, shot
from tests.browser.test_rulesets_round import MY_TURN
from tests.browser.test_solo_round import ROUND_SECONDS
from tests.browser.test_table_one_screen import context_for, new_solo_table, play_until_round_end

AXE = (ROOT / "tests" / "browser" / "vendor" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")

RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
}"""


def audit(page, label):
    page.add_script_tag(content=AXE)
    bad = page.evaluate(RUN)
    assert not bad, f"{label}: axe-core finds serious or critical violations: {bad}"


def test_no_serious_or_critical_violation_on_the_sites_pages(browser, live_server_url):
    for size in ("390x844", "1366x800"):
        context = context_for(browser, size)
        page = context.new_page()
        try:
            register(page, live_server_url, f"axe{size.split('x')[0]}")
            page.goto(live_server_url + "/")
            audit(page, f"lobby {size}")
            url = new_solo_table(page, live_server_url, rounds="1")
            expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
            audit(page, f"table {size}")
            # on a touch-only phone "?" opens the rules' page rather than a sheet
            sheets = [("#menu-btn", "#table-menu"), ("#chat-btn", "#chat-sheet"), ("#sound-btn", "#sound-sheet")]
            if size != "390x844":
                sheets.append(("#help-btn", "#shortcuts-sheet"))
            for button, sheet in sheets:
                page.click(button)
                expect(page.locator(sheet)).to_be_visible()
                audit(page, f"table {sheet} {size}")
                page.keyboard.press("Escape")
            play_until_round_end(page, time.monotonic() + ROUND_SECONDS)
            expect(page.locator("#match-over")).to_be_visible(timeout=20_000)
            audit(page, f"match over {size}")
            page.goto(url + "match/")
            audit(page, f"match page {size}")
            page.goto(url + "replay/")
            expect(page.locator(".tile").first).to_be_visible(timeout=15_000)
            audit(page, f"replay {size}")
            shot(page, f"axe-replay-{size}")
            page.goto(live_server_url + "/rules/")
            page.locator("main a[href*='/rules/']").first.click()
            page.wait_for_url(re.compile(r"/rules/\w+"))
            audit(page, f"rules {size}")
        finally:
            context.close()
