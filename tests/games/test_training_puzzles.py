"""More "Find the better move" puzzles (docs/review.md): missed finishes, takes and swaps
passed up, okey17 turns and rami missed wins, each checked by the review's judges; and the
puzzles a player solved are stored, so they stay solved after a new login."""
from types import SimpleNamespace

import pytest

from games import training
from games.engine import api
from games.models import SolvedPuzzle
from tests.games.test_review_pages import discard_puzzle, logged_in, reviewed_round
from tests.review.test_review import okey_position
from tests.review.test_review_okey17 import okey17_position


@pytest.mark.django_db(transaction=True)
def test_a_solved_puzzle_is_stored_and_stays_solved_after_a_new_login(alice, bob):
    _table, _rnd, row = reviewed_round(alice)
    for turn in row.turns:
        turn["mark"] = "good" if turn["mark"] else None
    turn, wrong = discard_puzzle(row)
    puzzle = f"{row.pk}-{turn['number']}"
    first = logged_in(alice)
    first.post("/training/", {"p": puzzle, "tile": wrong})
    assert not SolvedPuzzle.objects.filter(user=alice).exists()  # a wrong answer solves nothing
    first.post("/training/", {"p": puzzle, "tile": turn["best"]["discard"]})
    assert list(SolvedPuzzle.objects.filter(user=alice).values_list("review_id", "turn")) == [(row.pk, turn["number"])]
    first.post("/training/", {"p": puzzle, "tile": turn["best"]["discard"]})  # solving again adds nothing
    assert SolvedPuzzle.objects.filter(user=alice).count() == 1
    again = logged_in(alice)  # another login, another session
    page = again.get("/training/").content.decode()
    assert 'id="all-solved"' in page and "1 solved" in page
    assert training.solved_ids(alice) == {puzzle} and training.solved_ids(bob) == set()

    # a second puzzle: the next one is the unsolved one, after a new login too
    copy = type(row).objects.get(pk=row.pk)
    copy.pk = None
    copy.seat = 1
    copy.save()
    other = f"{copy.pk}-{turn['number']}"
    assert set(training.puzzle_ids(alice)) == {puzzle, other}
    page = logged_in(alice).get(f"/training/?p={puzzle}").content.decode()
    assert f'href="/training/?p={other}"' in page and 'id="next-puzzle"' in page
    assert f'data-puzzle="{other}"' in logged_in(alice).get("/training/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_an_okey17_round_is_reviewed_and_a_take_puzzle_is_answered_on_the_page(alice):
    _table, _rnd, row = reviewed_round(alice, "okey17")
    assert row.ruleset == "okey17" and row.accuracy is not None and row.turns
    for turn in row.turns:
        turn["mark"] = "good" if turn["mark"] else None
    drawn = next(t for t in row.turns if training.position(row, t, kind="take")["phase"] == "draw"
                 and training.position(row, t, kind="take")["discards"][(row.seat - 1) % 4])
    drawn.update(mark="inaccuracy", cost=30, reasons=[{"code": "missed_take_opening_17", "points": 30, "base": 500}],
                 best={"take": True, "open": "melds", "melds": [["R1", "R2", "R3"]]})
    row.save()
    puzzle = f"{row.pk}-{drawn['number']}"
    assert training.puzzle_ids(alice) == [puzzle]
    client = logged_in(alice)
    page = client.get("/training/").content.decode()
    assert 'id="take-choice"' in page and 'name="take"' in page
    drew = client.post("/training/", {"p": puzzle}).content.decode()  # nothing ticked: drawing from the pile
    assert 'class="verdict wrong"' in drew and "gives away 30 points" in drew
    french = client.post("/training/", {"p": puzzle}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Prenez-vous la défausse du joueur précédent" in french


def okey17_row():
    return SimpleNamespace(ruleset="okey17", seed="s", seat=0)


def test_an_okey17_take_puzzle_is_solved_by_the_opening_with_the_discard():
    rack = ["R10", "R11", "B7", "K7", "Y7", "B1", "K3", "Y5", "B9", "K12", "Y1", "R3", "B5", "R6"]
    position = okey17_position(rack, phase="draw", pile=("Y6", "K5"))
    position["discards"][3] = ["R12"]  # the previous seat's discard
    view = api.view(position, 0)
    turn = {"number": 1, "mark": "blunder", "reasons": [{"code": "missed_take_opening_17", "points": 520}],
            "best": {"take": True, "open": "melds", "melds": [["R10", "R11", "R12"], ["B7", "K7", "Y7"]]}}
    assert training.kind_of(okey17_row(), turn) == "take"
    opened = training.check(okey17_row(), turn, view, ["R10", "R11", "B7", "K7", "Y7"], taken="R12")
    assert (opened["valid"], opened["solved"], opened["cost"]) == (True, True, 0)
    drew = training.check(okey17_row(), turn, view, [], taken=None)
    assert (drew["valid"], drew["solved"], drew["cost"]) == (True, False, 520)
    # R10-R11-R12 alone is worth 11 < 17: no opening, the take is not allowed
    assert training.check(okey17_row(), turn, view, ["R10", "R11"], taken="R12")["valid"] is False


def test_an_okey17_swap_puzzle_wants_the_tile_the_joker_stands_for():
    # the okey is Y11: seat 1's run R5-(joker as R6)-R7; the seat holds R6
    table = [{"id": 1, "owner": 1, "tiles": ["R5", "Y11=R6", "R7"]}, {"id": 2, "owner": 0, "tiles": ["K4", "K5", "K6"]}]
    view = api.view(okey17_position(["R6", "K9", "B2", "Y3"], table, opened=("melds", "melds", "no", "no")), 0)
    turn = {"number": 1, "mark": "inaccuracy", "reasons": [{"code": "missed_swap_17", "points": 20}],
            "best": {"swap": {"meld": 1, "tile": "R6"}}}
    assert training.kind_of(okey17_row(), turn) == "swap"
    assert training.check(okey17_row(), turn, view, ["R6"])["solved"] is True
    wrong = training.check(okey17_row(), turn, view, ["K9"])
    assert (wrong["valid"], wrong["solved"], wrong["cost"]) == (True, False, 20)
    assert training.check(okey17_row(), turn, view, ["R6", "K9"])["valid"] is False


def test_an_okey17_discard_puzzle_charges_the_refused_playable_tile():
    table = [{"id": 1, "owner": 1, "tiles": ["R3", "R4", "R5"]}, {"id": 2, "owner": 0, "tiles": ["K4", "K5", "K6"]}]
    view = api.view(okey17_position(["R6", "K9", "B2"], table, opened=("melds", "melds", "no", "no")), 0)
    turn = {"number": 1, "mark": "mistake", "reasons": [{"code": "playable_discard", "tile": "R6", "points": 100}],
            "best": {"discard": "K9"}}
    assert training.kind_of(okey17_row(), turn) == "discard"
    refused = training.check(okey17_row(), turn, view, ["R6"])
    assert refused["reasons"][0] == {"code": "playable_discard", "tile": "R6", "points": 100}
    assert refused["cost"] >= 100 and refused["solved"] is False
    best = refused["best"][0]
    assert best in ("K9", "B2") and training.check(okey17_row(), turn, view, [best])["solved"] is True


def test_a_missed_finish_puzzle_wants_every_tile_but_one_laid():
    table = [{"id": 1, "owner": 0, "tiles": ["Y4", "Y5", "Y6"]}]
    rack = ["B5", "B6", "B7", "K2", "K3", "K4", "R9"]
    view = api.view(okey_position(rack, table, opened=("melds", "no", "no", "no")), 0)
    turn = {"number": 1, "mark": "blunder", "reasons": [{"code": "missed_finish", "points": 500}],
            "best": {"finish": True, "melds": [["B5", "B6", "B7"], ["K2", "K3", "K4"]], "discard": "R9"}}
    row = SimpleNamespace(ruleset="okey51", seed="s", seat=0)
    assert training.kind_of(row, turn) == "finish"
    out = training.check(row, turn, view, ["B5", "B6", "B7", "K2", "K3", "K4"])
    assert (out["valid"], out["solved"], out["cost"]) == (True, True, 0)
    short = training.check(row, turn, view, ["B5", "B6", "B7"])  # lays, but keeps four tiles
    assert (short["valid"], short["solved"], short["cost"]) == (True, False, 500)
    assert training.check(row, turn, view, ["B5", "B6", "K2"])["valid"] is False  # not melds


def test_a_rami_missed_win_is_a_lay_puzzle():
    view = {"ruleset": "rami", "seat": 0, "rack": ["B4", "B8", "R9"], "opened": ["yes", "yes"],
            "table": [["B5", "B6", "B7"], ["K9", "Y9", "B9"]], "options": {"joker_value": 30}}
    turn = {"number": 1, "mark": "blunder", "reasons": [{"code": "missed_finish", "points": 21, "tiles": 3}],
            "best": {"placed": ["B4", "B8", "R9"], "finish": True}}
    row = SimpleNamespace(ruleset="rami", seed="s", seat=0)
    assert training.kind_of(row, turn) == "lay"
    assert training.check(row, turn, view, ["B4", "B8", "R9"])["solved"] is True
    assert training.check(row, turn, view, ["B4"])["solved"] is False


def test_a_pairs_player_takes_the_discard_into_a_new_pair_only():
    table = [{"id": 1, "owner": 0, "tiles": ["K3", "K3"]}]
    position = okey_position(["B8", "R2", "Y9"], table, opened=("pairs", "no", "no", "no"), phase="draw")
    position["discards"][3] = ["B8"]
    view = api.view(position, 0)
    turn = {"number": 1, "mark": "inaccuracy", "reasons": [{"code": "missed_take", "points": 27}],
            "best": {"take": {"type": "meld", "tiles": ["B8", "B8"]}}}
    row = SimpleNamespace(ruleset="okey51", seed="s", seat=0)
    assert training.check(row, turn, view, ["B8"], taken="B8")["solved"] is True  # one new pair (D-7)
    assert training.check(row, turn, view, ["R2"], taken="B8")["valid"] is False
    assert training.check(row, turn, view, [], taken=None)["cost"] == 27
