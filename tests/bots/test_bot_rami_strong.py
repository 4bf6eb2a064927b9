"""Strong rami play in hand-made positions (RULES.md §5): the exact solver
rearranges table melds holding a joker, the rack's jokers stay in the rack, and
the most points (not the most tiles) are laid once an opponent is about to go out,
and a one-tile play that only opens places for the others is held back early."""
from __future__ import annotations

from games.bots import choose_action, rami
from games.engine import api
from tests.bots.helpers import played


def rami_position(rack, table, others=(["K1"] * 1,) * 3):
    return {"ruleset": "rami", "options": {}, "turn": 0, "pile": ["K3", "B9", "Y12", "R1"],
            "seats": [{"rack": list(rack), "opened": "yes", "penalty": 0}] + [
                {"rack": list(o), "opened": "yes", "penalty": 0} for o in others],
            "table": [list(m) for m in table]}


def laid(pos, action):
    """Rack tiles the play laid (physical tiles, ``J`` for a joker)."""
    from collections import Counter
    before = Counter(t.partition("=")[0] for m in pos["table"] for t in m)
    after = Counter(t.partition("=")[0] for m in action["table"] for t in m)
    return after - before


def test_strong_frees_a_table_joker_to_lay_tiles_normal_draws():
    # R5 replaces the joker in R4-J-R6; the freed joker completes B8-B9.
    pos = rami_position(["R5", "B8", "B9", "Y2", "K13"], [["R4", "J=R5", "R6"], ["K7", "Y7", "B7"]])
    strong = choose_action(api.view(pos, 0), "strong", seed=1)
    assert strong["type"] == "play"
    after = played(pos, strong)  # legal: every meld valid, every table tile kept
    assert sorted(laid(pos, strong).elements()) == ["B8", "B9", "R5"]
    assert sorted(after["seats"][0]["rack"]) == ["K13", "Y2"]
    normal = choose_action(api.view(pos, 0), "normal", seed=1)
    assert normal["type"] == "draw"


def test_strong_keeps_its_rack_joker_when_it_cannot_go_out():
    # the joker could extend R9-R11, but it stays in the rack: B1-B2-B3 is laid alone.
    pos = rami_position(["B1", "B2", "B3", "J", "Y5"], [["R9", "R10", "R11"]])
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    assert a["type"] == "play"
    played(pos, a)
    assert "J" not in laid(pos, a)
    assert laid(pos, a)["B1"] == 1


def test_strong_lays_its_joker_to_go_out():
    pos = rami_position(["K11", "K12", "J"], [["R9", "R10", "R11"]])
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    assert api.is_over(played(pos, a))


# tiles objective: R7, R8, K8 (3 tiles, 23 points); value objective: R12, R13 (2 tiles, 25)
VALUE_RACK = ["B3", "R12", "R7", "R4", "R2", "K4", "Y5", "K8", "R8", "R13"]
VALUE_TABLE = [["R6", "B6", "K6"], ["R7", "K7", "Y7"], ["R9", "K9", "Y9"], ["R10", "K10", "Y10"],
               ["R11", "B11", "K11", "Y11"], ["R13", "B13", "K13", "Y13"]]


def test_strong_lays_the_most_points_when_an_opponent_is_about_to_go_out():
    close = ["K1"] * rami.VALUE_RACK
    pos = rami_position(VALUE_RACK, VALUE_TABLE, others=(["Y1"] * 9, close, ["B1"] * 9))
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    played(pos, a)
    assert sorted(laid(pos, a).elements()) == ["R12", "R13"]


def test_strong_lays_the_most_tiles_while_every_opponent_holds_more():
    far = ["K1"] * (rami.VALUE_RACK + 1)
    pos = rami_position(VALUE_RACK, VALUE_TABLE, others=(["Y1"] * 9, far, ["B1"] * 9))
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    played(pos, a)
    assert sorted(laid(pos, a).elements()) == ["K8", "R7", "R8"]


EARLY_PILE = ([f"{c}{n}" for c in "KBY" for n in range(1, 14)] * 2)[:rami.HOLD_BACK["pile_min"]]
FULL = ["Y9"] * rami.HOLD_BACK["opponents_min"]  # an opponent nowhere near going out


def early_position(rack, table, others=(FULL,) * 3):
    """Seat 0 to play early in the round (HOLD_BACK's pile), the opponents' racks as given."""
    pos = rami_position(rack, table, others)
    pos["pile"] = list(EARLY_PILE)
    return pos


def test_strong_holds_back_a_small_play_that_only_feeds_the_others():
    # R7 on R4-R6 lays one tile and opens R8 (two unseen copies) to the others: strong draws.
    pos = early_position(["R7", "B1", "Y13", "K9", "B11"], [["R4", "R5", "R6"]])
    assert choose_action(api.view(pos, 0), "strong", seed=1)["type"] == "draw"
    assert choose_action(api.view(pos, 0), "normal", seed=1)["type"] == "play"


def test_strong_lays_the_small_play_once_the_others_come_near_going_out():
    pos = early_position(["R7", "B1", "Y13", "K9", "B11"], [["R4", "R5", "R6"]],
                         others=(FULL, FULL[:-1], FULL))
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    assert a["type"] == "play" and laid(pos, a)["R7"] == 1
    played(pos, a)


def test_strong_lays_a_tile_that_opens_no_new_place():
    # K5 completes the group of 5s: nothing new for the others, so it is laid at once.
    pos = early_position(["K5", "B1", "Y13", "K9", "B11"], [["R5", "B5", "Y5"]])
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    assert a["type"] == "play" and laid(pos, a)["K5"] == 1
    played(pos, a)


def test_strong_lays_a_larger_play_at_once():
    # three tiles (a new run) are more than the hold-back's limit: laid even early.
    assert rami.HOLD_BACK["max_tiles"] < 3
    pos = early_position(["B2", "B3", "B4", "Y13", "K9"], [["R4", "R5", "R6"]])
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    assert a["type"] == "play" and sum(laid(pos, a).values()) == 3
    played(pos, a)
