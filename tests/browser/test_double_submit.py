"""A double click (or a double tap) on a button that posts a form sends the form once: the
lobby's "Create the table" pressed twice made two tables, the player seated at both and
left at the second while the first waited in the lobby for players who would find
nobody there."""
import re
import time

from playwright.sync_api import expect

from tests.browser.conftest import register


def test_a_double_click_on_create_the_table_posts_the_form_once(page, live_server_url):
    register(page, live_server_url, "doubleclicker")
    page.goto(live_server_url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=online]")
    posted = []

    def slow_answer(route):
        # the server's answer comes late, as on a phone's slow connection, so the second
        # tap lands while the first request is still on its way
        posted.append(route.request.method)
        response = route.fetch(max_redirects=0)
        time.sleep(0.8)
        route.fulfill(response=response)

    page.route(re.compile(r"/tables/new/$"), slow_answer)
    page.evaluate("""() => {
        const button = document.querySelector("form.create-table button[type=submit]");
        button.click();
        setTimeout(() => button.click(), 300);
    }""")
    # the first navigation, cut short by a second one, is no failure: the page's address is
    expect(page).to_have_url(re.compile(r"/table/\d+/$"), timeout=30_000)
    page.wait_for_timeout(1000)
    assert len(posted) == 1, posted
    page.goto(live_server_url + "/")
    mine = page.locator("h2", has_text="My current tables").locator("xpath=..").locator("li a")
    assert mine.count() == 1, mine.all_inner_texts()
