"""The lobby's lists on a phone (360 and 390 px wide, touch) in French and Spanish: every
column of an open table (its move time too) and of a running match (its spectators too)
is on screen, the page and the lists never scroll sideways, and each row's Join or Watch
button is within reach. Screenshots go to test-artifacts/."""
import re

import pytest

from tests.browser.conftest import register, shot

# Every cell of the lobby's rows: shown, and inside the screen; and how far the page and
# the lists' own boxes scroll sideways.
MEASURE = """() => {
  const rows = {};
  for (const id of ['open-tables', 'running-tables']) {
    rows[id] = [...document.querySelectorAll(`#${id} tbody tr:not(.empty)`)].map((tr) => [...tr.children].map((td) => {
      const r = td.getBoundingClientRect();
      return {text: td.innerText.trim(), label: td.dataset.label || '', shown: r.width > 0 && r.height > 0,
              left: r.left, right: r.right};
    }));
  }
  const sideways = [...document.querySelectorAll('.list-scroll, .lobby-lists .card')]
    .map((e) => e.scrollWidth - e.clientWidth);
  return {scrollW: document.documentElement.scrollWidth, rows, sideways};
}"""


@pytest.fixture(scope="module")
def tables(browser, live_server_url):
    """An open online table and a running one (started with computers in the free seats).
    The running one is okey17, seven rounds with a pause between them: the computers cannot
    end it while the tests look at it, as they can a one-round okey51 match."""
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    page = context.new_page()
    try:
        for name, start in (("lobby-open-host", False), ("lobby-running-host", True)):
            page.context.clear_cookies()
            register(page, live_server_url, name)
            page.goto(live_server_url + "/")
            page.select_option("select[name=ruleset]", "okey17" if start else "okey51")
            page.check("input[name=mode][value=online]")
            page.locator("form.create-table button[type=submit]").click()
            page.wait_for_url(re.compile(r"/table/\d+/$"))
            if start:
                page.locator("#start-btn").click()
                page.locator("#rack .tile").first.wait_for(timeout=15_000)
    finally:
        context.close()


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_column_of_the_lobby_lists_fits_a_phone(browser, live_server_url, tables, language, width):
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True,
                                  locale=language)
    page = context.new_page()
    try:
        register(page, live_server_url, f"lobby-phone-{language}-{width}")
        page.goto(live_server_url + "/")
        page.locator("#running-tables tbody tr:not(.empty)").first.wait_for()
        page.locator("#open-tables tbody tr:not(.empty) button").first.wait_for()
        page.locator("#running-tables").scroll_into_view_if_needed()
        m = page.evaluate(MEASURE)
        shot(page, f"lobby-phone-{language}-{width}")
        assert m["scrollW"] <= width, f"the page scrolls sideways: {m['scrollW']} > {width}"
        assert max(m["sideways"]) <= 0, f"a list scrolls sideways inside its card: {m['sideways']}"
        for table, rows in m["rows"].items():
            assert rows, f"{table} lists nothing"
            for cells in rows:
                assert len(cells) == 6
                hidden = [c for c in cells[:5] if not c["shown"]]
                assert not hidden, f"{table}: a column is not shown: {hidden}"
                off = [c for c in cells if c["shown"] and (c["left"] < 0 or c["right"] > width)]
                assert not off, f"{table}: past the screen's edge: {off}"
                # the fifth column, titled as the header says it in this language
                assert cells[4]["label"] and cells[4]["text"], cells[4]
        assert re.fullmatch(r"\d+ s", m["rows"]["open-tables"][0][4]["text"])
        assert re.fullmatch(r"\d+", m["rows"]["running-tables"][0][4]["text"])
    finally:
        context.close()
