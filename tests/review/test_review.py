"""The review judges each turn from what the seat could know, against positions whose
best decision is known (docs/review.md)."""
from __future__ import annotations

from collections import Counter

import pytest

from games.bots.selfplay import play_round
from games.engine import api
from games.review import marks, review_seat

OTHERS = [["K1", "K2", "Y9", "B11"], ["Y2", "Y4", "B6", "K8"], ["R1", "R9", "B13", "Y12"]]


def okey_position(rack, table=(), opened=("no", "no", "no", "no"), phase="play", pile=("Y6", "K5", "B3")):
    """An okey51 position with seat 0 to move (RULES.md §7 loaded position, D-31)."""
    return {"ruleset": "okey51", "options": api.normalize_options("okey51", {}), "indicator": "Y10",
            "turn": 0, "phase": phase, "pile": list(pile), "discards": [[], [], [], []],
            "seats": [{"rack": list(rack), "opened": opened[0], "penalty": 0}]
            + [{"rack": list(r), "opened": o, "penalty": 0} for r, o in zip(OTHERS, opened[1:])],
            "table": [dict(m) for m in table], "highest_opening": None,
            "turn_state": {"took": None, "opened": False}, "last_action": None, "result": None}


def played(position, actions):
    """The actions, each checked accepted by the engine."""
    for action in actions:
        done = api.step(position, action)
        assert done.accepted, (action, done.code)
        position = done.position
    return actions


def test_a_missed_opening_at_51_is_a_blunder_and_the_best_move_lays_it():
    # 46 in reds and 21 in sevens: 67 >= 51 open, but the seat only discards
    rack = ["R10", "R11", "R12", "R13", "B7", "K7", "Y7", "B1", "K3", "Y5", "B9", "K12", "Y1", "R3", "B5"]
    start = okey_position(rack)
    actions = played(start, [{"seat": 0, "type": "discard", "tile": "B1"}])
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    assert [r["code"] for r in turn["reasons"]][0] == "missed_opening"
    # unopened pays 500; opened, after discarding K12 the rest (1+3+5+9+1+3+5 = 27) pays 5 x 27
    assert turn["reasons"][0]["points"] == 500 - 5 * 27
    assert turn["mark"] == "blunder"
    assert turn["best"]["open"] == "melds"
    laid = sorted(t for meld in turn["best"]["melds"] for t in meld)
    assert laid == sorted(["R10", "R11", "R12", "R13", "B7", "K7", "Y7"])


def test_opening_when_it_can_is_good():
    rack = ["R10", "R11", "R12", "R13", "B7", "K7", "Y7", "B1", "K3", "Y5", "B9", "K12", "Y1", "R3", "B5"]
    start = okey_position(rack)
    actions = played(start, [{"seat": 0, "type": "open", "melds": [["R10", "R11", "R12", "R13"], ["B7", "K7", "Y7"]]},
                             {"seat": 0, "type": "discard", "tile": "K12"}])
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    assert turn["cost"] == 0 and turn["mark"] == "good" and turn["moves"] == [1, 2]


def test_a_discard_that_feeds_the_next_seats_run_costs_the_penalty_and_the_take():
    # seat 1 (next) opened with R3-R4-R5 on the table: R6 is a penalty tile it can take into an add
    table = [{"id": 1, "owner": 1, "tiles": ["R3", "R4", "R5"]}, {"id": 2, "owner": 0, "tiles": ["K4", "K5", "K6"]}]
    start = okey_position(["R6", "K9"], table, opened=("melds", "melds", "no", "no"), phase="draw", pile=["B2", "K5"])
    actions = played(start, [{"seat": 0, "type": "draw"}, {"seat": 0, "type": "discard", "tile": "R6"}])
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    codes = {r["code"]: r["points"] for r in turn["reasons"]}
    assert codes == {"penalty_tile": 100, "feeds_next": 60}
    # best: K9 (R6 stays to be added, B2 pays 5 x 2); played: 100 + 60 + 5 x (9 + 2)
    assert turn["best"]["discard"] == "K9"
    assert turn["cost"] == 100 + 60 + 55 - 10
    assert turn["mark"] == "mistake"


def rami_position(rack, table, opened="yes"):
    return {"ruleset": "rami", "options": api.normalize_options("rami", {}), "players": 4, "turn": 0,
            "pile": ["Y3", "K11", "B2"], "table": [list(m) for m in table],
            "seats": [{"rack": list(rack), "opened": opened, "penalty": 0}]
            + [{"rack": list(r), "opened": "yes", "penalty": 0} for r in OTHERS],
            "turn_state": {"passes": 0}, "last_action": None, "result": None}


def test_a_rami_play_laying_fewer_tiles_than_the_solver_is_marked_with_the_tiles_left():
    table = [["B5", "B6", "B7"], ["R9", "K9", "Y9"]]
    rack = ["B4", "B8", "B9", "K1", "Y13"]
    start = rami_position(rack, table)
    actions = played(start, [{"seat": 0, "type": "play", "table": [["B5", "B6", "B7", "B8"], ["R9", "K9", "Y9"]]}])
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    # the solver lays B4, B8 and B9 (B4-B9, or B9 into the nines): 21 points against the 8 laid
    assert sorted(turn["best"]["placed"]) == ["B4", "B8", "B9"]
    assert turn["reasons"][0]["code"] == "fewer_tiles" and turn["reasons"][0]["tiles"] == 2
    assert turn["cost"] == 4 + 9 and turn["mark"] == "inaccuracy"
    table_tiles = Counter(t.partition("=")[0] for m in turn["best"]["table"] for t in m)
    assert table_tiles == Counter(t for m in table for t in m) + Counter(["B4", "B8", "B9"])
    assert all(api.meld_info("rami", m)["valid"] for m in turn["best"]["table"])


def test_a_rami_draw_when_the_table_took_tiles_is_marked():
    start = rami_position(["B8", "R9", "K2", "Y2", "R2"], [["B5", "B6", "B7"]])
    actions = played(start, [{"seat": 0, "type": "draw"}])
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    assert turn["reasons"][0]["code"] == "drew_instead"
    assert turn["cost"] == 8 + 2 + 2 + 2 and turn["mark"] == "inaccuracy"


def test_marks_follow_the_thresholds_of_docs_review():
    assert [marks.mark("okey51", c) for c in (0, 19, 20, 99, 100, 299, 300)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder"]
    assert marks.accuracy("okey51", [0, 0]) == 100.0
    assert marks.accuracy("okey51", [100]) == 36.8 and marks.accuracy("rami", [20]) == 36.8
    assert marks.accuracy("rami", []) is None


def _kept(initial, moves, seat):
    """Tiles of ``seat`` it never played: copies held from the deal to the round's end."""
    position = initial
    kept = Counter(initial["seats"][seat]["rack"])
    for move in moves:
        position = api.step(position, move).position
        kept &= Counter(position["seats"][seat]["rack"])
    return kept, position


@pytest.mark.parametrize("ruleset, seats", [("okey51", 4), ("okey17", 4), ("rami", 4)])
def test_changing_the_hidden_racks_leaves_the_review_unchanged(ruleset, seats):
    # Swap a tile two opponents never played between their racks, and a never-drawn pile
    # tile with another: every move replays, the reviewed seat sees the same, so its
    # review (sampled draws included) is the same.
    for k in range(40):
        result = play_round(ruleset, f"hidden-{k}", ["normal"] * seats, record=True)
        moves = [m["action"] for m in result.moves]
        initial = result.initial
        one, two = [s for s in range(1, seats) if s != result.finisher][:2]
        one_kept, final = _kept(initial, moves, one)
        two_kept, _ = _kept(initial, moves, two)
        a = next((t for t in sorted(one_kept) if t not in two_kept), None)
        b = next((t for t in sorted(two_kept) if t not in one_kept), None)
        if a and b:
            break
    changed = {**initial, "seats": [dict(s, rack=list(s["rack"])) for s in initial["seats"]],
               "pile": list(initial["pile"])}
    changed["seats"][one]["rack"][changed["seats"][one]["rack"].index(a)] = b
    changed["seats"][two]["rack"][changed["seats"][two]["rack"].index(b)] = a
    if final["pile"] and final["pile"][-1] != b:  # the pile's last tile is never drawn
        changed["pile"][-1], changed["seats"][one]["rack"][changed["seats"][one]["rack"].index(b)] = \
            b, changed["pile"][-1]
    steps = [api.step(changed, moves[0])]
    for move in moves[1:]:
        steps.append(api.step(steps[-1].position, move))
    # every move does what it did in the round played (accepted, or the same refusal)
    assert [m["result"] for m in result.moves] == ["ok" if s.accepted else s.code for s in steps]
    assert changed["seats"][1]["rack"] != initial["seats"][1]["rack"]
    assert review_seat(changed, moves, 0, "s") == review_seat(initial, moves, 0, "s")
    # the seed is what the sampled draws depend on: the review of another seed may differ,
    # and the same seed gives the same review again
    assert review_seat(initial, moves, 0, "s") == review_seat(initial, moves, 0, "s")
