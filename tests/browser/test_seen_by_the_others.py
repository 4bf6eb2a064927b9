"""What the other players see, in the browser: when a computer plays the turn of a
player whose page closed (RULES.md §6, D-16), their last-action line says the computer
played for that player; on a rematch table every invited player is named at a seat with
their answer (waiting, accepted, declined), updated live on the open page as each one
answers. Screenshots: computer-played-for, rematch-answers."""
import json
import os
import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT, base_env, play_now_together, serve, shot

QUICK_WAIT = 5
PASSWORD = "tiles-and-racks-42"
REMATCH_PLAYERS = ("offerer", "accepter", "decliner", "silent")

# A finished online okey51 match of the four rematch players (the timers played out as the
# worker would: every seat timed out, then the computers played it to the end).
SEED = """
import json
from django.contrib.auth import get_user_model
from tests.games.play.helpers import online_table, play_out
User = get_user_model()
users = [User.objects.create_user(n, n + "@example.com", "%s") for n in %r]
table = online_table(users[0], *users[1:], options={"rounds": 1})
play_out(table)
table.refresh_from_db()
print(json.dumps({"table": table.pk, "status": table.status}))
""" % (PASSWORD, REMATCH_PLAYERS)


@pytest.fixture(scope="module")
def others_server(tmp_path_factory):
    """The embedded server with a short Play now wait, a 1 s disconnect grace and a long
    rematch answer time (the test sees every answer before the rematch starts); yields
    (url, database URL)."""
    workdir = tmp_path_factory.mktemp("others")
    database = f"sqlite:///{workdir / 'db.sqlite3'}"
    env = base_env(DATABASE_URL=database, OKEY_QUICK_MATCH_WAIT=str(QUICK_WAIT), OKEY_DISCONNECT_GRACE="1",
                   OKEY_REMATCH_WAIT="300")
    with serve(workdir, env, name="others") as url:
        yield url, database


def new_page(browser, width=1280, height=900):
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def log_in(page, base_url, name):
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state("networkidle")
    assert "/accounts/login/" not in page.url


def test_the_others_read_that_the_computer_played_for_a_player_whose_page_closed(browser, others_server):
    url, _database = others_server
    gone, stayer = new_page(browser), new_page(browser, 390, 844)
    play_now_together(url, ((gone, "gonehuman"), (stayer, "stayhuman")))
    for page in (gone, stayer):
        expect(page.locator("#rack .tile").first).to_be_visible(timeout=(QUICK_WAIT + 20) * 1000)
    # seat 0 (the first to press Play now) starts the round; its page closes on turn
    expect(gone.locator("#turn-status.my-turn")).to_be_visible(timeout=10_000)
    # every text the line takes is kept: the computers' turns after it replace it soon
    stayer.evaluate("""() => {
      const line = document.getElementById("last-action");
      window.__lines = [line.textContent];
      new MutationObserver(() => window.__lines.push(line.textContent))
        .observe(line, { childList: true, characterData: true, subtree: true });
    }""")
    assert not any("gonehuman" in t for t in stayer.evaluate("window.__lines"))
    gone.context.close()
    # after the disconnect grace the computer discards for the absent player
    stayer.wait_for_function("() => window.__lines.some((t) => /^The computer .* for gonehuman/.test(t))",
                             timeout=15_000)
    lines = [t for t in stayer.evaluate("window.__lines") if "gonehuman" in t]
    assert lines and all(t.startswith("The computer ") for t in lines), lines  # never as if the player moved
    print("the others read:", lines)
    shot(stayer, "computer-played-for")
    stayer.context.close()


def test_the_rematch_table_names_the_invited_players_and_their_answers_live(browser, others_server):
    url, database = others_server
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = database
    seeded = json.loads(subprocess.run([sys.executable, "manage.py", "shell", "-c", SEED], cwd=ROOT, env=env,
                                       check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
    assert seeded["status"] == "finished"
    old = seeded["table"]
    pages = {}
    for name in REMATCH_PLAYERS:
        pages[name] = new_page(browser, *((390, 844) if name == "offerer" else (1280, 900)))
        log_in(pages[name], url, name)
    offerer = pages["offerer"]
    offerer.goto(f"{url}/table/{old}/")
    offerer.click("#rematch-btn")
    offerer.wait_for_url(lambda u: re.search(r"/table/(\d+)/$", u) is not None and f"/table/{old}/" not in u)
    seats = offerer.locator("#prestart-seats")

    def seat_of(name):
        return seats.locator("li", has_text=name)

    # every invited player is named at a seat, none reads "free seat"
    for name in ("accepter", "decliner", "silent"):
        expect(seat_of(name)).to_have_count(1, timeout=10_000)
        expect(seat_of(name)).to_contain_text("waiting for an answer")
    expect(seats).not_to_contain_text("free seat")
    # the answers arrive on the offerer's open page, never reloaded
    offerer.evaluate("window.__notReloaded = true")
    for name in ("accepter", "decliner"):
        pages[name].goto(f"{url}/table/{old}/")
    pages["decliner"].click("#rematch-decline")
    expect(seat_of("decliner")).to_contain_text("declined: a computer takes the seat", timeout=10_000)
    expect(seat_of("accepter")).to_contain_text("waiting for an answer")
    pages["accepter"].click("#rematch-accept")
    expect(seat_of("accepter")).to_contain_text("accepted", timeout=10_000)
    expect(seat_of("decliner")).to_contain_text("declined")
    expect(seat_of("silent")).to_contain_text("waiting for an answer")
    assert offerer.evaluate("window.__notReloaded") is True
    # the accepter's own page, opened after the answers, reads the same
    accepter_seats = pages["accepter"].locator("#prestart-seats")
    expect(accepter_seats.locator("li", has_text="decliner")).to_contain_text("declined")
    expect(accepter_seats.locator("li", has_text="silent")).to_contain_text("waiting for an answer")
    shot(offerer, "rematch-answers")
    for page in pages.values():
        page.context.close()
