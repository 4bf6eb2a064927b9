"""A player whose display name is as long as the settings allow (40 characters, one word of
wide letters) keeps a playable table on a phone (390x844, touch) and a tablet (768x1024): the
side seats keep their width and the player's own seat stays between the take and discard
zones instead of covering them; once they opened, the area of their melds, headed by the name,
stays as wide as the table. Screenshots go to test-artifacts/."""
import json
import os
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT, register, shot
from tests.browser.test_rulesets_round import MY_TURN, create_solo_table

NAME = "W" * 40

BOXES = """() => Object.fromEntries([
  ['left', '.seat-card[data-pos="left"]'], ['right', '.seat-card[data-pos="right"]'],
  ['me', '.seat-card[data-pos="bottom"]'], ['take', '#take-box'], ['discard', '#discard-box'],
].map(([k, s]) => { const r = document.querySelector(s).getBoundingClientRect();
  return [k, {left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: r.width}]; }))"""


def overlaps(a, b):
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 768, "height": 1024}])
def test_a_long_display_name_leaves_the_seats_and_the_piles_in_place(browser, live_server_url, size):
    context = browser.new_context(viewport=size, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        register(page, live_server_url, f"longdisplay{size['width']}")
        page.goto(live_server_url + "/settings/")
        page.fill("input[name=display_name]", NAME)
        page.locator("main form button[type=submit]").first.click()
        page.wait_for_url(live_server_url + "/settings/")
        create_solo_table(page, live_server_url, "okey51")
        expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
        expect(page.locator('.seat-card[data-pos="bottom"] .seat-name')).to_contain_text("WWWW")
        page.wait_for_timeout(300)
        boxes = page.evaluate(BOXES)
        shot(page, f"long-display-name-{size['width']}")
        for side in ("left", "right"):
            assert boxes[side]["w"] >= 60, f"the {side} seat shrank to {boxes[side]['w']} px: {boxes}"
            assert 0 <= boxes[side]["left"] and boxes[side]["right"] <= size["width"], boxes
        for zone in ("take", "discard"):
            assert not overlaps(boxes["me"], boxes[zone]), f"the player's seat covers the {zone} zone: {boxes}"
    finally:
        context.close()


# A solo table whose player has opened: the computer plays the player's timed-out turns from a
# fixed deal until the seat has opened with melds (tests.games.play.helpers), in the server's
# own database.
SEED = f"""
import json
from django.contrib.auth import get_user_model
from accounts.player_settings import PlayerSettings
from tests.games.play.helpers import play_out, solo_table
user = get_user_model().objects.create_user("longmelds", "longmelds@example.com", "pw-longmelds-1234")
PlayerSettings.objects.filter(pk=PlayerSettings.for_user(user).pk).update(display_name="{NAME}")
# the round's course is not the same in every run (a round of 27 moves was seen), and the
# player's seat may open with pairs, or not at all, in a round (a whole match of three rounds
# without melds was seen once): up to four matches of three rounds, until the seat opens
for _match in range(4):
    table = solo_table(user, options={{"rounds": 3}})
    game = play_out(table, until=lambda g: g.position["seats"][0]["opened"] == "melds")
    if game.position["seats"][0]["opened"] == "melds":
        break
print(json.dumps({{"table": table.pk, "opened": game.position["seats"][0]["opened"]}}))
"""


def test_the_melds_of_a_long_display_name_stay_on_a_phone(browser, live_server_url, tmp_path_factory):
    db = tmp_path_factory.getbasetemp() / "server0" / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DATABASE_URL=f"sqlite:///{db}", OKEY_SEED_WINDOW="0")
    out = subprocess.run([sys.executable, "manage.py", "shell", "-c", SEED], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    seeded = json.loads(out.strip().splitlines()[-1])
    assert seeded["opened"] == "melds", seeded
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(f"{live_server_url}/accounts/login/")
        page.fill("input[name=login]", "longmelds")
        page.fill("input[name=password]", "pw-longmelds-1234")
        page.locator("form button[type=submit]").last.click()
        page.wait_for_load_state("networkidle")
        page.goto(f"{live_server_url}/table/{seeded['table']}/")
        area = page.locator("#table-melds .owner-area", has_text="WWWW")
        expect(area).to_be_visible(timeout=15_000)
        shot(page, "long-display-name-melds-390")
        right = page.evaluate("""() => { const a = [...document.querySelectorAll('#table-melds .owner-area')]
          .find((e) => e.textContent.includes('WWWW')); const m = document.querySelector('#table-melds');
          return {area: a.getBoundingClientRect().right, melds: m.getBoundingClientRect().right,
                  screen: innerWidth}; }""")
        assert right["area"] <= min(right["melds"], right["screen"]) + 0.5, \
            f"the melds' area runs past the table: {right}"
    finally:
        context.close()
