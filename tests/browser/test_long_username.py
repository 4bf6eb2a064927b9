"""A player whose username is as long as the sign-up form allows (150 characters, one
word) still gets pages that fit a phone (390x844, touch): the header's name ends in "…"
with the whole name in its title, the sign-in message wraps, and no page scrolls sideways.
Screenshots go to test-artifacts/."""
from tests.browser.conftest import shot
from tests.browser.test_table_fit import SIZES

NAME = "L" * 150
PASSWORD = "tiles-and-racks-42"
PHONE_WIDTH = SIZES["phone"]["width"]

WIDE = """() => ({scrollW: document.documentElement.scrollWidth,
  nav: (() => { const a = document.querySelector('.site-nav .nav-user');
    return a && {title: a.title, right: a.getBoundingClientRect().right}; })()})"""


def test_a_very_long_username_does_not_widen_the_pages_of_a_phone(browser, live_server_url):
    context = browser.new_context(viewport=SIZES["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server_url}/accounts/signup/")
        page.fill("input[name=email]", "longname@example.com")
        page.fill("input[name=username]", NAME)
        page.fill("input[name=password1]", PASSWORD)
        if page.locator("input[name=password2]").count():
            page.fill("input[name=password2]", PASSWORD)
        page.locator("form button[type=submit]").last.click()
        page.wait_for_load_state("networkidle")
        for path, name in (("", "lobby"), ("/players/me/", "profile")):
            if path:
                page.goto(live_server_url + path)
            m = page.evaluate(WIDE)
            shot(page, f"long-username-{name}-phone")
            # a mobile browser widens its layout viewport (innerWidth) to the page: compare with the screen
            assert m["scrollW"] <= PHONE_WIDTH, f"{name}: {m['scrollW']} px wide on a {PHONE_WIDTH} px phone"
            assert m["nav"] and m["nav"]["title"] == NAME and m["nav"]["right"] <= PHONE_WIDTH, m["nav"]
    finally:
        context.close()
