"""The table is one screen at 390x844 (touch), 844x390 (a phone on its side, touch), 1366x800
and 1920x1080, in French, Spanish, English and Turkish: the page never scrolls
(`scrollHeight <= innerHeight`, `scrollWidth <= innerWidth`) before the start, during a
turn, in the seeding window before the first deal, at the score table and at the match's
end; the seats sit around the rack (left, across, right) with each seat's discards between
it and the next; rack tiles are >= 44 px wide on the phones; every tap target of the table
is >= 44x44 px on a phone and every game button >= 44 px high on a desktop; the sound, chat
and shortcuts sheets open with one tap and are one screen too. Screenshots of each phase at
each size go to test-artifacts/. The table's cues (clock ring, chat bubble, sound, motion):
tests/browser/test_table_cues.py."""
import json
import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import register, shot
from tests.browser.test_rulesets_round import MY_TURN
from tests.browser.test_solo_round import ROUND_SECONDS

SIZES = {"390x844": (390, 844, True), "844x390": (844, 390, True),
         "1366x800": (1366, 800, False), "1920x1080": (1920, 1080, False)}
LANGUAGES = ("fr", "es", "en", "tr")

FITS = """() => ({sh: document.documentElement.scrollHeight, sw: document.documentElement.scrollWidth,
                  vh: innerHeight, vw: innerWidth})"""

# the visible controls a player taps, in the table and its top bar (sheets are closed)
TARGETS = """(phone) => {
  const shown = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !e.closest('[hidden]') && !e.closest('dialog:not([open])')
      && getComputedStyle(e).visibility !== 'hidden'; };
  const sel = phone ? ['button', 'a', 'input', 'select', 'summary'].map((t) => '#table-app ' + t).join(', ')
                      + ', #rack .tile, #pile'
                    : '#table-app .actions .btn, #pile, #take-discard, #table-app .tool';
  return [...document.querySelectorAll(sel)].filter(shown).map((e) => { const r = e.getBoundingClientRect();
    return {what: e.id || e.className || e.tagName, text: e.textContent.trim().slice(0, 20),
            w: Math.round(r.width), h: Math.round(r.height)}; });
}"""

LAYOUT = """() => {
  const box = (s) => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect();
    return {l: r.left, r: r.right, t: r.top, b: r.bottom, cx: (r.left + r.right) / 2, cy: (r.top + r.bottom) / 2}; };
  return {rack: box('#rack'), left: box('.seat-card[data-pos=left]'), top: box('.seat-card[data-pos=top]'),
          right: box('.seat-card[data-pos=right]'), me: box('#my-seat .seat-card'), centre: box('.centre-middle'),
          tdisc: box('.seat-discard[data-pos=top]'), rdisc: box('.seat-discard[data-pos=right]'),
          take: box('#take-box'), mine: box('#discard-box'),
          tiles: [...document.querySelectorAll('#rack .tile')].map((t) => t.getBoundingClientRect().width)};
}"""


# each tile's colour and the mark drawn before its number
MARKS = """() => [...document.querySelectorAll(SEL)].map((t) => [t.dataset.tile[0],
  getComputedStyle(t, '::before').content.replace(/"/g, '')])"""


def play_until_round_end(page, deadline):
    """Draw and discard on each of our turns until the score table shows (a discard is
    done when the rack is back to 14 tiles: the computers may be quicker than a check of
    whose turn it is)."""
    tiles = page.locator("#rack .tile")
    while time.monotonic() < deadline:
        if page.locator("#score-table").is_visible():
            return
        if not page.locator(MY_TURN).count():
            page.wait_for_timeout(150)
            continue
        if tiles.count() == 14:
            page.click("#pile")
            page.wait_for_function("() => document.querySelectorAll('#rack .tile').length === 15"
                                   " || !!document.querySelector('#score-table:not([hidden])')", timeout=10_000)
            if page.locator("#score-table").is_visible():
                return
        tiles.last.click()
        page.click("#discard-btn")
        page.wait_for_function("() => document.querySelectorAll('#rack .tile').length <= 14"
                               " || !!(document.querySelector('#score-table') || {}).offsetParent", timeout=10_000)
    raise AssertionError("the round did not end in time")


def context_for(browser, size, **extra):
    w, h, touch = SIZES[size]
    return browser.new_context(viewport={"width": w, "height": h}, has_touch=touch, is_mobile=touch, **extra)


def assert_one_screen(page, label):
    m = page.evaluate(FITS)
    assert m["sh"] <= m["vh"] and m["sw"] <= m["vw"], f"{label}: the page scrolls: {m}"


def set_language(context, base_url, language):
    context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])


def new_solo_table(page, base_url, ruleset="okey51", rounds="1", practice=True, move_time=None):
    page.goto(base_url + "/")
    page.select_option("select[name=ruleset]", ruleset)
    page.check("input[name=mode][value=solo]")
    page.select_option("select[name=rounds]", rounds)
    if not practice:
        page.uncheck("input[name=practice]")
        if move_time:
            page.select_option("select[name=move_time]", move_time)
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(page.locator("#rack .tile").first).to_be_visible(timeout=20_000)
    return page.url


def check_layout(m, size):
    rack, left, top, right = m["rack"], m["left"], m["top"], m["right"]
    assert left["cx"] < rack["cx"] < right["cx"], f"{size}: the side seats do not flank the rack: {m}"
    assert left["r"] <= right["l"], f"{size}: the left seat is not left of the right one"
    assert top["b"] <= rack["t"] and top["b"] <= left["b"] and top["b"] <= right["b"], f"{size}: across is not on top"
    assert left["b"] <= rack["t"] + 1 or left["r"] <= rack["l"] + 1, f"{size}: the left seat overlaps the rack"
    assert right["b"] <= rack["t"] + 1 or right["l"] >= rack["r"] - 1, f"{size}: the right seat overlaps the rack"
    me = m["me"]
    assert me and me["b"] <= rack["t"] + 1 and left["cx"] < me["cx"] < right["cx"], \
        f"{size}: your seat is not above your rack"
    # each seat's discards between it and the next in turn order (RULES.md §1): across's
    # between across and left, right's between right and across, the one to take between
    # left and you, yours between you and right
    assert m["tdisc"]["cx"] < top["cx"] and m["tdisc"]["cy"] < left["cy"], f"{size}: across's discards: {m['tdisc']}"
    assert m["rdisc"]["cx"] > top["cx"] and m["rdisc"]["cy"] < right["cy"], f"{size}: right's discards: {m['rdisc']}"
    assert m["take"]["cx"] < me["cx"] and m["take"]["cy"] > left["t"], f"{size}: the discard to take: {m['take']}"
    assert m["mine"]["cx"] > me["cx"] and m["mine"]["cy"] > right["t"], f"{size}: your discards: {m['mine']}"
    assert m["centre"]["t"] >= top["t"] and left["cx"] < m["centre"]["cx"] < right["cx"], f"{size}: the centre"


def check_targets(page, size):
    phone = SIZES[size][2]
    targets = page.evaluate(TARGETS, phone)
    assert targets, "no tap targets measured"
    if phone:
        small = [t for t in targets if t["w"] < 44 or t["h"] < 44]
        assert not small, f"{size}: tap targets under 44x44 px: {small}"
    else:
        short = [t for t in targets if t["h"] < 44]
        assert not short, f"{size}: game buttons under 44 px high: {short}"


def test_the_turn_is_one_screen_with_the_seats_around_at_every_size_and_language(browser, live_server_url):
    first = context_for(browser, "1366x800")
    page = first.new_page()
    register(page, live_server_url, "onescreen")
    url = new_solo_table(page, live_server_url, rounds="3")
    state = first.storage_state()
    first.close()
    for size in SIZES:
        for language in LANGUAGES:
            context = context_for(browser, size, storage_state=state)
            set_language(context, live_server_url, language)
            try:
                page = context.new_page()
                page.goto(url)
                # a loaded two-core machine may take a while for the socket's first snapshot
                expect(page.locator("#rack .tile").first).to_be_visible(timeout=45_000)
                expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
                page.wait_for_timeout(300)
                assert page.evaluate("document.documentElement.lang") == language
                assert_one_screen(page, f"turn {size} {language}")
                if language == "en":
                    shot(page, f"one-screen-turn-{size}")
                    m = page.evaluate(LAYOUT)
                    check_layout(m, size)
                    if SIZES[size][2]:
                        assert min(m["tiles"]) >= 44, f"{size}: rack tiles under 44 px wide: {min(m['tiles'])}"
                    check_targets(page, size)
                    # every sheet opens with one tap and is one screen too (on a touch-only
                    # phone "?" opens the rules instead: tests/browser/test_phone_polish.py)
                    sheets = [("#menu-btn", "#table-menu"), ("#chat-btn", "#chat-sheet"),
                              ("#sound-btn", "#sound-sheet")]
                    if not SIZES[size][2]:
                        sheets.append(("#help-btn", "#shortcuts-sheet"))
                    for button, sheet in sheets:
                        page.click(button)
                        expect(page.locator(sheet)).to_be_visible()
                        assert_one_screen(page, f"{sheet} {size}")
                        if size == "390x844":
                            shot(page, f"one-screen-sheet-{sheet[1:]}-{size}")
                        page.keyboard.press("Escape")
                        expect(page.locator(sheet)).to_be_hidden()
            finally:
                context.close()


def test_before_the_start_the_table_is_one_screen(browser, live_server_url):
    owner = context_for(browser, "1366x800")
    page = owner.new_page()
    register(page, live_server_url, "prestartowner")
    page.goto(live_server_url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=online]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    url, state = page.url, owner.storage_state()
    owner.close()
    for size in SIZES:
        for language in LANGUAGES:
            context = context_for(browser, size, storage_state=state)
            set_language(context, live_server_url, language)
            try:
                page = context.new_page()
                page.goto(url)
                expect(page.locator("#start-btn")).to_be_visible(timeout=15_000)
                page.wait_for_timeout(300)
                assert_one_screen(page, f"before the start {size} {language}")
                if language == "en":
                    shot(page, f"one-screen-prestart-{size}")
            finally:
                context.close()


def hold_the_seed_back(context):
    """The context's table sockets carry everything but the `seed` frames: a solo table's
    first deal waits for its player's seed (games/play/seeding.py, at most
    OKEY_SOLO_SEED_CAP, 120 s), so its seeding window stays open while the test looks."""
    def route(ws):
        server = ws.connect_to_server()

        def from_page(message):
            try:
                if json.loads(message).get("type") == "seed":
                    return
            except (TypeError, ValueError):
                pass
            server.send(message)
        ws.on_message(from_page)
    context.route_web_socket(re.compile(r"/ws/table/\d+/"), route)


def test_the_seeding_window_is_one_screen(browser, live_server_url):
    owner = context_for(browser, "1366x800")
    hold_the_seed_back(owner)
    page = owner.new_page()
    register(page, live_server_url, "seedwaiter")
    page.goto(live_server_url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    url, state = page.url, owner.storage_state()
    owner.close()
    window = "() => !!(window.okeyTable && window.okeyTable.state.seeding)"
    for size in SIZES:
        for language in LANGUAGES:
            context = context_for(browser, size, storage_state=state)
            hold_the_seed_back(context)
            set_language(context, live_server_url, language)
            try:
                page = context.new_page()
                page.goto(url)
                page.wait_for_function(window, timeout=15_000)
                expect(page.locator("#table-app .tbl-top")).to_be_visible()
                page.wait_for_timeout(300)
                assert page.evaluate(window), f"{size} {language}: the seeding window closed before the check"
                assert page.locator("#rack .tile").count() == 0, "dealt: the seed went through"
                assert_one_screen(page, f"seeding {size} {language}")
                if language == "en":
                    # the banner says the deal is on its way, not that the match has yet to start
                    expect(page.locator("#turn-status")).to_have_text("Dealing the tiles…")
                    shot(page, f"one-screen-seeding-{size}")
            finally:
                context.close()


def test_the_score_table_and_the_match_over_card_are_one_screen(browser, live_server_url):
    context = context_for(browser, "390x844")
    page = context.new_page()
    try:
        register(page, live_server_url, "matchender")
        new_solo_table(page, live_server_url, rounds="1")
        play_until_round_end(page, time.monotonic() + ROUND_SECONDS)
        racks = page.evaluate(MARKS.replace("SEL", "'#score-table .revealed-rack .tile:not(.joker):not(.wild)'"))
        for size, (w, h, _touch) in SIZES.items():
            page.set_viewport_size({"width": w, "height": h})
            page.wait_for_timeout(200)
            assert_one_screen(page, f"score table {size}")
            shot(page, f"one-screen-end-{size}")
        # the match-over card links to the match's replay
        expect(page.locator("#match-over a#replay-link")).to_be_visible(timeout=20_000)
        href = page.locator("#match-over a#replay-link").get_attribute("href")
        assert re.search(r"/replay/", href), href
        for language in LANGUAGES:
            set_language(context, live_server_url, language)
            page.reload()
            expect(page.locator("#match-over")).to_be_visible(timeout=15_000)
            for size, (w, h, _touch) in SIZES.items():
                page.set_viewport_size({"width": w, "height": h})
                page.wait_for_timeout(150)
                assert_one_screen(page, f"match over {size} {language}")
                if language == "en":
                    shot(page, f"one-screen-match-over-{size}")
        page.goto(live_server_url + href)
        expect(page.locator(".replay-rack .tile").first).to_be_visible(timeout=15_000)
        shot(page, "one-screen-replay")
        # the replay draws the table's tiles, each colour with its mark, as the score table does
        expected = {"R": "●", "B": "■", "K": "▲", "Y": "◆"}
        replay = page.evaluate(MARKS.replace("SEL", "'.replay-rack .tile:not(.joker):not(.wild):not(.false-joker)'"))
        for where, seen in (("score table", racks), ("replay", replay)):
            assert seen, f"no tiles in the {where}"
            wrong = [(c, m) for c, m in seen if c in expected and m != expected[c]]
            assert not wrong, f"{where}: tiles without their colour's mark: {wrong[:5]}"
    finally:
        context.close()
