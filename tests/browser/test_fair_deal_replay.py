"""A solo round on the real server, then what a player does to trust it: the table's
browser sends its own seed for the match after seeing the chain tip and the deal waits
for it; Verify on the table after the round and on the match page says ✔ (the deal is
redone in the browser with Web Crypto, and checked against the tip shown and the seed
sent), and ✘ "your seed was not used" when the server serves a record that dropped it;
open the replay and step to the last move, download the record and check it with the
standalone `python3 fairdeal.py`, and replay the downloaded file on the replay page.

The table's UI is being redesigned elsewhere, so the test never plays through it: the
player leaves the table right after the deal, and the computer plays the seat to the
end of the round (RULES.md §6: a disconnected player's seat is played by a computer)."""
import json
import re
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import expect

from games.engine import fairdeal
from tests.browser.conftest import register, shot

ROOT = Path(__file__).resolve().parents[2]
ROUND_SECONDS = 240
SIZES = {"phone": (390, 844), "desktop": (1366, 800)}


def wait_for_round_end(page, url, deadline):
    """Reload the match page until its first round shows its Verify button."""
    while time.monotonic() < deadline:
        page.goto(url)
        if page.locator(".verify-btn[data-round='1']").count():
            return
        page.wait_for_timeout(1000)
    raise AssertionError("the round did not end in time")


def test_a_solo_round_verifies_in_the_browser_replays_and_its_record_checks(page, browser, live_server_url,
                                                                             tmp_path):
    register(page, live_server_url, "fairplayer")
    page.goto(live_server_url + "/")
    page.select_option("select[name=ruleset]", "okey51")
    page.check("input[name=mode][value=solo]")
    page.select_option("select[name=rounds]", "1")
    page.uncheck("input[name=practice]")  # the 15 s clock plays the seat while the player reads the match page
    page.select_option("select[name=move_time]", "15")  # shown once practice is off
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    table_id = int(re.search(r"/table/(\d+)/$", page.url).group(1))
    match_url = f"{live_server_url}/table/{table_id}/match/"
    # the table committed to its chain of server seeds when it was created; the browser sends
    # its fresh seed for the match as soon as it sees the tip, and the deal waits for it
    panel = page.locator("#fair-deal")
    expect(page.locator("#rack .tile").first).to_be_visible()
    expect(panel).to_have_attribute("data-phase", "dealt")
    shown = page.locator("#fd-commitment").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", shown)
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('okeysite:fairdeal:{table_id}:match'))")
    assert re.fullmatch(r"[0-9a-f]{64}", kept["chain_tip"]) and re.fullmatch(r"[0-9a-f]{32}", kept["client_seed"])
    assert kept == {"seat": 0, "chain_tip": kept["chain_tip"], "client_seed": kept["client_seed"],
                    "seeded": kept["client_seed"]}
    assert page.locator("#fd-seed").input_value() == kept["client_seed"]
    shot(page, "table-fair-deal")
    # the commitment is on the match page from the deal on, the server seed is not
    page.goto(match_url)
    expect(page.locator("code.commitment")).to_have_count(1)
    expect(page.locator("code.server-seed")).to_have_count(0)
    wait_for_round_end(page, match_url, time.monotonic() + ROUND_SECONDS)
    assert page.locator("code.commitment").inner_text() == shown

    # back at the table: the score table shows the revealed server seed, Verify says ✔
    page.goto(f"{live_server_url}/table/{table_id}/")
    expect(panel).to_have_attribute("data-phase", "revealed")
    expect(page.locator("#fd-server-seed")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    page.click("#fd-verify")
    expect(page.locator("#fd-result")).to_have_class(re.compile(r"\bok\b"), timeout=15_000)
    expect(page.locator("#fd-result")).to_contain_text("✔ Verified")
    shot(page, "table-fair-deal-verified")

    # a dishonest server: the record it serves drops this seat's seed, which still deals a
    # round that checks from the record alone; the browser knows the seed it sent was kept
    served = []

    def dropped(route):
        record = route.fetch().json()
        for entry in record["rounds"]:
            entry["client_seeds"][0] = ""
            kinds = [p["kind"] for p in record["players"]]
            deal = fairdeal.layout(record["ruleset"], 4, entry["first"], fairdeal.deal_seed_2(
                entry["server_seed"], entry["number"], record["table_id"], entry["chain_tip"], entry["client_seeds"],
                kinds))
            entry["initial"].update(pile=deal["pile"], indicator=deal["indicator"])
            for seat, rack in zip(entry["initial"]["seats"], deal["racks"]):
                seat["rack"] = rack
        served.append(fairdeal.verify_record(record))
        route.fulfill(json=record)

    page.route(f"**/table/{table_id}/record/", dropped)
    page.click("#fd-verify")
    expect(page.locator("#fd-result")).to_have_class(re.compile(r"\bbad\b"), timeout=15_000)
    expect(page.locator("#fd-result")).to_contain_text("✘")
    expect(page.locator("#fd-result li[data-code=seed_not_used]")).to_contain_text("Your seed was not used")
    assert served == [[(1, [])]]  # the dishonest record verifies from the record alone
    assert page.locator("#fd-result li").count() == 1
    shot(page, "table-fair-deal-seed-dropped")
    page.unroute(f"**/table/{table_id}/record/")
    page.goto(match_url)

    verify = page.locator(".verify-btn[data-round='1']")
    expect(verify).to_be_enabled()
    verify.click()
    answer = page.locator(".verify-result[data-round='1']")
    expect(answer).to_have_class(re.compile(r"\bok\b"), timeout=15_000)
    expect(answer).to_contain_text("✔ Verified")
    commitment = page.locator("code.commitment").inner_text()
    seed = page.locator("code.server-seed").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", seed) and re.fullmatch(r"[0-9a-f]{64}", commitment)

    with page.expect_download() as download:
        page.click("#record-link")
    record = tmp_path / "record.json"
    download.value.save_as(record)
    proc = subprocess.run([sys.executable, "-I", str(ROOT / "games/engine/fairdeal.py"), str(record)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout.splitlines()) == (0, ["round 1: verified"]), proc.stderr
    dealt = json.loads(record.read_text(encoding="utf-8"))["rounds"][0]
    assert (dealt["shuffle"], dealt["chain_tip"]) == ("okeysite-shuffle-2", kept["chain_tip"])
    assert dealt["client_seeds"] == [kept["client_seed"], "", "", ""]

    page.click("a.replay-round")
    page.wait_for_url(re.compile(r"/replay/\?round=1"))
    board = page.locator("#replay-board")
    expect(board).to_be_visible(timeout=15_000)
    expect(page.locator("#move-counter")).to_contain_text("Move 0 of ")
    expect(page.locator(".replay-seat .replay-rack .tile").first).to_be_visible()
    total = int(re.search(r"of (\d+)", page.locator("#move-counter").inner_text()).group(1))
    assert total > 10
    page.keyboard.press("End")
    expect(page.locator("#move-counter")).to_have_text(f"Move {total} of {total}")
    expect(page.locator("#replay-result")).to_be_visible()
    assert f"move={total}" in page.url
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#move-counter")).to_have_text(f"Move {total - 1} of {total}")
    page.click("#next-move")
    expect(page.locator("#move-counter")).to_have_text(f"Move {total} of {total}")
    expect(page.locator("#next-move")).to_be_disabled()
    assert page.get_by_text(re.compile(r"Computer \d · (easy|normal|strong)")).count() >= 3  # labelled with their level

    # the shared address opens the same move; the downloaded file replays the same way
    for name, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        visitor = context.new_page()
        visitor.goto(match_url)
        visitor.click(".verify-btn[data-round='1']")
        expect(visitor.locator(".verify-result[data-round='1']")).to_have_class(re.compile(r"\bok\b"),
                                                                               timeout=15_000)
        shot(visitor, f"match-{name}")
        visitor.goto(f"{live_server_url}/table/{table_id}/replay/?round=1&move=17")
        expect(visitor.locator("#move-counter")).to_have_text(f"Move 17 of {total}", timeout=15_000)
        assert visitor.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
        shot(visitor, f"replay-{name}")
        context.close()

    page.goto(f"{live_server_url}/replay/")
    page.set_input_files("#record-file", str(record))
    page.click("#record-submit")
    expect(page.locator("#replay-board")).to_be_visible(timeout=15_000)
    expect(page.locator("#replay-verification")).to_contain_text("✔ Verified")
    page.keyboard.press("End")
    expect(page.locator("#move-counter")).to_have_text(f"Move {total} of {total}")
    shot(page, "replay-file")
