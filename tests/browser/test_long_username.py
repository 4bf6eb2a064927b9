"""A player whose username is as long as the sign-up form allows (30 characters, one
word) still gets pages that fit a phone (390x844, touch): the header's name ends in "…"
with the whole name in its title, the sign-in message wraps, and no page scrolls sideways;
their online table's seats fit, its row in the lobby keeps its Join button on screen, and
a watcher reads the whole "… is playing" line while it is their turn.
Screenshots go to test-artifacts/."""
import re

from accounts.guest_signup import USERNAME_MAX_LENGTH
from tests.browser.conftest import register, shot
from tests.browser.test_table_fit import SIZES

NAME = "L" * USERNAME_MAX_LENGTH
PHONE_WIDTH = SIZES["phone"]["width"]

WIDE = """() => ({scrollW: document.documentElement.scrollWidth,
  nav: (() => { const a = document.querySelector('.site-nav .nav-user');
    return a && {title: a.title, right: a.getBoundingClientRect().right}; })()})"""


def test_a_very_long_username_does_not_widen_the_pages_of_a_phone(browser, live_server_url):
    context = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        register(page, live_server_url, NAME, email="longname@example.com")
        for path, name in (("", "lobby"), ("/players/me/", "profile")):
            if path:
                page.goto(live_server_url + path)
            m = page.evaluate(WIDE)
            shot(page, f"long-username-{name}-phone")
            # a mobile browser widens its layout viewport (innerWidth) to the page: compare with the screen
            assert m["scrollW"] <= PHONE_WIDTH, f"{name}: {m['scrollW']} px wide on a {PHONE_WIDTH} px phone"
            assert m["nav"] and m["nav"]["title"] == NAME and m["nav"]["right"] <= PHONE_WIDTH, m["nav"]
        page.goto(live_server_url + "/")
        page.check("input[name=mode][value=online]")
        page.locator("form.create-table button[type=submit]").click()
        page.wait_for_url(re.compile(r"/table/\d+/$"))
        page.locator("#prestart-seats li.me").wait_for()
        width = page.evaluate("document.documentElement.scrollWidth")
        shot(page, "long-username-prestart-phone")
        assert width <= PHONE_WIDTH, f"the waiting table is {width} px wide on a {PHONE_WIDTH} px phone"
        page.goto(live_server_url + "/")
        # the lobby's socket may redraw the rows: measure the button in the page itself
        page.locator("#open-tables tbody tr button[type=submit]").first.wait_for()
        right = page.evaluate("document.querySelector('#open-tables tbody tr button[type=submit]')"
                              ".getBoundingClientRect().right")
        shot(page, "long-username-open-tables-phone")
        assert right <= PHONE_WIDTH, f"the Join button ends at {right} px, past the {PHONE_WIDTH} px screen"
        page.goto(f"{live_server_url}/table/{page.locator('#open-tables tbody tr td').first.inner_text()}/")
        page.locator("#start-btn").click()
        page.locator("#rack .tile").first.wait_for(timeout=15_000)
        # the computers may play first: open the watcher once it is the player's turn, which
        # lasts the move time (30 s), long enough to look
        page.locator("#turn-status.my-turn").wait_for(timeout=90_000)
        watcher = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
        try:
            watch = watcher.new_page()
            watch.goto(page.url)
            watch.wait_for_function("(n) => document.querySelector('#turn-status')?.textContent.includes(n)",
                                    arg=NAME, timeout=30_000)
            status = watch.evaluate("(() => { const e = document.querySelector('#turn-status');"
                                    " return {right: e.getBoundingClientRect().right, scroll: e.scrollWidth,"
                                    " client: e.clientWidth}; })()")
            shot(watch, "long-username-watcher-phone")
            assert status["right"] <= PHONE_WIDTH and status["scroll"] <= status["client"] + 1, \
                f"the turn line is cut off: {status}"
        finally:
            watcher.close()
    finally:
        context.close()
