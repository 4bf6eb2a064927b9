"""An arena in real browsers: two players on their own pages (a phone and a desktop) join
an arena made by staff, see each other arrive in the standings without reloading, are
seated together and taken to their table; when the arena is over, the page shows the
podium and the winner's profile the badge. Nothing scrolls sideways at 390 px."""
import json
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT, base_env, register, serve, shot


@pytest.fixture(scope="module")
def arena_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("arena")
    env = base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}", OKEY_SWEEP_INTERVAL="1")
    with serve(workdir, env, name="arena") as url:
        yield url, env


def django(env, code):
    """Run `code` in the server's database (a manage.py shell); returns its printed JSON."""
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, check=True,
                          capture_output=True, text=True, timeout=120)
    return json.loads(done.stdout.strip().splitlines()[-1])


MAKE = """
import json
from datetime import timedelta
from django.utils import timezone
from games.arena.models import Arena
a = Arena.objects.create(name="Friday arena", ruleset="rami", seats=2, minutes=45,
                         starts=timezone.now() - timedelta(minutes=1))
print(json.dumps(a.pk))
"""

END = """
import json
from datetime import timedelta
from django.utils import timezone
from games.arena.models import Arena, ArenaTable
from games.models import Seat, Table
arena = Arena.objects.get(pk={arena})
link = ArenaTable.objects.get(arena=arena)
match = link.table.game.match
seats = dict(Seat.objects.filter(table=link.table, user__isnull=False).values_list("user__username", "index"))
totals = [0, 0]
totals[seats["arenaana"]], totals[seats["arenaben"]] = 30, 120  # rami: the higher total wins
match.totals, match.finished = totals, timezone.now()
match.save(update_fields=["totals", "finished"])
Table.objects.filter(pk=link.table_id).update(status=Table.Status.FINISHED)
Arena.objects.filter(pk=arena.pk).update(starts=timezone.now() - timedelta(minutes=46))
print(json.dumps(link.table_id))
"""


def test_two_players_join_are_seated_together_and_the_winner_gets_the_podium_and_badge(browser, arena_server):
    url, env = arena_server
    arena = django(env, MAKE)
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    desk = browser.new_context(viewport={"width": 1366, "height": 800})
    ana, ben = phone.new_page(), desk.new_page()
    try:
        register(ana, url, "arenaana")
        register(ben, url, "arenaben")
        ana.goto(f"{url}/arena/{arena}/")
        ana.click("#arena-join")
        expect(ana.locator("#arena-standings")).to_contain_text("arenaana")
        assert ana.evaluate("document.documentElement.scrollWidth") <= 390
        shot(ana, "arena-phone-joined")
        ben.goto(f"{url}/arena/{arena}/")
        ben.click("#arena-join")
        # ana's page hears of ben over its socket, and both are taken to their table
        ana.wait_for_url(f"{url}/table/*/", timeout=30_000)
        ben.wait_for_url(f"{url}/table/*/", timeout=30_000)
        assert ana.url == ben.url
        expect(ana.locator("#arena-link")).to_be_visible()
        shot(ana, "arena-phone-table")
        table = django(env, END.format(arena=arena))
        assert ana.url.endswith(f"/table/{table}/")
        for _ in range(30):  # the sweep scores the match, then sets the final ranks
            ben.goto(f"{url}/arena/{arena}/")
            if ben.locator("#arena-podium").count():
                break
            ben.wait_for_timeout(1000)
        expect(ben.locator("#arena-podium li").first).to_contain_text("arenaben")
        shot(ben, "arena-desktop-podium")
        ben.goto(f"{url}/players/arenaben/")
        expect(ben.locator("#arena-badge")).to_be_visible(timeout=10_000)
        ana.goto(f"{url}/arena/{arena}/")
        expect(ana.locator("#arena-standings tbody tr").first).to_contain_text("arenaben")
        assert ana.evaluate("document.documentElement.scrollWidth") <= 390
        shot(ana, "arena-phone-over")
    finally:
        phone.close()
        desk.close()
