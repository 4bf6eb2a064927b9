"""A player whose network drops during their own turn at an online table (RULES.md §6,
D-16): the server notices the dead socket within seconds, the other player sees the seat
disconnected, and the computer plays the turn after the disconnect grace instead of the
whole move clock.

The network is cut with Playwright's `set_offline`: Chromium keeps the TCP connection but
passes no frame either way and answers no WebSocket ping (measured), like a network that
is gone without a FIN. The server runs with the deployed daphne options (bench.stack)."""
import json
import time

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import base_env, register, serve, shot, start_online_match

MOVE_TIME = "120"
NOTICED_WITHIN = 10.0  # seconds from the cut to the others seeing the seat disconnected
PLAYED_WITHIN = 15.0  # ... to the computer's move (the disconnect grace is 5 s)


@pytest.fixture(scope="module")
def dropped_server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("dropped")
    with serve(workdir, base_env(DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}"), name="dropped") as url:
        yield url


def watch(page):
    """Record the page's table snapshots as (monotonic time, view) in a list, returned."""
    seen = []

    def frame(payload):
        if isinstance(payload, str) and payload.startswith("{"):
            data = json.loads(payload)
            if data.get("type") == "snapshot":
                seen.append((time.monotonic(), data["view"]))

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return seen


def first_after(page, seen, since, check, timeout):
    """The time of the first view `page` recorded (in `seen`) after `since` for which
    `check(view)` holds, waiting up to `timeout` seconds from `since`; None when there is
    none. It waits through Playwright, which delivers the frame events meanwhile (to
    within 0.1 s)."""
    deadline = since + timeout
    while time.monotonic() < deadline:
        for at, view in list(seen):
            if at >= since and check(view):
                return at
        page.wait_for_timeout(100)
    return None


def test_a_dropped_network_on_turn_is_noticed_and_the_computer_plays(browser, dropped_server):
    url = dropped_server
    pages, seen = {}, {}
    for name in ("cutoff", "waiter"):
        pages[name] = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        seen[name] = watch(pages[name])
        register(pages[name], url, name)
    host, guest = pages["cutoff"], pages["waiter"]
    start_online_match(host, guest, "waiter", url, MOVE_TIME, timeout=20_000)

    def dealt(view):
        return view.get("turn") is not None and view.get("seat") is not None and view.get("rack")

    for name in pages:
        assert first_after(pages[name], seen[name], 0.0, dealt, time.monotonic() + 20), f"no dealt view for {name}"
    views = {name: [v for _at, v in seen[name] if dealt(v)][-1] for name in pages}
    # the seat to move first is cut off (swap the names when it is the guest's)
    on_turn = next(name for name, view in views.items() if view["turn"] == view["seat"])
    other = "waiter" if on_turn == "cutoff" else "cutoff"
    seat = views[on_turn]["seat"]
    pages[other].wait_for_timeout(1000)  # the clock of the turn has been running a moment: a turn like any other

    cut = time.monotonic()
    pages[on_turn].context.set_offline(True)
    noticed = first_after(pages[other], seen[other], cut, lambda v: v["players"][seat]["connected"] is False, 60)
    played = first_after(pages[other], seen[other], cut, lambda v: v.get("turn") != seat or v.get("round_end"), 60)
    shot(pages[other], "dropped-network-other-side")
    assert noticed is not None and noticed - cut <= NOTICED_WITHIN, \
        f"seat {seat} seen disconnected {None if noticed is None else round(noticed - cut, 1)} s after the cut"
    assert played is not None and played - cut <= PLAYED_WITHIN, \
        f"the computer played {None if played is None else round(played - cut, 1)} s after the cut"
    # the others see why the computer plays: the seat is marked disconnected
    expect(pages[other].locator(f".seat-card[data-seat='{seat}'].away")).to_have_count(1, timeout=5_000)
    print(f"dropped network: seen disconnected after {noticed - cut:.1f} s, computer played after {played - cut:.1f} s")

    # back online, the player reconnects and has the seat back
    pages[on_turn].context.set_offline(False)
    back = first_after(pages[other], seen[other], time.monotonic(),
                       lambda v: v["players"][seat]["connected"] is True, 40)
    assert back is not None
    for page in pages.values():
        page.context.close()
