"""The rules pages in headless Chromium on a touch phone (390×844) and a desktop (1366×800):
reachable from the nav, nothing wider than the screen in any language (wide tables scroll
inside their own box), one screenshot per page and device in test-artifacts/."""
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shot

DEVICES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
    "desktop": {"viewport": {"width": 1366, "height": 800}},
}
PAGES = {"index": "/rules/", "okey51": "/rules/okey51/", "okey17": "/rules/okey17/", "rami": "/rules/rami/"}

# Elements that stick out to the right of the screen, except inside a box that scrolls itself.
STICKING_OUT = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')]
    .filter(el => !el.closest('.scroll') && el.getBoundingClientRect().right > width + 1)
    .map(el => el.outerHTML.slice(0, 120));
}"""


def fits_the_screen(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate("window.innerWidth")
    assert page.evaluate(STICKING_OUT) == []


@pytest.mark.parametrize("device", DEVICES)
def test_the_rules_pages_fit_the_screen_and_are_linked_from_the_nav(browser, live_server_url, device):
    context = browser.new_context(**DEVICES[device], locale="en-GB")
    page = context.new_page()
    page.goto(live_server_url + "/")
    page.locator(".site-nav a", has_text="Rules").click()
    expect(page.locator("h1")).to_have_text("Rules of the games")
    for name, path in PAGES.items():
        page.goto(live_server_url + path)
        expect(page.locator(".rules")).to_be_visible()
        fits_the_screen(page)
        if name != "index":
            assert page.locator("figure.rx").count() > 10
            assert page.locator(".rules-toc li").count() >= 7
        shot(page, f"rules-{name}-{device}")
    context.close()


@pytest.mark.parametrize("language", ["fr", "es", "tr"])
def test_every_language_fits_a_phone(browser, live_server_url, language):
    context = browser.new_context(**DEVICES["phone"], locale=language)
    page = context.new_page()
    for name, path in PAGES.items():
        page.goto(live_server_url + path)
        expect(page.locator("html")).to_have_attribute("lang", language)
        fits_the_screen(page)
        if name == "okey51":
            shot(page, f"rules-okey51-phone-{language}")
    context.close()
