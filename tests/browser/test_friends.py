"""Playing with friends through the UI, with two or three real users on the real server:
a private table joined from its invite link by a friend who signs up on the way; "Play
now" starting with computers after the wait; a player who leaves mid-match, whose seat a
computer plays to the end and who is rated last, while an anonymous visitor watches and
gets no rack on the wire.

The server runs with a short quick-match wait (OKEY_QUICK_MATCH_WAIT) so that test does
not sit through the default 20 s."""
import json
import re
import sqlite3
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import base_env, register, serve, shot
from tests.browser.test_solo_round import play_turns_until_round_end

QUICK_WAIT = 4
ROUND_SECONDS = 240
SIZES = {"phone": (390, 844), "desktop": (1366, 800)}


@pytest.fixture(scope="module")
def friends_server(tmp_path_factory):
    """The embedded server on its own SQLite database; yields (url, database path)."""
    workdir = tmp_path_factory.mktemp("friends")
    db = workdir / "db.sqlite3"
    with serve(workdir, base_env(DATABASE_URL=f"sqlite:///{db}", OKEY_QUICK_MATCH_WAIT=str(QUICK_WAIT)),
               name="friends") as url:
        yield url, db


def racks_in(node):
    """Every non-empty "rack" value anywhere in a decoded frame."""
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "rack" and v] + [r for v in node.values() for r in racks_in(v)]
    if isinstance(node, list):
        return [r for v in node for r in racks_in(v)]
    return []


def new_page(browser, width=1280, height=900):
    return browser.new_context(viewport={"width": width, "height": height}).new_page()


def create_online_table(page, url, private=False):
    page.goto(url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=online]")
    page.select_option("select[name=rounds]", "1")
    page.select_option("select[name=move_time]", "60")
    if private:
        page.check("input[name=private]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    return int(re.search(r"/table/(\d+)/", page.url).group(1))


def test_a_friend_signs_up_from_the_invite_link_and_takes_a_seat(browser, friends_server):
    url, _db = friends_server
    host = new_page(browser)
    register(host, url, "hostess")
    table_id = create_online_table(host, url, private=True)
    invite = host.locator("#invite-url").input_value()
    assert re.fullmatch(rf"{re.escape(url)}/invite/[A-Z2-9]{{8}}/", invite)
    # the private table is not in the lobby
    lobby = new_page(browser)
    lobby.goto(url + "/")
    expect(lobby.locator("#open-tables")).to_be_visible()
    assert not lobby.locator(f"#open-tables form[action='/table/{table_id}/join/']").count()
    lobby.context.close()
    for size, (width, height) in SIZES.items():
        host.set_viewport_size({"width": width, "height": height})
        expect(host.locator("#invite")).to_be_visible()
        shot(host, f"friends-invite-{size}")
    host.locator("#invite-copy").click()
    expect(host.locator("#invite-copy")).to_have_text("Copied")

    friend = new_page(browser)
    friend.goto(invite)
    friend.wait_for_url(re.compile(r"/accounts/login/"))
    friend.locator("a[href*='signup/?next=']").first.click()
    friend.wait_for_url(re.compile(r"/accounts/signup/"))
    friend.fill("input[name=email]", "friend@example.com")
    friend.fill("input[name=username]", "friend")
    friend.fill("input[name=password1]", "tiles-and-racks-42")
    friend.fill("input[name=password2]", "tiles-and-racks-42")
    friend.locator("form button[type=submit], form input[type=submit]").last.click()
    friend.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    friend.click("#join-btn")
    friend.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    # the host sees the friend live, may remove them, and starts with computers in the free seats
    expect(host.locator("#prestart-seats")).to_contain_text("friend", timeout=10_000)
    expect(host.locator("#prestart-seats .remove-btn")).to_have_count(1)
    host.click("#start-btn")
    expect(host.locator("#rack .tile").first).to_be_visible(timeout=15_000)
    expect(friend.locator("#rack .tile").first).to_be_visible(timeout=15_000)
    assert host.get_by_text(re.compile("Computer")).count() >= 2
    host.context.close()
    friend.context.close()


def test_play_now_starts_with_computers_after_the_wait(browser, friends_server):
    url, _db = friends_server
    page = new_page(browser)
    register(page, url, "hurried")
    page.goto(url + "/")
    started = time.monotonic()
    page.click("#play-now button[data-ruleset=okey51]")
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(page.locator("#quick-wait")).to_be_visible()
    expect(page.locator("#rack .tile").first).to_be_visible(timeout=(QUICK_WAIT + 15) * 1000)
    assert time.monotonic() - started >= QUICK_WAIT - 1
    expect(page.locator("#prestart")).to_be_hidden()
    assert page.get_by_text(re.compile("Computer")).count() >= 3
    page.context.close()


def test_a_player_leaves_mid_match_is_rated_last_and_a_watcher_sees_no_rack(browser, friends_server):
    url, db = friends_server
    alice = new_page(browser)
    register(alice, url, "stayer")
    table_id = create_online_table(alice, url)
    bob = new_page(browser)
    register(bob, url, "leaver")
    bob.goto(url + "/")
    bob.locator(f"form[action='/table/{table_id}/join/'] button").click()
    bob.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    expect(alice.locator("#prestart-seats")).to_contain_text("leaver", timeout=10_000)
    alice.click("#start-btn")
    expect(bob.locator("#rack .tile").first).to_be_visible(timeout=15_000)

    # an anonymous visitor finds the match in the lobby and watches it
    watcher = new_page(browser)
    frames = []
    watcher.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    watcher.goto(url + "/")
    watch = watcher.locator(f"#running-tables tr[data-table='{table_id}'] .watch-link")
    expect(watch).to_be_visible(timeout=10_000)
    watch.click()
    watcher.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    expect(watcher.locator("#spectator-badge")).to_be_visible()
    expect(alice.locator("#watching")).to_contain_text("1", timeout=10_000)

    bob.click("#menu-btn")     # once the match runs, Leave the match is in the menu sheet
    bob.locator("#leave-match summary").click()
    bob.click("#leave-match-btn")
    bob.wait_for_url(re.compile(r"/$"))
    turns = play_turns_until_round_end(alice, time.monotonic() + ROUND_SECONDS)
    assert turns >= 1
    shot(alice, "friends-left-match-end")
    expect(watcher.locator("#score-table")).to_be_visible(timeout=15_000)

    snapshots = [json.loads(f) for f in frames if isinstance(f, str) and f.startswith("{")]
    table_frames = [f for f in snapshots if f.get("type") == "snapshot"]
    assert len(table_frames) >= 3
    running = [f for f in table_frames if not f["view"].get("round_end")]
    assert len(running) >= 3
    for frame in running:  # while the round runs nobody's tiles reach a spectator
        assert frame["view"]["seat"] is None and frame["view"].get("rack") == []
        assert not racks_in(frame), frame
    for _ in range(50):
        with sqlite3.connect(db) as conn:
            rows = conn.execute(
                "SELECT u.username, c.place, c.abandoned FROM leaderboards_ratingchange c "
                "JOIN auth_user u ON u.id = c.user_id JOIN games_match m ON m.id = c.match_id "
                "WHERE m.table_id = ?", (table_id,)).fetchall()
        if rows:
            break
        time.sleep(0.2)
    assert sorted(rows) == [("leaver", 2, 1), ("stayer", 1, 0)]
    for page in (alice, bob, watcher):
        page.context.close()


def test_a_rematch_accepted_by_one_and_declined_by_another(browser, friends_server):
    url, _db = friends_server
    names = ["offerer", "accepter", "decliner"]
    pages = {name: new_page(browser) for name in names}
    for name, page in pages.items():
        register(page, url, name)
    table_id = create_online_table(pages["offerer"], url)
    for name in names[1:]:
        pages[name].goto(url + "/")
        pages[name].locator(f"form[action='/table/{table_id}/join/'] button").click()
        pages[name].wait_for_url(re.compile(rf"/table/{table_id}/$"))
    expect(pages["offerer"].locator("#prestart-seats")).to_contain_text("decliner", timeout=10_000)
    pages["offerer"].click("#start-btn")
    # the accepter stays on the page it loaded while the table was open and plays; the
    # others step away: computers play their seats to the end of the one-round match
    expect(pages["accepter"].locator("#rack .tile").first).to_be_visible(timeout=15_000)
    for name in ("offerer", "decliner"):
        pages[name].goto(url + "/")
    # an anonymous lobby shows the match running until it is over (the players stay away:
    # opening the table would take their seats back from the computers)
    lobby = new_page(browser)
    lobby.goto(url + "/")
    row = lobby.locator(f"#running-tables tr[data-table='{table_id}']")
    expect(row).to_have_count(1, timeout=10_000)
    play_turns_until_round_end(pages["accepter"], time.monotonic() + ROUND_SECONDS)
    expect(row).to_have_count(0, timeout=ROUND_SECONDS * 1000)
    lobby.context.close()
    expect(pages["accepter"].locator("#match-over")).to_be_visible(timeout=15_000)
    for name in ("offerer", "decliner"):
        pages[name].goto(f"{url}/table/{table_id}/")
    pages["offerer"].click("#rematch-btn")
    # the finished table's own address matches the pattern too: wait for the new table's
    pages["offerer"].wait_for_url(lambda u: re.search(r"/table/(\d+)/$", u) is not None
                                  and f"/table/{table_id}/" not in u)
    new_id = int(re.search(r"/table/(\d+)/", pages["offerer"].url).group(1))
    assert new_id != table_id
    expect(pages["offerer"].locator("#quick-wait")).to_be_visible()
    # the others see the offer live on the finished table; the accepter on its "Match
    # over" card, never reloaded since before the start
    expect(pages["accepter"].locator("#match-over #rematch-accept")).to_be_visible(timeout=10_000)
    pages["accepter"].click("#rematch-accept")
    pages["accepter"].wait_for_url(re.compile(rf"/table/{new_id}/$"))
    expect(pages["decliner"].locator("#rematch-decline")).to_be_visible(timeout=10_000)
    pages["decliner"].click("#rematch-decline")
    pages["decliner"].wait_for_url(re.compile(r"/$"))
    # all answered: the rematch starts, a computer in the decliner's seat
    for name in ("offerer", "accepter"):
        expect(pages[name].locator("#rack .tile").first).to_be_visible(timeout=15_000)
    seats = pages["offerer"].locator("#prestart-seats")
    assert pages["offerer"].get_by_text(re.compile("Computer")).count() >= 2
    assert not pages["offerer"].get_by_text("decliner").count() or seats.is_hidden()
    for page in pages.values():
        page.context.close()


def test_the_first_game_hint_is_dismissed_for_good(browser, friends_server):
    url, _db = friends_server
    page = new_page(browser, 390, 844)
    register(page, url, "newcomer")
    page.goto(url + "/")
    page.check("input[name=mode][value=solo]")
    expect(page.locator("input[name=practice]")).to_be_checked()
    expect(page.locator("input[name=private]")).to_be_hidden()
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    hint = page.locator("#first-game-hint")
    expect(hint).to_be_visible()
    shot(page, "friends-first-game-hint-phone")
    page.click("#menu-btn")     # the rules are one tap away, in the menu sheet
    expect(page.locator("#rules-link")).to_be_visible()
    page.keyboard.press("Escape")
    page.click("#first-game-hint-close")
    expect(hint).to_be_hidden()
    page.reload()
    expect(page.locator("#rack .tile").first).to_be_visible(timeout=15_000)
    expect(hint).to_be_hidden()
    page.context.close()


def test_a_removed_player_is_told_at_once_and_cannot_sit_again(browser, friends_server):
    url, _db = friends_server
    owner = new_page(browser)
    register(owner, url, "remover")
    table_id = create_online_table(owner, url)
    guest = new_page(browser)
    register(guest, url, "removed")
    guest.goto(url + "/")
    guest.locator(f"form[action='/table/{table_id}/join/'] button").click()
    guest.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    expect(guest.locator("#leave-btn")).to_be_visible()
    seat = owner.locator("#prestart-seats li", has_text="removed")
    expect(seat).to_have_count(1, timeout=10_000)
    seat.locator(".remove-btn").click()
    # the removed player's open page says so, with no seat control left to click
    expect(guest.locator("#removed-notice")).to_be_visible(timeout=10_000)
    expect(guest.locator("#removed-notice")).to_contain_text("removed you from this table")
    expect(guest.locator("#leave-btn")).to_have_count(0)
    expect(guest.locator("#join-btn")).to_have_count(0)
    shot(guest, "friends-removed-notice")
    # the lobby's seat button is refused with the same words, and the seat stays free
    guest.goto(url + "/")
    guest.locator(f"form[action='/table/{table_id}/join/'] button").click()
    guest.wait_for_url(re.compile(rf"/table/{table_id}/$"))
    expect(guest.locator("#removed-notice")).to_be_visible()
    expect(owner.locator("#prestart-seats")).not_to_contain_text("removed", timeout=2_000)
    for page in (owner, guest):
        page.context.close()
