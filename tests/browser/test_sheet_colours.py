"""The menu and chat sheets are light, unlike the felt: the move history in the menu shows each
tile with its face and its colour (a red 7 is red), and every history line and the player's own
name in the chat read at a 4.5:1 contrast or more against the sheet (WCAG AA). Phone, 390x844.
Screenshots go to test-artifacts/."""
from playwright.sync_api import expect

from tests.browser.conftest import register, shot
from tests.browser.test_rulesets_round import MY_TURN, create_solo_table

COLOURS = {"R": "rgb(208, 49, 45)", "B": "rgb(27, 95, 191)", "K": "rgb(29, 29, 29)", "Y": "rgb(160, 95, 0)"}

# [text, contrast against the first opaque background behind it] of each element of a selector
CONTRAST = """(selector) => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const f = (v) => { v /= 255; return v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4; };
  const lum = ([r, g, b]) => {
    return .2126 * f(r) + .7152 * f(g) + .0722 * f(b); };
  const back = (e) => { for (; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || c[3] === 1) return c.slice(0, 3); } return [255, 255, 255]; };
  return [...document.querySelectorAll(selector)].filter((e) => e.offsetParent !== null).map((e) => {
    const a = lum(rgb(getComputedStyle(e).color)), b = lum(back(e));
    return [e.textContent.trim().slice(0, 40), (Math.max(a, b) + .05) / (Math.min(a, b) + .05)]; });
}"""

TILES = """() => [...document.querySelectorAll('#table-menu .move-history .tile')].map((t) => ({
  tile: t.dataset.tile, drawn: ([...t.classList].find((c) => /^c-[RBKY]$/.test(c)) || ' ').slice(2) || null,
  colour: getComputedStyle(t).color, face: getComputedStyle(t).backgroundColor}))"""


def test_the_menus_move_history_and_the_chat_read_on_their_light_sheets(browser, live_server_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        register(page, live_server_url, "sheetcolours")
        create_solo_table(page, live_server_url, "okey51")
        expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
        page.locator("#first-game-hint-close").click()
        page.locator("#rack .tile").last.click()
        page.locator("#discard-btn").click()
        # the three computers play, each discarding, and the turn comes back
        expect(page.locator(MY_TURN)).to_be_visible(timeout=30_000)
        page.locator("#chat-btn").click()
        page.fill("#chat-input", "iyi oyunlar")
        page.locator("#chat-send").click()
        expect(page.locator("#chat-lines .chat-line.mine")).to_have_count(1)
        low = [c for c in page.evaluate(CONTRAST, ".chat-line.mine .chat-name") if c[1] < 4.5]
        assert not low, f"the player's own name in the chat under 4.5:1: {low}"
        page.keyboard.press("Escape")

        page.locator("#menu-btn").click()
        expect(page.locator("#table-menu .move-history .history-line").first).to_be_visible()
        shot(page, "sheet-colours-menu-phone")
        tiles = page.evaluate(TILES)
        assert len(tiles) >= 4, tiles  # ours and the computers' discards
        # each tile in the colour it is drawn in (c-R ...: a wild in the tile it stands for)
        wrong = [t for t in tiles if not t["drawn"] or t["colour"] != COLOURS[t["drawn"]]
                 or t["face"] in ("rgba(0, 0, 0, 0)", "transparent")]
        assert not wrong, f"history tiles without their face or colour: {wrong}"
        low = [c for c in page.evaluate(CONTRAST, "#table-menu .history-text") if c[1] < 4.5]
        assert not low, f"history lines under 4.5:1 on the menu sheet: {low}"
    finally:
        context.close()
