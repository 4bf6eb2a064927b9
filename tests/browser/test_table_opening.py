"""After an opening, every ruleset at a phone (390x844, touch) and a desktop (1366x800):
the player is given a known rack (two runs worth 88, written into the game's position in
the server's database while it is their turn, checked with the engine), opens through
the UI and the screen still fits. In the okey rulesets each discard pile lies between its
seat and the next in turn order (RULES.md §1): the one the player may take is left of the
player's own discard box, both inside the viewport. Screenshots go to test-artifacts/."""
import json
import re
import sqlite3

import pytest
from playwright.sync_api import expect

from games.engine import api
from games.engine.tiles import COLOURS, okey_of
from tests.browser.conftest import REFUSAL, base_env, register, serve, shot, table_version, wait_for_answer
from tests.browser.test_rulesets_round import MY_TURN
from tests.browser.test_table_fit import MEASURE, SIZES


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("opening")
    db = workdir / "db.sqlite3"
    with serve(workdir, base_env(DATABASE_URL=f"sqlite:///{db}"), name="opening-server") as url:
        yield url, db


def opening_runs(ruleset: str, indicator: str | None) -> list[list[str]]:
    """Two runs (9-12 and 10-13, 88 points) in two colours that are not the okey's, so no
    tile of them is wild; the engine reads each as a valid run."""
    avoid = okey_of(indicator)[0] if indicator else None
    first, second = [c for c in COLOURS if c != avoid][:2]
    runs = [[f"{first}{n}" for n in range(9, 13)], [f"{second}{n}" for n in range(10, 14)]]
    for run in runs:
        info = api.meld_info(ruleset, run, indicator)
        assert info["valid"] and info["type"] == "run", (run, info)
    return runs


def give_rack(db, table_id: int) -> list[list[str]]:
    """Put the opening runs in the human seat's rack: each wanted tile trades places with
    a rack tile that is not wanted (from the pile or another rack), so every tile stays
    in play once and the rack keeps its size. Returns the runs."""
    with sqlite3.connect(db, timeout=10) as conn:
        (seat,) = conn.execute("SELECT \"index\" FROM games_seat WHERE table_id = ? AND user_id IS NOT NULL",
                               (table_id,)).fetchone()
        (text,) = conn.execute("SELECT position FROM games_game WHERE table_id = ?", (table_id,)).fetchone()
        position = json.loads(text)
        assert position["turn"] == seat
        runs = opening_runs(position["ruleset"], position.get("indicator"))
        wanted = [t for run in runs for t in run]
        rack = position["seats"][seat]["rack"]
        sources = [position["pile"]] + [s["rack"] for i, s in enumerate(position["seats"]) if i != seat]
        for tile in wanted:
            if tile in rack:
                continue
            spare = next(i for i, t in enumerate(rack) if t not in wanted)
            source = next(s for s in sources if tile in s)
            j = source.index(tile)
            source[j], rack[spare] = rack[spare], tile
        conn.execute("UPDATE games_game SET position = ? WHERE table_id = ?", (json.dumps(position), table_id))
    return runs


def start_solo(page, base_url: str, ruleset: str) -> int:
    page.goto(base_url + "/")
    page.select_option("select[name=ruleset]", ruleset)
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    expect(page.locator(MY_TURN)).to_be_visible(timeout=20_000)
    return int(re.search(r"/table/(\d+)/$", page.url).group(1))


def select_tiles(page, tiles: list[str]) -> None:
    for tile in tiles:
        page.locator(f"#rack .tile[data-tile='{tile}']").first.click()


def discard_to_the_zone(page, phone: bool, tiles: list[str]) -> None:
    """The player's own discard box takes a tile: tapped after the tile on the phone,
    dropped on with the mouse on the desktop. A refused discard (a joker, or a tile that
    fits a meld in okey17, RULES.md §4) keeps the tile: the next one is tried."""
    for tile in tiles:
        source = page.locator(f"#rack .tile[data-tile='{tile}']").first
        before = table_version(page)
        if phone:
            source.click()
            page.locator("#discard-zone").click()
        else:
            source.drag_to(page.locator("#discard-zone"))
        wait_for_answer(page, before)
        if not page.locator(REFUSAL).count():
            expect(page.locator(f"#discard-zone .tile[data-tile='{tile}']")).to_be_visible()
            return
    raise AssertionError("no discard reached the discard box")


DISCARD_BOXES = """() => {
  const box = (s) => { const r = document.querySelector(s).getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: r.width, h: r.height}; };
  return {take: box('#prev-discard'), mine: box('#discard-zone'), vw: innerWidth, vh: innerHeight};
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
@pytest.mark.parametrize("ruleset", ["okey51", "okey17", "rami"])
def test_after_an_opening_the_table_fits_and_the_discards_lie_in_turn_order(browser, server, ruleset, size):
    url, db = server
    phone = size == "phone"
    context = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone)
    page = context.new_page()
    try:
        register(page, url, f"open-{ruleset}-{size}")
        table_id = start_solo(page, url, ruleset)
        runs = give_rack(db, table_id)
        page.evaluate("localStorage.clear()")   # the rack saved before the change is stale
        page.reload()
        expect(page.locator(MY_TURN)).to_be_visible(timeout=15_000)
        for tile in sum(runs, []):
            expect(page.locator(f"#rack .tile[data-tile='{tile}']").first).to_be_visible()
        melds = page.locator("#table-melds .meld:not(.new-meld)")
        before = melds.count()
        if ruleset == "rami":
            for run in runs:
                select_tiles(page, run)
                page.locator("#new-meld").click()
            page.locator("#submit-play").click()
        else:
            if page.locator("#pile.can").count():
                page.locator("#pile").click()
                expect(page.locator("#pile.can")).to_have_count(0, timeout=10_000)
            page.locator("#sort-runs").click()
            page.locator("#open-btn").click()
            expect(page.locator("#open-btn")).to_be_hidden(timeout=10_000)
        laid = f"() => document.querySelectorAll('#table-melds .meld:not(.new-meld)').length >= {before + 2}"
        page.wait_for_function(laid, timeout=10_000)
        page.wait_for_timeout(300)   # the opening's highlight and re-render settle
        m = page.evaluate(MEASURE)
        shot(page, f"opened-{ruleset}-{size}")
        assert m["scrollW"] <= m["vw"], f"the page scrolls sideways: {m['scrollW']} > {m['vw']}"
        if ruleset == "rami":
            return
        d = page.evaluate(DISCARD_BOXES)
        assert d["take"]["right"] <= d["mine"]["left"], f"the discard to take is not left of the player's own: {d}"
        for name in ("take", "mine"):
            b = d[name]
            assert b["left"] >= 0 and b["right"] <= d["vw"] and b["top"] >= 0 and b["bottom"] <= d["vh"], \
                f"the {name} discard box is outside the viewport: {d}"
            assert b["w"] >= 44 and b["h"] >= 44, f"the {name} discard box is under 44 px: {d}"
        rack = page.locator("#rack .tile").evaluate_all("(ts) => ts.map((t) => t.dataset.tile)")
        discard_to_the_zone(page, phone, rack)
    finally:
        context.close()


SPECTATOR_SEATS = """() => [...document.querySelectorAll('#opponents > .seat-card')].map((c) => {
  const r = c.getBoundingClientRect();
  return {seat: c.dataset.seat, pos: c.dataset.pos, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
})"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_spectator_sees_the_seats_in_turn_order_from_seat_0_at_the_bottom(browser, server, size):
    url, _db = server
    phone = size == "phone"
    player = browser.new_context(viewport=SIZES["desktop"])
    watcher = browser.new_context(viewport=SIZES[size], has_touch=phone, is_mobile=phone)
    try:
        page = player.new_page()
        register(page, url, f"watched-{size}")
        table_id = start_solo(page, url, "okey51")
        view = watcher.new_page()
        view.goto(f"{url}/table/{table_id}/")
        expect(view.locator("#spectator-badge")).to_be_visible()
        expect(view.locator("#opponents > .seat-card")).to_have_count(4, timeout=15_000)
        expect(view.locator("#rack .tile")).to_have_count(0)
        seats = view.evaluate(SPECTATOR_SEATS)
        shot(view, f"spectator-okey51-{size}")
        assert [(s["seat"], s["pos"]) for s in seats] == [("3", "left"), ("2", "top"), ("1", "right"), ("0", "bottom")]
        at = {s["pos"]: s for s in seats}
        # seat 0 below the others, seat 1 (next in turn) right of seat 3 (the one before seat 0)
        assert at["bottom"]["top"] >= max(at[p]["bottom"] for p in ("left", "top", "right")) - 1
        assert at["right"]["left"] > at["left"]["right"]
        if not phone:
            assert at["top"]["bottom"] <= at["left"]["top"] + 1 and at["top"]["bottom"] <= at["right"]["top"] + 1
    finally:
        watcher.close()
        player.close()
