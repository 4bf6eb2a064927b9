"""The round review in the browser (docs/review.md), on a phone: the replay shows the marks
of the player's own turns, and at a marked turn "show the better move" draws the solver's
discard on the rack; another visitor sees no marks; the training page's puzzle is answered
wrong, then solved; the match page and the profile show the accuracy beside the computer
levels'; no page scrolls sideways. Screenshots: review-replay-phone,
review-better-move-phone, review-puzzle-wrong-phone, review-puzzle-solved-phone,
review-match-phone, review-profile-phone, review-replay-desktop."""
import json
import os
import re
import subprocess
import sys

from playwright.sync_api import expect

from tests.browser.conftest import ROOT, shot

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def seed(tmp_path_factory):
    db = tmp_path_factory.getbasetemp() / "server0" / "db.sqlite3"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{db}"
    out = subprocess.run([sys.executable, "-m", "tests.browser.review_fixture"], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=900).stdout
    return json.loads(out.strip().splitlines()[-1])


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"


def log_in(page, base_url, name, password):
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state("networkidle")
    assert "/accounts/login/" not in page.url


def test_the_replay_marks_a_mistake_and_shows_the_better_move_and_the_puzzle_checks_answers(
        browser, live_server_url, tmp_path_factory):
    data = seed(tmp_path_factory)
    assert data.get("best"), "the round has a discard that gives points away"
    phone = browser.new_context(**PHONE)
    page = phone.new_page()
    log_in(page, live_server_url, data["user"], data["password"])
    page.goto(f"{live_server_url}/table/{data['table_id']}/replay/?round=1&move=0")
    panel = page.locator("#review-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("h3")).to_contain_text("Review of")
    mistake = panel.locator(".review-turn.mark-mistake")
    expect(mistake).to_have_count(1)
    expect(mistake).to_contain_text("Mistake")
    no_sideways_scroll(page)
    shot(page, "review-replay-phone")

    mistake.click()
    expect(page).to_have_url(re.compile(rf"move={data['move']}\b"))
    expect(panel.locator(".review-now")).to_contain_text("Mistake")
    better = page.locator("#show-better")
    expect(better).to_have_text("Show the better move")
    assert better.bounding_box()["height"] >= 44
    better.click()
    drawn = page.locator(".replay-seat[data-seat='0'] .better-move")
    expect(drawn).to_be_visible()
    expect(drawn.locator(f".better-discard .tile[data-tile='{data['best']}']")).to_have_count(1)
    expect(page.locator("#show-better")).to_have_text("Hide the better move")
    expect(page.locator("#training-link")).to_have_attribute("href", "/training/")  # her mistakes, to train on
    no_sideways_scroll(page)
    shot(page, "review-better-move-phone")
    page.locator("#next-move").click()  # another move: the drawing goes with the turn it belongs to
    page.locator("#prev-move").click()
    expect(page.locator(".better-move")).to_have_count(0)

    # the marks are the player's: a visitor replays the same round without them
    visitor = browser.new_page()
    visitor.goto(f"{live_server_url}/table/{data['table_id']}/replay/?round=1&move={data['move']}")
    expect(visitor.locator(".replay-seat").first).to_be_visible()
    expect(visitor.locator("#review-panel")).to_be_hidden()
    visitor.close()

    # the puzzle: the same position, a wrong answer, then the solver's, and nothing next
    page.goto(f"{live_server_url}/training/")
    expect(page.locator("#puzzle")).to_be_visible()
    # each tile shows its colour mark once (table.css's corner mark) and its number inside
    doubled = page.evaluate("""() => [...document.querySelectorAll('#puzzle .tile')].filter((t) => {
      const mark = t.querySelector('.mark');
      return (mark && getComputedStyle(mark).display !== 'none' && getComputedStyle(t, '::before').content !== 'none')
        || t.scrollWidth > t.clientWidth; }).map((t) => t.dataset.tile)""")
    assert not doubled, f"tiles with their colour mark twice or their face spilling out: {doubled}"
    page.locator(f".rack-choice:has(input[value='{data['wrong']}'])").first.click()
    page.locator("#check-answer").click()
    expect(page.locator("#verdict.wrong")).to_contain_text("Not the best move")
    no_sideways_scroll(page)
    shot(page, "review-puzzle-wrong-phone")
    page.locator(f".rack-choice:has(input[value='{data['best']}'])").first.click()
    page.locator("#check-answer").click()
    expect(page.locator("#verdict.solved")).to_contain_text("Solved")
    expect(page.locator("#all-solved")).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "review-puzzle-solved-phone")

    # the accuracy beside the computer levels', on the match page and the profile
    page.goto(f"{live_server_url}/table/{data['table_id']}/match/")
    expect(page.locator("#match-accuracy")).to_be_visible()
    expect(page.locator("td.round-accuracy a")).to_have_count(1)
    page.locator(".round-card details summary").first.click()  # the move list marks the mistake
    expect(page.locator("ol.moves .move-mark.mark-mistake")).to_have_count(1)
    assert page.locator("ol.moves .move-mark").get_attribute("href").endswith(f"move={data['move']}")
    no_sideways_scroll(page)
    shot(page, "review-match-phone")
    page.goto(f"{live_server_url}/players/{data['user']}/")
    expect(page.locator("#player-accuracy")).to_be_visible()
    page.locator("#player-accuracy details.level-accuracy summary").first.click()
    expect(page.locator("#player-accuracy tr[data-level='strong']")).to_be_visible()
    no_sideways_scroll(page)
    shot(page, "review-profile-phone")
    phone.close()

    desktop = browser.new_context(viewport={"width": 1366, "height": 800})
    page = desktop.new_page()
    log_in(page, live_server_url, data["user"], data["password"])
    page.goto(f"{live_server_url}/table/{data['table_id']}/replay/?round=1&move={data['move']}")
    page.locator("#show-better").click()
    expect(page.locator(".better-move")).to_be_visible()
    shot(page, "review-replay-desktop")
    desktop.close()
