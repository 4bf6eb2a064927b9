"""Results players can trust, in the browser (games.results, docs/results.md): the profile
and the match page of a player who left show them last, without ★, marked "left"; the
players a computer played after timeouts while their page stayed open are rated by their
place; at a running table the leaver's seat reads "left". Screenshots: leaver-profile,
leaver-match, left-seat."""
import os
import re
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import ROOT, shot

SEED = """
import json
from django.contrib.auth import get_user_model
from games.play import presence, tables
from leaderboards.models import RatingChange
from leaderboards.recording import record_result
from tests.leaderboards.helpers import finished_match
User = get_user_model()
users = {n: User.objects.create_user(n, n + "@example.com", "pw-" + n + "-1234") for n in ("leaver", "dozer", "steady")}
# 3 humans at okey51: leaver chose Leave (the computer played the seat to a 175 total:
# here the best one), dozer let the computer play after timeouts with the page open
match = finished_match([users["leaver"], users["dozer"], users["steady"], None], [-175, 40, 210, 120],
                       abandoned={0}, autoplay={1})
record_result(match)
# a running table where "leaver" chose Leave: the others see the seat
table = tables.create_table(users["steady"], "okey51", {"rounds": 1}, mode="online", move_time=600)
tables.join_table(users["dozer"], table.pk)
tables.join_table(users["leaver"], table.pk)
tables.start_match(users["steady"], table.pk)
tables.leave_match(users["leaver"], table.pk)
changes = {c.user.username: [c.place, c.abandoned, c.delta] for c in RatingChange.objects.filter(match=match)}
print(json.dumps({"match_table": match.table_id, "running": table.pk, "changes": changes}))
"""


def seed(tmp_path_factory):
    db = tmp_path_factory.getbasetemp() / "server0" / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{db}"
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SEED], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    import json

    return json.loads(out.strip().splitlines()[-1])


def log_in(page, base_url, name):
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", f"pw-{name}-1234")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state("networkidle")
    assert "/accounts/login/" not in page.url


def test_a_leaver_is_last_everywhere_and_a_dozing_player_is_rated_by_place(page, live_server_url, tmp_path_factory):
    seeded = seed(tmp_path_factory)
    table_id = seeded["match_table"]
    changes = seeded["changes"]
    # the ratings: the leaver last and abandoned; the dozer rated as a normal second place
    assert changes["leaver"][:2] == [3, True]
    assert changes["dozer"][:2] == [1, False] and changes["dozer"][2] > 0
    assert changes["steady"][:2] == [2, False]

    page.goto(f"{live_server_url}/players/leaver/")
    row = page.locator("table.recent-matches tbody tr").first
    expect(row.locator("td.place")).to_contain_text("4")
    expect(row.locator("td.place")).to_contain_text("left")
    expect(row.locator("td.place")).not_to_contain_text("★")
    expect(page.locator("tr.stats-okey51 td").nth(2)).to_have_text("0")  # wins
    expect(page.locator("table.ratings tbody tr").first.locator("td").nth(3)).to_have_text("0")
    shot(page, "leaver-profile")

    page.goto(f"{live_server_url}/players/dozer/")
    dozer = page.locator("table.recent-matches tbody tr").first
    expect(dozer.locator("td.place")).to_have_text("1 ★")
    expect(dozer.locator("td").nth(5)).to_have_text(re.compile(r"^\+\d+$"))  # the rating moved up

    page.goto(f"{live_server_url}/table/{table_id}/match/")
    rows = page.locator("tr.standing")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("dozer")
    expect(rows.first.locator("td.rank")).to_have_text("1 ★")
    expect(rows.last).to_contain_text("leaver")
    expect(rows.last).to_contain_text("left")
    expect(rows.last.locator("td.rank")).not_to_contain_text("★")
    shot(page, "leaver-match")

    # at the running table, the seat of the player who left reads "left", not "a computer plays for now"
    log_in(page, live_server_url, "steady")
    page.goto(f"{live_server_url}/table/{seeded['running']}/")
    card = page.locator(".seat-card", has_text="leaver")
    expect(card.locator(".who-label")).to_have_text("left", timeout=15_000)
    shot(page, "left-seat")
