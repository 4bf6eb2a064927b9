"""Small things of the table and the lists on a phone (390x844, touch): every control a
player taps is a 44 px target, nothing of the waiting table's header touches the screen's
edge. Screenshots go to test-artifacts/."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import assert_fits, register, seat_online_guest, shot
from tests.browser.test_rulesets_round import MY_TURN, create_solo_table

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def waiting_table_of_two(browser, base_url, host_name, guest_name):
    """`host_name` creates an online okey51 table on a phone and `guest_name` takes a seat
    at it; returns both pages (and their contexts, to close) before the start."""
    host_ctx, guest_ctx = browser.new_context(**PHONE), browser.new_context(**PHONE)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    register(host, base_url, host_name)
    register(guest, base_url, guest_name)
    seat_online_guest(host, guest, guest_name, base_url, timeout=15_000)
    return host, guest, (host_ctx, guest_ctx)


def test_the_creators_remove_button_is_a_tap_target(browser, live_server_url):
    host, _guest, contexts = waiting_table_of_two(browser, live_server_url, "removehost", "removeguest")
    try:
        expect(host.locator("#prestart-seats .remove-btn")).to_be_visible()
        shot(host, "phone-remove-button")
        assert_fits(host, "#prestart-seats .remove-btn")
        width = host.locator("#prestart-seats .remove-btn").bounding_box()["width"]
        assert width >= 44, f"the Remove button is {width} px wide"
    finally:
        for context in contexts:
            context.close()


# the left and right edges of the waiting table's header and of what it holds
HEAD_EDGES = """() => [...document.querySelectorAll('.site-main > .table-head, .site-main > .table-head h1,'
  + ' #prestart-seats li, #prestart button')].filter((e) => e.offsetParent !== null)
  .map((e) => { const r = e.getBoundingClientRect();
    return {what: e.tagName + ' ' + e.textContent.trim().slice(0, 20), left: r.left, right: r.right}; })"""


def test_the_waiting_tables_header_keeps_off_the_screens_edges(browser, live_server_url):
    host, guest, contexts = waiting_table_of_two(browser, live_server_url, "edgehost", "edgeguest")
    try:
        for page in (host, guest):
            shot(page, f"phone-waiting-header-{'host' if page is host else 'guest'}")
            edges = page.evaluate(HEAD_EDGES)
            assert edges, "no header on the waiting table"
            inner = [e for e in edges if not e["what"].startswith("SECTION")]
            touching = [e for e in inner if e["left"] < 6 or e["right"] > 390 - 6]
            assert not touching, f"the header touches the screen's edge: {touching}"
            sideways = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
            assert sideways <= 0, f"the page scrolls sideways by {sideways} px"
    finally:
        for context in contexts:
            context.close()


# the marker drawn before each visible summary of the table's menu, and whether its section is open
MARKERS = """() => [...document.querySelectorAll('#table-menu details > summary')]
  .filter((e) => e.getBoundingClientRect().height > 0)
  .map((e) => { const m = getComputedStyle(e, '::before');
    return {id: e.parentElement.id, open: e.parentElement.open, marker: m.content, shown: m.display !== 'none',
            width: parseFloat(m.width) || 0}; })"""


def test_the_menus_sections_show_whether_they_are_open(browser, live_server_url):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        register(page, live_server_url, "menumarkers")
        create_solo_table(page, live_server_url, "okey51")
        expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
        page.click("#menu-btn")
        expect(page.locator("#leave-match > summary")).to_be_visible()
        markers = {m["id"]: m for m in page.evaluate(MARKERS)}
        assert "leave-match" in markers, markers
        for marker in markers.values():
            expected = "\u25be" if marker["open"] else "\u25b8"
            assert expected in marker["marker"] and marker["shown"] and marker["width"] > 0, marker
        page.click("#leave-match > summary")
        expect(page.locator("#leave-match-btn")).to_be_visible()
        shot(page, "phone-menu-markers")
        opened = {m["id"]: m for m in page.evaluate(MARKERS)}["leave-match"]
        assert opened["open"] and "\u25be" in opened["marker"], opened
    finally:
        context.close()


# every heading of each list of the page: shown or not, and whether its table runs past
# the box it sits in (a card that scrolls sideways hides its last columns just the same)
COLUMNS = r"""() => ({
  sideways: document.documentElement.scrollWidth - innerWidth,
  tables: [...document.querySelectorAll('table.list')].map((t) => ({
    overflow: Math.round(t.getBoundingClientRect().right - t.parentElement.getBoundingClientRect().right),
    scrolled: t.parentElement.scrollWidth - t.parentElement.clientWidth,
    hidden: [...t.querySelectorAll('thead th')].filter((th) => th.textContent.trim()
      && (getComputedStyle(th).display === 'none' || th.getBoundingClientRect().width < 1))
      .map((th) => th.textContent.trim()),
    headings: t.querySelectorAll('thead th').length,
    // a heading's word drawn on two lines ("Galibiy/etler") is cut mid-word
    cut: [...t.querySelectorAll('thead th')].flatMap((th) => {
      const text = th.firstChild && th.firstChild.nodeType === 3 ? th.firstChild : null;
      if (!text) return [];
      const found = [];
      for (const m of text.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, m.index); range.setEnd(text, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) found.push(m[0]);
      }
      return found;
    })}))})"""


@pytest.mark.parametrize("language", ["fr", "es", "en", "tr"])
def test_the_lists_keep_every_column_on_a_phone(browser, live_server_url, language):
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server_url}])
    page = context.new_page()
    try:
        register(page, live_server_url, f"columns{language}")
        for path in ("/players/me/", "/rankings/okey51/", "/rankings/okey51/?period=month", "/rankings/rami/solo/"):
            page.goto(live_server_url + path)
            found = page.evaluate(COLUMNS)
            shot(page, f"phone-columns-{language}-{path.strip('/').replace('/', '-').replace('?', '-')}")
            assert found["tables"], f"no list on {path}"
            assert found["sideways"] <= 0, f"{path} scrolls sideways by {found['sideways']} px"
            for table in found["tables"]:
                assert not table["hidden"], f"{path} ({language}) hides the columns {table['hidden']}"
                assert table["overflow"] <= 1 and table["scrolled"] <= 1, f"a list of {path} ({language}) " \
                    f"runs past its card: {table}"
                assert not table["cut"], f"{path} ({language}) cuts the headings {table['cut']} mid-word"
    finally:
        context.close()


def test_on_a_touch_phone_the_help_button_opens_the_rules(browser, live_server_url):
    """A touch-only phone has no keyboard: "?" opens the rules of the table's game; a desktop
    with a mouse keeps the list of keyboard shortcuts."""
    phone = browser.new_context(**PHONE)
    desk = browser.new_context(viewport={"width": 1366, "height": 800})
    try:
        page = phone.new_page()
        register(page, live_server_url, "helptouch")
        create_solo_table(page, live_server_url, "rami")
        expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
        assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches")
        button = page.locator("#help-btn")
        rules_name = page.locator("#rules-link").text_content().strip()
        expect(button).to_have_attribute("aria-label", rules_name)
        with phone.expect_page() as opened:
            button.click()
        rules = opened.value
        rules.wait_for_load_state()
        assert rules.url.rstrip("/").endswith("/rules/rami"), rules.url
        shot(rules, "phone-help-opens-rules")
        expect(page.locator("#shortcuts-sheet")).to_be_hidden()

        page = desk.new_page()
        register(page, live_server_url, "helpdesk")
        create_solo_table(page, live_server_url, "rami")
        expect(page.locator("#help-btn")).to_have_attribute("aria-label", "Keyboard shortcuts")
        page.click("#help-btn")
        expect(page.locator("#shortcuts-sheet")).to_be_visible()
        assert len(desk.pages) == 1
    finally:
        phone.close()
        desk.close()


def test_the_waiting_tables_buttons_are_tap_targets(browser, live_server_url):
    host, guest, contexts = waiting_table_of_two(browser, live_server_url, "startshost", "startsguest")
    try:
        for page in (host, guest):
            assert_fits(page, "#prestart button, #prestart .button")
        expect(host.locator("#start-btn")).to_be_visible()
        expect(guest.locator("#leave-btn")).to_be_visible()
    finally:
        for context in contexts:
            context.close()


# The rack's slots per row, its tiles, and how far they run past the screen's right edge and
# its bottom.
RACK_SHAPE = """() => {
  const rack = document.getElementById('rack');
  const tiles = [...rack.querySelectorAll('.tile')];
  return {perRow: window.okeyTable.state.perRow, tiles: tiles.length,
          beyond: Math.max(...tiles.map((t) => t.getBoundingClientRect().right)) - innerWidth,
          below: Math.max(...tiles.map((t) => t.getBoundingClientRect().bottom)) - innerHeight};
}"""


# The rack's tiles have stopped moving (a re-laid rack's tiles slide to their new places).
SETTLED = "() => document.getAnimations().filter((a) => a.playState === 'running').length === 0"


def test_a_phone_turned_sideways_lays_the_rack_out_again(browser, live_server_url):
    """Loaded upright, the rack has rows of eight; turned sideways it takes the wide screen's
    rows and every tile stays on the screen (rows of eight made the tiles so big that the
    rack ran off its bottom), and upright again it goes back, with every tile still there."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        register(page, live_server_url, "turnedphone")
        create_solo_table(page, live_server_url, "okey51")
        expect(page.locator("#rack .tile").first).to_be_visible(timeout=20_000)
        upright = page.evaluate(RACK_SHAPE)
        assert upright["perRow"] == 8 and upright["beyond"] <= 0, upright
        page.set_viewport_size({"width": 844, "height": 390})
        page.wait_for_function("() => window.okeyTable.state.perRow === 13")
        page.wait_for_function(SETTLED)
        sideways = page.evaluate(RACK_SHAPE)
        shot(page, "phone-turned-sideways")
        assert sideways["tiles"] == upright["tiles"], (upright, sideways)
        assert sideways["beyond"] <= 0 and sideways["below"] <= 0, f"the rack runs off the screen: {sideways}"
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => window.okeyTable.state.perRow === 8")
        page.wait_for_function(SETTLED)
        again = page.evaluate(RACK_SHAPE)
        assert again["tiles"] == upright["tiles"] and again["beyond"] <= 0, again
    finally:
        context.close()
