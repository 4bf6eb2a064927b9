"""An arena in real browsers: two players on their own pages (a phone and a desktop) join
an arena made by staff, see each other arrive in the standings without reloading, are
seated together and taken to their table; when the arena is over, the page shows the
podium and the winner's profile the badge. Nothing scrolls sideways at 390 px."""
import json
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT, base_env, register, serve, shot


@pytest.fixture(scope="module")
def arena_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("arena")
    # a busy machine loads four pages slowly: the deal still comes as soon as their four seeds are in
    env = base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}", OKEY_SWEEP_INTERVAL="1",
                   OKEY_ARENA_SEED_WAIT="90")
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
        shot(ana, "arena-phone-table")
        ana.click("#menu-btn")     # back to the standings: in the menu sheet
        expect(ana.locator("#arena-link")).to_be_visible()
        ana.keyboard.press("Escape")
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


FOUR = ("arenaqa", "arenaqb", "arenaqc", "arenaqd")

MAKE_FOUR = """
import json
from datetime import timedelta
from django.utils import timezone
from games.arena.models import Arena
a = Arena.objects.create(name="Four humans", ruleset="okey51", seats=4, minutes=45, move_time=30,
                         starts=timezone.now() - timedelta(minutes=1))
print(json.dumps(a.pk))
"""

# The first deal of the four's table: the client seeds it was dealt with ([] before the deal).
SEEDS = """
import json
from games.arena.models import ArenaTable
from games.models import Round
link = ArenaTable.objects.get(arena_id={arena})
dealt = Round.objects.filter(match__table_id=link.table_id, index=0, initial_position__isnull=False)
print(json.dumps([list(seeds) for seeds in dealt.values_list("client_seeds", flat=True)]))
"""

# Once the four sit at their table and have each played a turn: their move time drops to 1 s, so that two timeouts put
# every seat on autoplay (RULES.md §6) and the computers finish the round at their test
# speed; the arena's end comes 10 s from now, past its last pairing, so the match that
# runs over the end scores when it finishes.
SHORTEN = """
import json
from datetime import timedelta
from django.utils import timezone
from games.arena.models import Arena, ArenaTable
from games.models import Table
arena = Arena.objects.get(pk={arena})
[link] = ArenaTable.objects.filter(arena=arena)
Table.objects.filter(pk=link.table_id).update(move_time=1)
Arena.objects.filter(pk=arena.pk).update(starts=timezone.now() - timedelta(minutes=arena.minutes, seconds=-10))
print(json.dumps(link.table_id))
"""


def test_four_humans_play_an_arena_match_watched_live_to_the_podium_and_badge(browser, arena_server):
    url, env = arena_server
    arena = django(env, MAKE_FOUR)
    watcher_context = browser.new_context(viewport={"width": 1366, "height": 800})
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)]
    contexts += [browser.new_context(viewport={"width": 1024, "height": 760}) for _ in FOUR[1:]]
    try:
        watcher = watcher_context.new_page()  # signed out: the standings only
        watcher.goto(f"{url}/arena/{arena}/")
        players = [context.new_page() for context in contexts]
        for page, name in zip(players, FOUR):
            register(page, url, name)
        for page, name in zip(players, FOUR):
            page.goto(f"{url}/arena/{arena}/")
            page.click("#arena-join")
            expect(watcher.locator("#arena-standings")).to_contain_text(name)  # live, no reload
        for page in players:  # the sweep seats the four together; each page opens the table
            page.wait_for_url(f"{url}/table/*/", timeout=30_000)
        assert len({page.url for page in players}) == 1
        # the table started before their pages opened it: its deal waited for the four seeds
        for _ in range(20):
            dealt = django(env, SEEDS.format(arena=arena))
            if dealt:
                break
            players[0].wait_for_timeout(500)
        [seeds] = dealt
        assert len(seeds) == 4 and all(len(seed) == 32 for seed in seeds), seeds
        # each human plays their first turn on their own page: draw (unless they start with
        # 15 tiles) and discard, and the turn passes on
        played = set()
        for _ in range(8):
            if len(played) == 4:
                break
            mover = None
            for _wait in range(100):
                mover = next((k for k, page in enumerate(players) if k not in played
                              and page.locator("#turn-status.my-turn").count()), None)
                if mover is not None:
                    break
                players[0].wait_for_timeout(200)
            assert mover is not None, "no human's turn came"
            page, tiles = players[mover], players[mover].locator("#rack .tile")
            if tiles.count() == 14:
                page.click("#pile")
                expect(tiles).to_have_count(15, timeout=10_000)
            tiles.last.click()
            expect(tiles.last).to_have_class(re.compile(r"\bselected\b"))
            page.click("#discard-btn")
            expect(tiles).to_have_count(14, timeout=30_000)
            expect(page.locator("#turn-status.my-turn")).to_have_count(0, timeout=30_000)
            played.add(mover)
        assert played == {0, 1, 2, 3}
        table = django(env, SHORTEN.format(arena=arena))
        assert players[0].url.endswith(f"/table/{table}/")
        assert players[0].evaluate("document.documentElement.scrollWidth") <= 390
        shot(players[0], "arena-four-table-phone")
        # the match plays out (timeouts, then the computers for the sleepers); once it is
        # scored the watcher's standings change live: 4 / 2 / 1 / 0, one match each
        cells = watcher.locator("#arena-standings tbody tr")
        expect(cells.locator("td:nth-child(4)")).to_have_text(["1", "1", "1", "1"], timeout=90_000)
        expect(cells.locator("td:nth-child(3)")).to_have_text(["4", "2", "1", "0"])
        winner = cells.first.locator("td").nth(1).inner_text().strip()
        assert winner in FOUR
        shot(watcher, "arena-four-standings-live")
        for _ in range(30):  # over, every match scored: the sweep sets the final ranks
            watcher.goto(f"{url}/arena/{arena}/")
            if watcher.locator("#arena-podium").count():
                break
            watcher.wait_for_timeout(1000)
        podium = watcher.locator("#arena-podium li")
        expect(podium).to_have_count(3)
        expect(podium.first).to_contain_text(winner)
        players[0].goto(f"{url}/arena/{arena}/")
        expect(players[0].locator("#arena-podium")).to_be_visible()
        assert players[0].evaluate("document.documentElement.scrollWidth") <= 390
        shot(players[0], "arena-four-podium-phone")
        watcher.goto(f"{url}/players/{winner}/")
        expect(watcher.locator("#arena-badge")).to_be_visible()
        watcher.goto(f"{url}/players/{next(n for n in FOUR if n != winner)}/")
        expect(watcher.locator("#arena-badge")).to_have_count(0)
    finally:
        watcher_context.close()
        for context in contexts:
            context.close()


SOON = """
import json
from datetime import timedelta
from django.utils import timezone
from games.arena.models import Arena
a = Arena.objects.create(name="Soon arena", ruleset="okey17", seats=4, minutes=45,
                         starts=timezone.now() + timedelta(minutes=3))
print(json.dumps(a.pk))
"""

LONE_HUMAN = {  # the rules index's arena rules, in each language: alone with computers you place 1st
    "en": "alone with computers, you place 1st",
    "fr": "seul avec des ordinateurs, vous êtes 1er",
    "es": "solo con ordenadores, quedas 1.º",
    "tr": "bilgisayarlarla yalnızsanız 1. olursunuz",
}


def test_the_lobby_counts_down_to_the_next_arena_and_the_rules_say_a_lone_human_places_first(browser, arena_server):
    url, env = arena_server
    arena = django(env, SOON)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(f"{url}/")
        row = page.locator("#lobby-arenas li", has=page.locator(f"a[href='/arena/{arena}/']"))
        countdown = row.locator(".countdown")
        expect(countdown).to_have_text(re.compile(r"starts in [23]:\d\d"))
        first = countdown.inner_text()
        expect(countdown).not_to_have_text(first, timeout=3000)  # it ticks, no reload
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "arena-lobby-countdown-phone")
        for language, words in LONE_HUMAN.items():
            context.set_extra_http_headers({"Accept-Language": language})
            page.goto(f"{url}/rules/")
            expect(page.locator(".arena-rules")).to_contain_text(words)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
