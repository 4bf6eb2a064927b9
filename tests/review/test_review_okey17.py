"""The okey17 judge on positions whose best decision is known (RULES.md §4, docs/review.md):
openings at the meld threshold, finishes (a direct finish too, D-13), refused discards
whose penalty stays (D-17), the strong computer's discard."""
from __future__ import annotations

from games.engine import api
from games.review import review_seat

OTHERS = [["K1", "K2", "Y9", "B11"], ["Y2", "Y4", "B6", "K8"], ["R1", "R9", "B13", "Y12"]]
BASE = 600  # indicator Y10: the okey is Y11, yellow (RULES.md §4 base)


def okey17_position(rack, table=(), opened=("no", "no", "no", "no"), phase="play", pile=("Y6", "K5", "B3"),
                    highest=None):
    """An okey17 position with seat 0 to move (RULES.md §7 loaded position)."""
    return {"ruleset": "okey17", "options": api.normalize_options("okey17", {}), "indicator": "Y10",
            "turn": 0, "phase": phase, "pile": list(pile), "discards": [[], [], [], []],
            "seats": [{"rack": list(rack), "opened": opened[0], "penalty": 0}]
            + [{"rack": list(r), "opened": o, "penalty": 0} for r, o in zip(OTHERS, opened[1:])],
            "table": [dict(m) for m in table], "highest_opening": highest,
            "turn_state": {"took": None, "opened": False, "grown": [], "jokers": []},
            "last_action": None, "result": None}


def stepped(position, actions):
    """The actions played in turn; returns (actions, [accepted per action])."""
    accepted = []
    for action in actions:
        done = api.step(position, action)
        accepted.append(done.accepted)
        position = done.position
    return actions, accepted


OPENING_RACK = ["R10", "R11", "R12", "B7", "K7", "Y7", "B1", "K3", "Y5", "B9", "K12", "Y1", "R3", "B5", "R6"]


def test_a_missed_opening_at_17_costs_the_base_against_the_tiles_left():
    # R10-R11-R12 is worth 11 and the sevens 7 (RULES.md §2 meld values): 18 >= 17
    start = okey17_position(OPENING_RACK)
    actions, accepted = stepped(start, [{"seat": 0, "type": "discard", "tile": "B1"}])
    assert accepted == [True]
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    reason = turn["reasons"][0]
    assert reason["code"] == "missed_opening_17" and reason["kind"] == "melds"
    # unopened pays the base 600; opened, nine tiles stay and one is discarded: 8 x 10
    assert reason["points"] == BASE - 10 * 8
    assert turn["mark"] == "blunder"
    laid = sorted(t for meld in turn["best"]["melds"] for t in meld)
    assert laid == sorted(["R10", "R11", "R12", "B7", "K7", "Y7"])


def test_opening_at_17_when_it_can_is_good():
    start = okey17_position(OPENING_RACK)
    actions, accepted = stepped(start, [
        {"seat": 0, "type": "open", "melds": [["R10", "R11", "R12"], ["B7", "K7", "Y7"]]},
        {"seat": 0, "type": "discard", "tile": "K12"}])
    assert accepted == [True, True]
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    assert [r["code"] for r in turn["reasons"] if r["code"].startswith("missed")] == []


def test_an_opening_below_a_raised_threshold_is_not_asked_for():
    # an earlier meld opening of 20 raises the threshold to 21: 18 does not open
    start = okey17_position(OPENING_RACK, highest=20)
    actions, _ = stepped(start, [{"seat": 0, "type": "discard", "tile": "B1"}])
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    assert "missed_opening_17" not in [r["code"] for r in turn["reasons"]]


def test_a_missed_direct_finish_costs_the_base_and_the_finishers_amount():
    # unopened: R10-R11-R12 and the sevens open at 18 and leave K1 to discard, going out (D-13)
    start = okey17_position(["R10", "R11", "R12", "B7", "K7", "Y7", "K1"])
    actions, accepted = stepped(start, [{"seat": 0, "type": "discard", "tile": "K1"}])
    assert accepted == [True]
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    assert turn["reasons"][0] == {"code": "missed_finish_17", "points": BASE // 10 + BASE, "base": BASE,
                                  "direct": True}
    assert turn["best"]["finish"] is True and turn["best"]["discard"] == "K1"
    assert turn["mark"] == "blunder"


def test_a_refused_playable_discard_costs_its_penalty():
    # seat 1's run R3-R4-R5 takes R6: offering R6 as a discard is refused and 100 stays (D-17)
    table = [{"id": 1, "owner": 1, "tiles": ["R3", "R4", "R5"]}, {"id": 2, "owner": 0, "tiles": ["K4", "K5", "K6"]}]
    start = okey17_position(["R6", "K9", "B2"], table, opened=("melds", "melds", "no", "no"), phase="draw",
                            pile=["Y2", "B12"])
    actions, accepted = stepped(start, [{"seat": 0, "type": "draw"}, {"seat": 0, "type": "discard", "tile": "R6"},
                                        {"seat": 0, "type": "discard", "tile": "K9"}])
    assert accepted == [True, False, True]
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    assert {"code": "playable_discard", "tile": "R6", "points": 100} in turn["reasons"]
    assert turn["cost"] >= 100 and turn["mark"] in ("mistake", "blunder")


def test_a_missed_finish_of_an_opened_seat_costs_the_finishers_amount_and_the_tiles_kept():
    table = [{"id": 1, "owner": 0, "tiles": ["K4", "K5", "K6"]}]
    start = okey17_position(["B5", "B6", "B7", "R9"], table, opened=("melds", "no", "no", "no"))
    actions, accepted = stepped(start, [{"seat": 0, "type": "discard", "tile": "R9"}])
    assert accepted == [True]
    turn = review_seat(start, actions, 0, "seed")["turns"][0]
    # the finisher's base / 10 (60) and the three tiles kept (10 each)
    assert turn["reasons"][0]["code"] == "missed_finish_17" and turn["reasons"][0]["points"] == 60 + 30
    assert turn["best"]["discard"] == "R9" and turn["mark"] == "inaccuracy"


def test_a_finish_counts_one_tile_per_end_of_a_table_meld():
    from games.bots.seen import decode
    from games.review import okey17

    table = [{"id": 1, "owner": 1, "tiles": ["R3", "R4", "R5"]}]
    opened = ("melds", "melds", "no", "no")
    both = decode(api.view(okey17_position(["R6", "R6", "K9"], table, opened=opened), 0))
    assert okey17.can_finish(both, both.rack, "melds") is None  # the second R6 cannot join this turn
    ends = decode(api.view(okey17_position(["R6", "R2", "K9"], table, opened=opened), 0))
    assert okey17.can_finish(ends, ends.rack, "melds") == ("melds", [], "K9")
