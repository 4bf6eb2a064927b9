"""The review on the pages (docs/review.md): the replay's JSON carries the marks of the
viewer's own seats only, the match page and the profile show the accuracy beside the
computer levels', and the training page turns mistakes into puzzles (solved, wrong, next)."""
from types import SimpleNamespace

import pytest
from django.test import Client

from accounts.player_settings import PlayerSettings
from games import reviews, training
from games.bots.seen import decode
from games.models import Round, RoundReview
from games.review import okey51 as okey_judge
from games.review.knowledge import sampler
from tests.games.play.helpers import play_out
from tests.games.test_records import solo

pytestmark = pytest.mark.django_db(transaction=True)


def reviewed_round(user, ruleset="okey51"):
    table = solo(user, ruleset=ruleset)
    play_out(table)
    rnd = Round.objects.get(match__table=table, index=0)
    assert reviews.store_round_reviews(rnd.pk) == 1
    return table, rnd, RoundReview.objects.get(round=rnd)


def logged_in(user):
    client = Client()
    client.force_login(user)
    return client


def test_the_replay_json_has_the_viewers_own_review_only(alice, bob):
    table, rnd, row = reviewed_round(alice)
    url = f"/table/{table.pk}/replay/frames/?round=1"
    (mine,) = logged_in(alice).get(url).json()["round"]["reviews"]
    assert mine["seat"] == 0 and mine["accuracy"] == row.accuracy and mine["own"] is True
    assert [t["number"] for t in mine["turns"]] == [t["number"] for t in row.turns]
    assert all(t["mark_label"] for t in mine["turns"] if t["mark"])
    labels = {"fr": "Bon", "es": "Bien", "tr": "İyi", "en": "Good"}  # the marks in the player's language
    for language, good in labels.items():
        data = logged_in(alice).get(url, HTTP_ACCEPT_LANGUAGE=language).json()["round"]["reviews"][0]
        assert data["labels"]["good"] == good
    assert logged_in(bob).get(url).json()["round"]["reviews"] == []
    assert Client().get(url).json()["round"]["reviews"] == []
    prefs = PlayerSettings.for_user(alice)
    prefs.public_review_marks = True
    prefs.save()
    (public,) = logged_in(bob).get(url).json()["round"]["reviews"]
    assert public["seat"] == 0 and public["own"] is False


def test_the_match_page_and_profile_show_the_accuracy_beside_the_computer_levels(alice, bob):
    table, rnd, row = reviewed_round(alice)
    page = logged_in(alice).get(f"/table/{table.pk}/match/").content.decode()
    assert 'id="match-accuracy"' in page and str(row.accuracy) in page and 'data-level="strong"' in page
    assert 'id="match-accuracy"' not in logged_in(bob).get(f"/table/{table.pk}/match/").content.decode()
    profile = logged_in(alice).get("/players/alice/").content.decode()
    assert 'id="player-accuracy"' in profile and str(row.accuracy) in profile and 'id="training-link"' in profile
    assert 'id="player-accuracy"' not in logged_in(bob).get("/players/alice/").content.decode()


def discard_puzzle(row):
    """Make one of the review's discard turns a puzzle the real judge can fail: a turn where
    some rack tile gives points away (as a mistake would be stored). Returns (turn, wrong tile)."""
    for turn in row.turns:
        view = training.position(row, turn, kind="discard")
        if view is None:
            continue
        costs = {}
        for tile in sorted(set(view["rack"])):
            judged = okey_judge.judge_discard(decode(view), tile, sampler(row.seed, row.seat, turn["number"]))
            costs[tile] = judged
        wrong = [t for t, j in costs.items() if j["cost"] > 0]
        if wrong:
            best = costs[wrong[0]]["best"]
            turn.update(mark="mistake", cost=costs[wrong[0]]["cost"], reasons=costs[wrong[0]]["reasons"]
                        or [{"code": "weaker_rack", "points": costs[wrong[0]]["cost"]}], best={"discard": best})
            row.save()
            return turn, wrong[0]
    pytest.skip("no discard of this round gives points away")


def test_a_puzzle_is_solved_answered_wrong_and_leads_to_the_next(alice):
    _table, _rnd, row = reviewed_round(alice)
    for turn in row.turns:  # only the turn made a puzzle below counts
        turn["mark"] = "good" if turn["mark"] else None
    turn, wrong = discard_puzzle(row)
    puzzle = f"{row.pk}-{turn['number']}"
    assert training.puzzle_ids(alice) == [puzzle]
    client = logged_in(alice)
    page = client.get("/training/").content.decode()
    assert f'data-puzzle="{puzzle}"' in page and 'name="tile"' in page

    answered = client.post("/training/", {"p": puzzle, "tile": wrong}).content.decode()
    assert 'class="verdict wrong"' in answered and f"gives away {turn['cost']} points" in answered

    best = turn["best"]["discard"]
    solved = client.post("/training/", {"p": puzzle, "tile": best}).content.decode()
    assert 'class="verdict solved"' in solved and 'id="all-solved"' in solved

    assert client.post("/training/", {"p": puzzle, "tile": "K99"}).status_code == 200  # not a rack tile
    assert "Choose one tile" in client.post("/training/", {"p": puzzle}).content.decode()
    assert client.get("/training/?p=999999-1").status_code == 404


def test_the_next_puzzle_is_the_following_one_not_solved(alice):
    _table, _rnd, row = reviewed_round(alice)
    for turn in row.turns:
        turn["mark"] = "good" if turn["mark"] else None
    first, _wrong = discard_puzzle(row)
    copy = RoundReview.objects.get(pk=row.pk)
    copy.pk = None
    copy.seat = 1
    copy.save()
    ids = training.puzzle_ids(alice)
    assert len(ids) == 2
    page = logged_in(alice).get(f"/training/?p={ids[0]}").content.decode()
    assert f'href="/training/?p={ids[1]}"' in page and 'id="next-puzzle"' in page


def test_a_rami_lay_puzzle_is_checked_by_the_solver():
    view = {"ruleset": "rami", "seat": 0, "rack": ["B4", "B8", "B9", "K1", "Y13"], "opened": ["yes", "yes"],
            "table": [["B5", "B6", "B7"], ["R9", "K9", "Y9"]], "options": {"joker_value": 30}}
    turn = {"number": 1, "best": {"placed": ["B4", "B8", "B9"]}}
    row = SimpleNamespace(ruleset="rami", seed="s", seat=0)
    assert training.check(row, turn, view, ["B4", "B8", "B9"])["solved"] is True
    wrong = training.check(row, turn, view, ["B8"])
    assert (wrong["valid"], wrong["solved"], wrong["cost"]) == (True, False, 13)
    assert training.check(row, turn, view, ["K1"])["valid"] is False  # the table cannot take it


def test_a_missed_opening_puzzle_is_checked_against_the_solvers_opening():
    from games.engine import api
    from tests.review.test_review import okey_position

    rack = ["R10", "R11", "R12", "R13", "B7", "K7", "Y7", "B1", "K3", "Y5", "B9", "K12", "Y1", "R3", "B5"]
    view = api.view(okey_position(rack), 0)
    turn = {"number": 1, "mark": "blunder", "reasons": [{"code": "missed_opening", "points": 365}],
            "best": {"open": "melds", "melds": [["R10", "R11", "R12", "R13"], ["B7", "K7", "Y7"]]}}
    row = SimpleNamespace(ruleset="okey51", seed="s", seat=0)
    assert training.kind_of(row, turn) == "open"
    solved = training.check(row, turn, view, ["R10", "R11", "R12", "R13", "B7", "K7", "Y7"])
    assert (solved["valid"], solved["solved"], solved["cost"]) == (True, True, 0)
    # R11-R12-R13 (36) + the sevens (21) opens too, but leaves R10 on the rack: 5 x 10 more
    weaker = training.check(row, turn, view, ["R11", "R12", "R13", "B7", "K7", "Y7"])
    assert (weaker["valid"], weaker["solved"], weaker["cost"]) == (True, False, 50)
    assert training.check(row, turn, view, ["R11", "R12", "R13"])["valid"] is False  # 36 < 51
