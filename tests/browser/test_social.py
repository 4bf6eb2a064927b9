"""Friends, challenges, notifications and faces with two real players in two browser
contexts, on the scaled set-up (PostgreSQL, Redis, a separate Celery worker): Alice at a
desktop (1366x800, browser notifications allowed), Bob on a phone (390x844, touch).

Alice follows Bob from his profile and Bob accepts the friend request; Alice's presence
(online, at a table, offline) reaches Bob's lobby live (the delays from her socket opening
or closing to his list changing are printed; bench/presence.py measures them against the
1 s goal); a challenge shows on every open page of Bob's with Accept and Decline,
accepting seats both at a new table, declining tells Alice only "declined"; a block stops
follows, challenges and chat. A table page in the background shows "your turn" in its
title and favicon, with a browser notification and a line in the list. Faces show at the
seats, in the lobby, on profiles and in the rankings. Nothing scrolls sideways at 390 px
and the new buttons are at least 44 px high. Screenshots go to test-artifacts/."""
import re

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.browser.conftest import CHROMIUM, assert_fits, scaled_site, shot

PASSWORD = "tiles-and-racks-42"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

# Records what the page does with the Notification API; lets
# the test put the page in the background (document.hidden) the way a hidden tab is.
HOOKS = """
window.__notes = []; window.__asked = 0; window.__hidden = false;
Object.defineProperty(document, "hidden", { get: () => window.__hidden, configurable: true });
Object.defineProperty(document, "visibilityState",
  { get: () => window.__hidden ? "hidden" : "visible", configurable: true });
if (window.Notification) {
  const Real = window.Notification;
  const Recorded = function (title, options) {
    window.__notes.push({ title, tag: options && options.tag });
    return { close() {} };
  };
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...a) => { window.__asked += 1; return Real.requestPermission(...a); };
  window.Notification = Recorded;
}
"""

SHARED = {}  # what a test leaves to the next: the table of the accepted challenge ("table")

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with scaled_site(tmp_path_factory.mktemp("social"), "social", OKEY_BOT_DELAY="0.3") as url:
        yield url



@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


def sign_up(context, site, name):
    page = context.new_page()
    page.goto(site + "/accounts/signup/")
    page.fill("input[name=email]", f"{name}@example.com")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state("networkidle")
    return page


@pytest.fixture(scope="module")
def players(browser, site):
    """Alice (desktop, notifications allowed) and Bob (phone), signed up; yields their
    contexts {"alice": context, "bob": context}."""
    alice = browser.new_context(locale="en", **DESKTOP)
    alice.grant_permissions(["notifications"], origin=site)
    bob = browser.new_context(locale="en", **PHONE)
    for context in (alice, bob):
        context.add_init_script(HOOKS)
    for context, name in ((alice, "alice"), (bob, "bob")):
        sign_up(context, site, name).close()
    yield {"alice": alice, "bob": bob}
    alice.close()
    bob.close()


def close_pages(context):
    for page in list(context.pages):
        page.close()


def live_page(context, url):
    """A page at `url` whose page socket is open (the hello frame arrived)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => window.okeyPageSocket && window.okeyPageSocket.readyState === 1")
    return page


def person(page, name):
    return page.locator("#friends-list .person").filter(has=page.locator(".person-name", has_text=name))


def test_alice_follows_bob_and_bob_accepts_the_friend_request(players, site):
    alice, bob = players["alice"], players["bob"]
    bob_lobby = live_page(bob, site + "/")
    page = live_page(alice, site + "/players/bob/")
    expect(page.locator("#player-face")).to_have_attribute("src", re.compile(r"^/faces/\d+/$"))
    page.locator("#follow-button").click()
    expect(page.locator(".messages")).to_contain_text("You follow bob.")
    expect(page.locator("#unfollow-button")).to_have_text("Following · Unfollow")
    # Bob hears of it at once, wherever he is
    expect(bob_lobby.locator("#social-live .note-friend_request")).to_contain_text("alice follows you.")
    expect(bob_lobby.locator("#unread-count")).to_have_text("1")
    bob_lobby.goto(site + "/friends/")
    requests = bob_lobby.locator("#friend-requests .person")
    expect(requests).to_have_count(1)
    assert_fits(bob_lobby, "#friend-requests button")
    shot(bob_lobby, "social-friend-request-390")
    requests.locator("button.primary").click()
    expect(bob_lobby.locator(".messages")).to_contain_text("You follow alice.")
    expect(person(bob_lobby, "alice").locator(".tag")).to_have_text("friend")
    page.reload()
    expect(page.locator("#unfollow-button")).to_have_text("Friends · Unfollow")
    close_pages(alice)
    close_pages(bob)


def test_presence_reaches_a_friends_lobby_live(players, site):
    alice, bob = players["alice"], players["bob"]
    close_pages(alice)
    bob_lobby = live_page(bob, site + "/")
    row = person(bob_lobby, "alice")
    expect(row).to_have_attribute("data-state", "offline")
    bob_lobby.evaluate("""() => { window.__changes = [];
      const list = document.getElementById('friends-list');
      new MutationObserver(() => window.__changes.push([list.querySelector('.person').dataset.state, Date.now()]))
        .observe(list, { attributes: true, subtree: true, attributeFilter: ['data-state'] }); }""")
    # each delay runs from a moment the test takes before the cause (one clock: both pages
    # are on this host); the server sees a socket before its page's own "open" event runs,
    # so that event is no start
    delays = {}
    opened_at = bob_lobby.evaluate("Date.now()")
    page = live_page(alice, site + "/rules/")
    expect(row).to_have_attribute("data-state", "online", timeout=5000)
    delays["online"] = bob_lobby.evaluate("window.__changes.at(-1)[1]") - opened_at
    # Alice sits down at a new public table: "at a table", with the way to watch it
    page.goto(site + "/")
    page.check("input[name=mode][value=online]")
    seated_at = page.evaluate("Date.now()")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.wait_for_function("() => window.okeyPageSocket && window.okeyPageSocket.readyState === 1")
    table_path = re.search(r"/table/\d+/", page.url).group(0)
    expect(row).to_have_attribute("data-state", "playing", timeout=5000)
    delays["playing"] = bob_lobby.evaluate("window.__changes.at(-1)[1]") - seated_at
    expect(row.locator(".presence-table")).to_have_attribute("href", table_path)
    expect(row.locator(".presence-text")).to_have_text("at a table")
    # a followed player's new public table is also in Bob's notifications
    expect(bob_lobby.locator("#social-live .note-table_started")).to_contain_text("alice opened a table of Okey 51.")
    shot(bob_lobby, "social-presence-lobby-390")
    # her last page's socket closes (as when the page goes): offline
    closed_at = page.evaluate("() => { const t = Date.now(); window.okeyPageSocket.close(); return t; }")
    offline = bob_lobby.wait_for_function(
        "(t) => (window.__changes.find(([state, at]) => state === 'offline' && at >= t) || [])[1]", arg=closed_at)
    delays["offline"] = offline.json_value() - closed_at
    close_pages(alice)
    # the figure against the 1 s goal is bench/presence.py's; here each change arrives, in order
    print("presence delays (ms):", delays)
    assert all(delay >= 0 for delay in delays.values()), delays
    close_pages(bob)


def test_a_challenge_reaches_every_open_page_and_accepting_seats_both(players, site):
    alice, bob = players["alice"], players["bob"]
    bob_rules = live_page(bob, site + "/rules/")
    bob_lobby = live_page(bob, site + "/")
    page = live_page(alice, site + "/friends/")
    friend = person(page, "bob")
    friend.locator("select[name=ruleset]").select_option("rami")
    friend.locator("button", has_text="Challenge").click()
    expect(page.locator(".messages")).to_contain_text("Challenge sent to bob.")
    shot(page, "social-friends-1366")
    for bob_page in (bob_rules, bob_lobby):
        box = bob_page.locator("#social-live .challenge-box")
        expect(box).to_contain_text("alice challenges you to a game of Rami.")
        expect(box.locator("button")).to_have_text(["Accept", "Decline"])
    assert_fits(bob_lobby, "#social-live .challenge-box button")
    shot(bob_lobby, "social-challenge-390")
    bob_lobby.locator("#social-live .challenge-accept").click()
    bob_lobby.wait_for_url(re.compile(r"/table/\d+/$"))
    table_path = SHARED["table"] = re.search(r"/table/\d+/", bob_lobby.url).group(0)
    expect(bob_rules.locator("#social-live .challenge-box")).to_have_count(0)  # answered elsewhere: it goes
    accepted = page.locator("#social-live .accepted-box")
    expect(accepted).to_contain_text("bob accepted your challenge")
    accepted.locator("a.button").click()
    page.wait_for_url(re.compile(table_path + "$"))
    # both seated at the new table
    for who in (page, bob_lobby):
        expect(who.locator("#conn-state")).to_have_text("", timeout=15000)
        expect(who.locator("#prestart")).to_contain_text("alice")
        expect(who.locator("#prestart")).to_contain_text("bob")
    # the challenger made the table: the one who accepted reads who starts it
    expect(bob_lobby.locator("#turn-status")).to_have_text("Waiting for alice to start the match")
    shot(bob_lobby, "social-challenge-table-390")
    close_pages(alice)
    close_pages(bob)


def test_declining_tells_the_challenger_only_declined(players, site):
    alice, bob = players["alice"], players["bob"]
    bob_page = live_page(bob, site + "/settings/data/")
    page = live_page(alice, site + "/players/bob/")
    page.select_option("#challenge-ruleset", "okey17")
    page.locator("#challenge-button").click()
    expect(page.locator(".messages")).to_contain_text("Challenge sent to bob.")
    page.wait_for_function("() => window.okeyPageSocket && window.okeyPageSocket.readyState === 1")
    box = bob_page.locator("#social-live .challenge-box")
    expect(box).to_contain_text("alice challenges you to a game of Okey 17.")
    # the box waits for an answer over the bottom of the phone's page; the page's last button
    # can still be scrolled above it and tapped
    bob_page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    covered = bob_page.evaluate("""() => { const b = document.querySelector('#delete-account-form button[type=submit]');
      const r = b.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !(hit && (hit === b || b.contains(hit))); }""")
    assert not covered, "the challenge box covers the page's last button"
    box.locator(".challenge-decline").click()
    expect(box).to_have_count(0)
    note = page.locator("#social-live .note-declined")
    expect(note).to_have_text(re.compile(r"^bob declined\.\s*×?$"))
    close_pages(alice)
    close_pages(bob)


def test_a_blocked_player_cannot_follow_challenge_or_chat(players, site):
    alice, bob = players["alice"], players["bob"]
    # they still share the table of the accepted challenge
    bob_page = live_page(bob, site + "/players/alice/")
    assert_fits(bob_page, "#relation-actions button, #relation-actions select")
    shot(bob_page, "social-profile-390")
    bob_page.locator("#block-button").click()
    expect(bob_page.locator(".messages")).to_contain_text("You blocked alice.")
    page = live_page(alice, site + "/players/bob/")
    expect(page.locator("#follow-button")).to_have_text("Follow")  # the block ended the follows
    page.locator("#follow-button").click()
    expect(page.locator(".messages")).to_contain_text("You cannot follow or challenge this player.")
    page.locator("#challenge-button").click()
    expect(page.locator(".messages")).to_contain_text("You cannot follow or challenge this player.")
    page.goto(site + "/friends/")
    expect(page.locator("#friends-list .person")).to_have_count(0)
    # at the table they share, Alice's chat line is refused
    page.goto(site + SHARED["table"])
    expect(page.locator("#conn-state")).to_have_text("", timeout=15000)  # the table's socket is open
    page.locator("#chat-btn").click()  # the chat opens as a sheet over the table
    page.fill("#chat-input", "hello bob")
    page.locator("#chat-send").click()
    expect(page.locator("#chat-status")).to_contain_text("A player at this table blocked you")
    close_pages(alice)
    close_pages(bob)


def test_a_background_table_says_your_turn_in_title_favicon_and_notification(players, site):
    alice = players["alice"]
    page = alice.new_page()
    page.goto(site + "/")
    assert page.evaluate("window.__asked") == 0  # never asked on page load
    page.check("input[name=mode][value=solo]")
    page.evaluate("window.__hidden = true")  # the tab goes to the background before the table opens
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    page.evaluate("window.__hidden = true")
    table_id = re.search(r"/table/(\d+)/", page.url).group(1)
    page.wait_for_function("() => document.getElementById('table-app').classList.contains('my-turn')", timeout=30000)
    expect(page).to_have_title(re.compile(r"^\(●\) Your turn · "))
    assert page.evaluate("document.querySelector('link[rel~=icon]').href").startswith("data:image/svg+xml")
    page.wait_for_function("() => window.__notes.length > 0")
    assert page.evaluate("window.__notes")[0] == {"title": f"It's your turn at table {table_id}.",
                                                  "tag": f"okey-turn-/table/{table_id}/"}
    # back in view: the title and favicon are the table's again
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    expect(page).not_to_have_title(re.compile(r"Your turn"))
    list_page = alice.new_page()
    list_page.goto(site + "/notifications/")
    # the table page stores the line with a request of its own (sent as the turn came):
    # on a loaded host it may land after this page was read, so the list is read again
    turn_note = list_page.locator("#notification-list .note[data-kind=your_turn]")
    for _ in range(30):
        if turn_note.count():
            break
        list_page.wait_for_timeout(500)
        list_page.reload()
    expect(turn_note).to_contain_text(
        f"It's your turn at table {table_id}.")
    expect(list_page.locator("#notifications-allowed")).to_be_visible()  # allowed in this browser
    assert list_page.evaluate("window.__asked") == 0
    shot(list_page, "social-notifications-1366")
    close_pages(alice)


def test_the_browser_asks_for_notifications_only_after_a_click(browser, site, players):
    context = browser.new_context(locale="fr", **PHONE)
    context.add_init_script(HOOKS)
    try:
        page = sign_up(context, site, "carole")
        page.goto(site + "/notifications/")
        button = page.locator("#allow-notifications")
        expect(button).to_have_text("Les afficher aussi en notifications du navigateur")
        assert page.evaluate("window.__asked") == 0
        assert_fits(page, "#allow-notifications, .site-nav > a, .site-nav button")
        shot(page, "social-notifications-fr-390")
        button.click()
        page.wait_for_function("() => window.__asked === 1")
    finally:
        context.close()


def test_faces_show_at_the_seats_in_the_lobby_on_profiles_and_in_rankings(players, site):
    alice = players["alice"]
    page = alice.new_page()
    page.goto(site + "/")
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    faces = page.locator("#opponents img.avatar-img")
    expect(faces).to_have_count(3, timeout=15000)
    assert {faces.nth(i).get_attribute("src") for i in range(3)} == {"/faces/computer/"}
    assert page.evaluate("[...document.querySelectorAll('#opponents img.avatar-img')].every((i) => i.naturalWidth > 0)")
    shot(page, "social-faces-table-1366")
    page.goto(site + "/players/alice/")
    src = page.locator("#player-face").get_attribute("src")
    assert re.fullmatch(r"/faces/\d+/", src)
    assert page.evaluate("document.getElementById('player-face').naturalWidth") > 0
    svg = page.request.get(site + src)
    assert svg.headers["content-type"] == "image/svg+xml" and svg.body() == page.request.get(site + src).body()
    close_pages(alice)
