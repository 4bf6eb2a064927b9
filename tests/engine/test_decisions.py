"""RULES.md decisions D-23 … D-33, one test per case, through ``api.step``."""
import pytest

from games.engine import api
from games.engine.errors import ERROR_ORDER
from tests.engine.okey_helpers import okey_position, penalties, play, refused


def pos(ruleset, rack, others=None, **kw):
    return okey_position(ruleset, [rack] + (others or [["K1", "K2"], ["Y3", "Y8"], ["Y4", "Y9"]]), **kw)


# ---- D-23: a take_discard's then is judged by its type first
@pytest.mark.parametrize("ruleset,then", [
    ("okey51", {"type": "swap", "meld": 1, "tile": "B8"}),
    ("okey17", {"type": "add", "meld": 1, "tile": "B8"}),
    ("okey51", {"type": "discard", "tile": "K2"}),
    ("okey51", {"type": "take_discard", "then": {"type": "open", "melds": []}}),
])
def test_a_then_of_a_type_the_ruleset_does_not_allow_is_discard_unused_before_its_own_errors(ruleset, then):
    p = pos(ruleset, ["K2", "K3"], phase="draw", discards=[[], [], [], ["B8"]], table=[(2, ["B7", "R6=B8", "B9"])])
    assert refused(p, {"seat": 0, "type": "take_discard", "then": then}).code == "discard_unused"


def test_nothing_to_take_comes_before_the_then_type():
    p = pos("okey51", ["K2", "K3"], phase="draw")
    swap = {"type": "swap", "meld": 1, "tile": "B8"}
    assert refused(p, {"seat": 0, "type": "take_discard", "then": swap}).code == "nothing_to_take"


# ---- D-24: both okeys placed, the higher represented value
def test_a_taken_okey_placed_with_the_other_okey_charges_the_higher_represented_value():
    rack = ["R6", "B3", "B4", "K11", "K12", "Y10", "K10", "B10", "Y1", "Y2"]
    p = pos("okey51", rack, phase="draw", discards=[[], [], [], ["R6"]])
    opening = [["R6=B2", "B3", "B4"], ["K11", "K12", "R6=K13"], ["Y10", "K10", "B10"]]
    done = api.step(p, {"seat": 0, "type": "take_discard", "then": {"type": "open", "melds": opening}})
    assert done.accepted and done.events() == [
        {"seat": 3, "amount": 130, "reason": "discard_taken", "tile": "R6", "by": 0}]
    for written in (["R6=Y9", "Y8", "R6=Y7"], ["R6=Y7", "Y8", "R6=Y9"]):
        q = pos("okey51", ["R6", "Y8", "K2", "K3"], phase="draw", opened=["melds", "no", "no", "no"],
                discards=[[], [], [], ["R6"]])
        q = play(q, {"seat": 0, "type": "take_discard", "then": {"type": "meld", "tiles": written}})
        assert penalties(q) == [0, 0, 0, 90]


def test_a_taken_okey_placed_alone_charges_what_it_stands_for_there():
    p = pos("okey51", ["R6", "Y8", "Y9", "K2"], phase="draw", opened=["melds", "no", "no", "no"],
            discards=[[], [], [], ["R6"]])
    p = play(p, {"seat": 0, "type": "take_discard", "then": {"type": "meld", "tiles": ["R6=Y7", "Y8", "Y9"]}})
    assert penalties(p) == [0, 0, 0, 70] and sorted(p["seats"][0]["rack"]) == ["K2", "R6"]


# ---- D-25: a bare okey on the table is a wild
def test_the_false_joker_swaps_a_bare_okey_out_and_the_okey_plays_again():
    p = pos("okey51", ["F", "K2", "K3", "Y9"], opened=["melds", "melds", "no", "no"], table=[(1, ["R5", "R6", "R7"])])
    p = play(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "F"},
             {"seat": 0, "type": "meld", "tiles": ["R6=K1", "K2", "K3"]})
    assert penalties(p) == [0, 160, 0, 0] and p["table"][0]["tiles"] == ["R5", "F", "R7"]


def test_a_bare_okey_added_to_another_players_run_is_a_joker_add_in_okey17():
    p = pos("okey17", ["R6", "K2", "K3"], opened=["melds", "melds", "no", "no"], table=[(1, ["R3", "R4", "R5"])])
    assert penalties(play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R6"})) == [0, 60, 0, 0]


# ---- D-26: no joker swap out of a group holding another wild
def test_a_groups_joker_is_swapped_only_from_four_tiles_without_another_wild():
    one = pos("okey17", ["K9", "Y2", "Y3"], opened=["melds", "melds", "no", "no"],
              table=[(1, ["B9", "R6=K9", "Y9", "R9"])])
    assert penalties(play(one, {"seat": 0, "type": "swap", "meld": 1, "tile": "K9"})) == [0, 90, 0, 0]
    two = pos("okey17", ["K9", "Y9", "Y2"], opened=["melds", "melds", "no", "no"],
              table=[(1, ["B9", "R6=K9", "R6=Y9", "R9"])])
    for tile in ("K9", "Y9"):
        assert refused(two, {"seat": 0, "type": "swap", "meld": 1, "tile": tile}).code == "cannot_swap"


def test_okey51_swaps_out_of_any_group():
    p = pos("okey51", ["K9", "Y2"], opened=["melds", "melds", "no", "no"], table=[(1, ["B9", "R6=K9", "R6=Y9"])])
    assert penalties(play(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "K9"})) == [0, 190, 0, 0]


# ---- D-27: no legal discard
def test_when_no_discard_is_legal_the_chosen_one_is_accepted_with_its_penalty():
    p = pos("okey17", ["B4", "R6"], opened=["melds", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    done = api.step(p, {"seat": 0, "type": "discard", "tile": "R6"})
    assert done.accepted and done.events() == [
        {"seat": 0, "amount": 400, "reason": "joker_discard", "tile": "R6", "by": None}]
    assert done.position["turn"] == 1


def test_a_legal_discard_left_makes_the_others_refused_with_their_penalty():
    p = pos("okey17", ["B4", "R6", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    steps = api.replay_all(p, [{"seat": 0, "type": "discard", "tile": t} for t in ("B4", "R6", "K2")]).steps
    assert [s.code for s in steps] == ["playable_discard", "joker_discard", None]
    assert steps[-1].position["seats"][0]["penalty"] == 500


# ---- D-28
@pytest.mark.parametrize("ruleset", ["okey51", "okey17"])
def test_an_open_with_no_melds_is_below_threshold(ruleset):
    assert refused(pos(ruleset, ["K2", "K3"]), {"seat": 0, "type": "open", "melds": []}).code == "below_threshold"


# ---- D-29: malformed actions
MALFORMED = [
    {"seat": 0, "type": "pass"},
    {"seat": 0},
    {"seat": 0, "type": "discard"},
    {"seat": 0, "type": "discard", "tile": "R14"},
    {"seat": 0, "type": "discard", "tile": "J"},  # no J in the okey set
    {"seat": 0, "type": "discard", "tile": "R6=B5"},  # a written wild is not a rack tile
    {"seat": 0, "type": "discard", "tile": 5},
    {"seat": 4, "type": "draw"},
    {"seat": -1, "type": "draw"},
    {"seat": True, "type": "draw"},
    {"seat": "0", "type": "draw"},
    {"type": "draw"},
    {"seat": 1, "type": "discard", "tile": 5},  # out of turn too
    {"seat": 0, "type": "add", "meld": "1", "tile": "B8"},
    {"seat": 0, "type": "add", "meld": 1},
    {"seat": 0, "type": "swap", "meld": 1, "tile": "R6=B8"},
    {"seat": 0, "type": "open", "melds": ["K1"]},
    {"seat": 0, "type": "open", "melds": [["K1", "Q3"]]},
    {"seat": 0, "type": "meld", "tiles": "K1 K2 K3"},
    {"seat": 0, "type": "meld", "tiles": ["K1", "K2", "K3"], "owner": 2},
    {"seat": 0, "type": "meld", "tiles": ["K1", "K2", "K3"], "owner": 7},
    {"seat": 0, "type": "take_discard"},
    {"seat": 0, "type": "take_discard", "then": "meld"},
    {"seat": 0, "type": "take_discard", "then": {"type": "fly"}},
    {"seat": 0, "type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "X"}},
    ["draw"],
    None,
]


@pytest.mark.parametrize("action", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_action_is_bad_action_before_every_other_code(action):
    p = pos("okey51", ["K2", "Y9"], opened=["melds", "no", "no", "no"], phase="draw")
    assert refused(p, action).code == "bad_action"
    over = play(pos("okey51", ["K2"], opened=["melds", "no", "no", "no"]), {"seat": 0, "type": "discard", "tile": "K2"})
    assert refused(over, action).code == "bad_action"  # round_over comes after


def test_well_formed_actions_with_extra_fields_are_judged_by_the_rules():
    p = pos("okey51", ["K2", "Y9"], phase="draw")
    assert play(p, {"seat": 0, "type": "draw", "tile": "ignored", "id": "x"})["seats"][0]["rack"][-1] == "K3"
    assert refused(p, {"seat": 0, "type": "discard", "tile": "F"}).code == "wrong_phase"  # F is an okey tile


def test_an_okey17_melds_player_may_name_a_pairs_player_as_owner_of_a_pair_only():
    p = pos("okey17", ["K4", "K5", "K6", "B9", "B9", "Y1", "Y2"], opened=["melds", "melds", "pairs", "no"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["K4", "K5", "K6"], "owner": 2}).code == "bad_action"
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["B9", "B9"], "owner": 1}).code == "melds_only"
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["B9", "B9"], "owner": None}).code == "melds_only"
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["B9", "B9"], "owner": 9}).code == "bad_action"
    q = play(p, {"seat": 0, "type": "meld", "tiles": ["B9", "B9"], "owner": 2},
             {"seat": 0, "type": "meld", "tiles": ["K4", "K5", "K6"], "owner": 0})
    assert penalties(q) == [0, 0, 180, 0] and [m["owner"] for m in q["table"]] == [2, 0]
    pairs = pos("okey17", ["B9", "B9", "K2"], opened=["pairs", "melds", "pairs", "no"])
    assert refused(pairs, {"seat": 0, "type": "meld", "tiles": ["B9", "B9"], "owner": 2}).code == "bad_action"


def test_rami_malformed_actions_are_bad_action_before_round_over():
    p = {"ruleset": "rami", "options": {}, "turn": 0, "pile": [], "table": [],
         "seats": [{"rack": ["R5"], "opened": "yes", "penalty": 0}, {"rack": ["B2"], "opened": "yes", "penalty": 0}]}
    for action in ({"seat": 0, "type": "discard", "tile": "R5"},
                   {"seat": 0, "type": "play", "table": [["F", "R1", "R2"]]},
                   {"seat": 0, "type": "play"}, {"seat": 2, "type": "draw"}):
        assert refused(p, action).code == "bad_action"


def test_the_error_order_starts_with_bad_action_then_round_over():
    assert ERROR_ORDER[:3] == ("bad_action", "round_over", "not_your_turn")


# ---- D-30: two wilds form a pair only when they stand for the same tile
def test_two_wilds_pair_only_standing_for_the_same_tile():
    assert api.meld_info("okey51", ["R6=K13", "R6=B13"], "R5") == {"valid": False}
    assert api.meld_info("okey17", ["R6=K13", "R6=K13"], "R5") == {"valid": True, "type": "pair", "points": 13}
    assert api.meld_info("okey51", ["R6", "R6"], "R5") == {"valid": True, "type": "pair", "points": 12}
    assert api.meld_info("okey51", ["R6", "R6=K13"], "R5") == {"valid": False}


# ---- D-31: a loaded position is at the start of its turn
def test_one_tile_per_end_counts_from_the_loaded_position():
    p = pos("okey17", ["B4", "B3", "B8", "K2", "Y9"], opened=["melds", "melds", "no", "no"],
            table=[(1, ["B5", "B6", "B7"])])
    steps = api.replay_all(p, [{"seat": 0, "type": "add", "meld": 1, "tile": t} for t in ("B4", "B3", "B8")]).steps
    assert [s.code for s in steps] == [None, "cannot_add", None]


def test_a_direct_finish_counts_from_the_loaded_position():
    p = pos("okey17", ["K2"], opened=["melds", "melds", "no", "no"])
    done = api.step(p, {"seat": 0, "type": "discard", "tile": "K2"})
    assert done.round_result["end"] == "hand"


# ---- D-32: a melds player may swap a wild out of a pairs player's pair; a pairs player never swaps
def test_a_melds_player_swaps_the_okey_out_of_a_pairs_players_pair_and_the_owner_pays():
    p = pos("okey51", ["B8", "K2"], opened=["melds", "pairs", "no", "no"], table=[(1, ["B8", "R6=B8"])])
    q = play(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B8"})
    assert penalties(q) == [0, 180, 0, 0]
    assert q["table"][0]["tiles"] == ["B8", "B8"] and sorted(q["seats"][0]["rack"]) == ["K2", "R6"]


def test_a_pairs_player_may_not_swap_even_out_of_another_pair():
    p = pos("okey51", ["B8", "K2"], opened=["pairs", "pairs", "no", "no"], table=[(1, ["B8", "R6=B8"])])
    assert refused(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B8"}).code == "pairs_only"


def test_swapping_out_of_a_pair_needs_the_partner_tile_itself():
    p = pos("okey51", ["B9", "K2"], opened=["melds", "pairs", "no", "no"], table=[(1, ["B8", "R6=B8"])])
    assert refused(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B9"}).code == "cannot_swap"


# ---- D-33: a wild in a pair is written wild=T; bare beside another tile it stands for itself
@pytest.mark.parametrize("ruleset", ["okey51", "okey17"])
def test_a_bare_wild_beside_another_tile_is_not_a_pair(ruleset):
    assert api.meld_info(ruleset, ["R12", "R6"], "R5") == {"valid": False}
    assert api.meld_info(ruleset, ["R12", "R6=R12"], "R5")["type"] == "pair"


def test_a_pairs_opening_with_a_bare_wild_beside_another_tile_is_refused():
    p = pos("okey51", ["R12", "R6", "B3", "B3", "Y4", "Y4", "K5", "K5", "K9", "K9", "Y1"])
    bare = {"seat": 0, "type": "open", "melds": [["R12", "R6"], ["B3", "B3"], ["Y4", "Y4"], ["K5", "K5"], ["K9", "K9"]]}
    assert refused(p, bare).code == "invalid_meld"
    named = dict(bare, melds=[["R12", "R6=R12"]] + bare["melds"][1:])
    assert play(p, named)["seats"][0]["opened"] == "pairs"
