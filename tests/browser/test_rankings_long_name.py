"""The rankings fit a phone (390x844, touch) when a player's display name is one 40-letter
word (as long as the settings allow): the name wraps in its cell, so the rating and match
columns of both lists, the ranked players and the provisional ones, stay on screen instead
of past the card's scrolled-off edge. Screenshot: rankings-long-name-phone."""
import json
import os
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import ROOT, shot

NAME = "W" * 40

SEED = f"""
import json
from django.contrib.auth import get_user_model
from accounts.player_settings import PlayerSettings
from leaderboards.recording import record_result
from tests.leaderboards.helpers import finished_match
User = get_user_model()
users = {{n: User.objects.create_user(n, n + "@example.com", "pw-" + n + "-1234")
         for n in ("wideranked", "other", "wideprov")}}
for n in ("wideranked", "wideprov"):
    PlayerSettings.objects.filter(pk=PlayerSettings.for_user(users[n]).pk).update(display_name="{NAME}")
# five rated matches rank a player; one leaves them provisional
for k in range(5):
    record_result(finished_match([users["wideranked"], users["other"], None, None], [40, 210, 120, 300], minutes=k))
record_result(finished_match([users["wideprov"], users["other"], None, None], [40, 210, 120, 300], minutes=9))
print(json.dumps({{"ok": True}}))
"""

WIDTHS = """() => [...document.querySelectorAll('section.card table.list')].map((t) => ({
  table: Math.round(t.getBoundingClientRect().width), card: t.closest('.card').clientWidth,
  rows: t.querySelectorAll('tbody tr:not(.empty)').length}))"""


def test_a_one_word_display_name_keeps_the_rankings_on_a_phone(browser, live_server_url, tmp_path_factory):
    db = tmp_path_factory.getbasetemp() / "server0" / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{db}"
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SEED], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out.strip().splitlines()[-1])["ok"]
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server_url}/rankings/okey51/")
        expect(page.get_by_text(NAME[:20]).first).to_be_visible()
        shot(page, "rankings-long-name-phone")
        lists = page.evaluate(WIDTHS)
        assert [t["rows"] > 0 for t in lists] == [True, True], lists  # a ranked and a provisional row
        wide = [t for t in lists if t["table"] > t["card"]]
        assert not wide, f"a list is wider than its card on a 390 px phone: {wide}"
    finally:
        context.close()
