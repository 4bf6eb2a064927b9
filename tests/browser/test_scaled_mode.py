"""The scaled set-up of the README: PostgreSQL database, Redis channel layer and broker,
daphne and a separate ``celery worker`` process. A solo okey51 table is played through the
browser; the three computers' turns can only happen through the separate worker."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import REFUSAL, register, scaled_site, shot, table_version, wait_for_answer


@pytest.fixture
def scaled_server_url(tmp_path):
    with scaled_site(tmp_path, "scaled", OKEY_BOT_DELAY="0.5") as url:
        yield url



def test_computers_play_through_a_separate_worker(page, scaled_server_url):
    register(page, scaled_server_url, "scaler")
    page.goto(scaled_server_url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))

    # We deal first (15 tiles): discard one, then the three computers must play their turns.
    expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=15_000)
    tiles = page.locator("#rack .tile")
    expect(tiles).to_have_count(15)
    tiles.last.click()
    before = table_version(page)
    page.click("#discard-btn")
    wait_for_answer(page, before)
    expect(page.locator(REFUSAL)).to_have_count(0)
    # The turn comes back to us only after the worker played three computer turns.
    expect(page.locator("#turn-status.my-turn")).to_have_count(1, timeout=30_000)
    expect(tiles).to_have_count(14)
    shot(page, "scaled-table")
