"""Issue 5 through the UI: a player finishes a short solo match, makes their solo records
public in the settings, then finds the match on their profile and in the solo records.
Screenshots: the leaderboard, the solo records and the profile."""
import os
import re
import subprocess
import sys
import time

from playwright.sync_api import expect

from tests.browser.conftest import ROOT, register, shot
from tests.browser.test_solo_round import ROUND_SECONDS, play_turns_until_round_end

SEED_RATED_MATCHES = """
from django.contrib.auth import get_user_model
from leaderboards import record_result
from tests.leaderboards.helpers import finished_match
User = get_user_model()
me = User.objects.get(username="recordholder")
others = [User.objects.create_user(n, n + "@example.com", "pw-" + n + "-1234") for n in ("ayse", "mehmet", "zeynep")]
for i in range(7):
    seats = [me, others[i % 3], others[(i + 1) % 3], None]
    totals = [[40, 120, 300, 90], [200, 60, 150, 10], [-50, 80, 160, 20]][i % 3]
    record_result(finished_match(seats, totals, minutes=i))
"""


def seed_rated_matches(tmp_path_factory):
    """Store 7 rated online matches of "recordholder" and three others in the running
    server's database, so the leaderboard and the rating chart have something to show."""
    db = tmp_path_factory.getbasetemp() / "server0" / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{db}"
    subprocess.run([sys.executable, "manage.py", "shell", "-c", SEED_RATED_MATCHES], cwd=ROOT, env=env,
                   check=True, stdout=subprocess.DEVNULL)


def test_a_finished_solo_match_shows_on_the_profile_and_in_the_solo_records(page, live_server_url,
                                                                              tmp_path_factory):
    register(page, live_server_url, "recordholder")
    page.goto(live_server_url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    page.select_option("select[name=rounds]", "1")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    table_id = re.search(r"/table/(\d+)/$", page.url).group(1)
    expect(page.locator("#rack .tile").first).to_be_visible(timeout=15_000)
    assert play_turns_until_round_end(page, time.monotonic() + ROUND_SECONDS) >= 1

    # the solo record is private until the player chooses otherwise
    page.goto(live_server_url + "/rankings/okey51/solo/")
    expect(page.locator(".my-record")).to_contain_text("private")
    expect(page.locator("table.ranking")).not_to_contain_text("recordholder")

    page.goto(live_server_url + "/settings/")
    page.fill("input[name=display_name]", "Record Holder")
    page.check("input[name=public_solo_records]")
    page.locator("form.settings-form button[type=submit]").click()
    page.wait_for_load_state("networkidle")

    page.goto(live_server_url + "/rankings/okey51/solo/")
    row = page.locator("table.ranking tbody tr", has_text="Record Holder")
    expect(row).to_have_count(1)
    expect(row.locator("a", has_text="Score table")).to_have_attribute("href", f"/table/{table_id}/match/")
    shot(page, "solo-records")

    seed_rated_matches(tmp_path_factory)
    page.goto(live_server_url + "/rankings/okey51/")
    expect(page.locator("h1")).to_contain_text("ranking")
    expect(page.locator("table.ranking tr.me")).to_contain_text("Record Holder")
    expect(page.locator(".my-position")).to_contain_text("Your position")
    shot(page, "leaderboard")

    page.goto(live_server_url + "/players/me/")
    expect(page.locator("h1")).to_have_text("Record Holder")
    recent = page.locator("table.recent-matches tbody tr", has_text="solo")
    expect(recent).to_contain_text("Okey 51")
    expect(recent.locator("a")).to_have_attribute("href", f"/table/{table_id}/match/")
    expect(page.locator("tr.stats-okey51")).to_be_visible()
    expect(page.locator(".solo-records")).to_contain_text("Okey 51")
    expect(page.locator("svg.rating-chart polyline")).to_have_count(1)
    shot(page, "profile")

    recent.locator("a").click()
    page.wait_for_url(re.compile(rf"/table/{table_id}/match/$"))
