"""What a move caused, as the rules report it: each Step's penalties (seat, amount,
reason, tile, by) for every reason of RULES.md §3-§4, the refused okey17 discards whose
penalty stays, and the round result (ARCHITECTURE.md invariant 1)."""
import copy

from games.engine import api
from games.engine.step import PENALTY_REASONS, Penalty
from tests.engine.okey_helpers import okey_position

OKEY51 = {
    "ruleset": "okey51", "options": {"doubling": True, "teams": False, "rounds": 1}, "indicator": "R5",
    "turn": 0, "phase": "play", "pile": ["K3", "B9", "Y4", "R2"], "discards": [[], [], [], []],
    "seats": [{"rack": ["B8", "B4", "K2"], "opened": "melds", "penalty": 0},
              {"rack": ["K1"], "opened": "melds", "penalty": 0},
              {"rack": ["Y3"], "opened": "no", "penalty": 0}, {"rack": ["Y4"], "opened": "no", "penalty": 0}],
    "table": [{"id": 1, "owner": 1, "tiles": ["B5", "B6", "B7"]}], "highest_opening": None,
}
# seat 0 adds B8 to seat 1's run, discards B4 which fits it (penalty tile), seat 1 takes
# that B4 into its own run (seat 0 pays for the taken discard) and ends with K1.
SCRIPT = [
    {"seat": 0, "type": "add", "meld": 1, "tile": "B8"},
    {"seat": 0, "type": "discard", "tile": "B4"},
    {"seat": 1, "type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "B4"}},
    {"seat": 1, "type": "discard", "tile": "K1"},
]
EXPECTED = [
    {"seat": 1, "amount": 80, "reason": "add", "tile": "B8", "by": 0},
    {"seat": 0, "amount": 100, "reason": "penalty_tile", "tile": "B4", "by": None},
    {"seat": 0, "amount": 40, "reason": "discard_taken", "tile": "B4", "by": 1},
]


def events(position, *actions):
    """Every penalty event of the actions played from ``position`` with ``api.replay``."""
    return [e for done in api.replay_all(position, actions).steps for e in done.events()]


def okey17(rack, table=None):
    position = copy.deepcopy(OKEY51)
    position.update(ruleset="okey17", options={"rounds": 7})
    position["seats"][0]["rack"] = rack
    position["seats"][1]["rack"] = ["K1", "K2"]
    if table is not None:
        position["table"] = table
    return position


def test_okey51_events_name_the_reason_the_tile_and_the_acting_seat():
    played = api.replay_all(OKEY51, SCRIPT)
    assert [e for done in played.steps for e in done.events()] == EXPECTED
    assert [p.as_dict() for p in played.penalties] == EXPECTED
    assert all(done.accepted for done in played.steps)
    assert [s["penalty"] for s in played.position["seats"]] == [140, 80, 0, 0]


def test_the_round_result_comes_with_the_step_that_ends_the_round():
    steps = api.replay_all(OKEY51, SCRIPT).steps
    assert [done.round_result is not None for done in steps] == [False, False, False, True]
    assert steps[-1].round_result == steps[-1].position["result"]
    assert steps[-1].round_result["finisher"] == 1 and steps[-1].round_result["end"] == "hand"


def test_okey17_refused_discards_that_cost_a_penalty_are_refused_steps_with_the_refusal_code():
    position = okey17(["B8", "K2"])
    done = api.step(position, {"seat": 0, "type": "discard", "tile": "B8"})
    assert (done.accepted, done.code, done.changed) == (False, "playable_discard", True)
    assert done.penalties == (Penalty(0, 100, "playable_discard", "B8", None),)
    assert done.position["seats"][0]["rack"] == ["B8", "K2"] and done.position["turn"] == 0
    assert done.position["seats"][0]["penalty"] == 100 and position["seats"][0]["penalty"] == 0
    moves = [{"seat": 0, "type": "discard", "tile": "B8"}, {"seat": 0, "type": "discard", "tile": "K2"}]
    assert events(position, *moves) == [
        {"seat": 0, "amount": 100, "reason": "playable_discard", "tile": "B8", "by": None}]
    joker = okey17(["R6", "K2"], table=[])
    done = api.step(joker, {"seat": 0, "type": "discard", "tile": "R6"})
    assert (done.accepted, done.code) == (False, "joker_discard")
    assert done.events() == [{"seat": 0, "amount": 400, "reason": "joker_discard", "tile": "R6", "by": None}]


def test_a_round_without_penalties_has_no_events():
    assert events(OKEY51, {"seat": 0, "type": "discard", "tile": "K2"}) == []


def test_a_refusal_without_penalty_changes_nothing_and_reports_nothing():
    done = api.step(OKEY51, {"seat": 0, "type": "add", "meld": 1, "tile": "K2"})
    assert (done.accepted, done.code, done.changed, done.penalties) == (False, "cannot_add", False, ())
    assert done.position is OKEY51


def test_okey51_swap_and_the_taken_wild_name_their_tiles():
    swap = okey_position("okey51", [["B8", "K2"], ["K1"], ["Y1"], ["Y2"]], opened=["melds", "melds", "no", "no"],
                         table=[(1, ["B7", "R6=B8", "B9"])])
    assert events(swap, {"seat": 0, "type": "swap", "meld": 1, "tile": "B8"}) == [
        {"seat": 1, "amount": 180, "reason": "swap", "tile": "B8", "by": 0}]
    take = okey_position("okey51", [["K7", "K8", "Y1"], ["K1"], ["Y1"], ["Y2"]], phase="draw",
                         opened=["melds", "no", "no", "no"], discards=[[], [], [], ["R6"]])
    then = {"type": "meld", "tiles": ["K7", "K8", "R6=K9"]}
    assert events(take, {"seat": 0, "type": "take_discard", "then": then}) == [
        {"seat": 3, "amount": 90, "reason": "discard_taken", "tile": "R6", "by": 0}]


def test_a_taken_discard_added_to_a_third_seats_meld_charges_both_in_seat_order():
    p = okey_position("okey51", [["Y1", "Y2"], ["K1"], ["Y3"], ["Y4"]], phase="draw",
                      opened=["melds", "melds", "no", "no"], discards=[[], [], [], ["B8"]],
                      table=[(1, ["B5", "B6", "B7"])])
    assert events(p, {"seat": 0, "type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "B8"}}) == [
        {"seat": 1, "amount": 80, "reason": "add", "tile": "B8", "by": 0},
        {"seat": 3, "amount": 80, "reason": "discard_taken", "tile": "B8", "by": 0}]


def test_okey17_joker_add_joker_swap_and_pair_in_area_events():
    p = okey_position("okey17", [["R6", "B8", "Y7", "Y7", "K2"], ["K1"], ["Y1"], ["Y2"]],
                      opened=["melds", "pairs", "melds", "no"],
                      table=[(2, ["B5", "B6", "B7"]), (1, ["K7", "R6=K8", "K9"])])
    assert events(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R6=B4"},
                  {"seat": 0, "type": "meld", "tiles": ["Y7", "Y7"], "owner": 1}) == [
        {"seat": 2, "amount": 40, "reason": "add", "tile": "R6=B4", "by": 0},
        {"seat": 1, "amount": 140, "reason": "pair_in_area", "tile": None, "by": 0}]
    swap = okey_position("okey17", [["K8", "K2"], ["K1"], ["Y1"], ["Y2"]], opened=["melds", "pairs", "no", "no"],
                         table=[(1, ["K7", "R6=K8", "K9"])])
    assert events(swap, {"seat": 0, "type": "swap", "meld": 1, "tile": "K8"}) == [
        {"seat": 1, "amount": 160, "reason": "swap", "tile": "K8", "by": 0}]


def test_okey17_a_taken_discard_laid_as_a_pair_in_a_pairs_area_names_the_taken_tile():
    p = okey_position("okey17", [["Y7", "K2", "K3"], ["K1"], ["Y1"], ["Y2"]], phase="draw",
                      opened=["melds", "pairs", "no", "no"], discards=[[], [], [], ["Y7"]])
    then = {"type": "meld", "tiles": ["Y7", "Y7"], "owner": 1}
    assert events(p, {"seat": 0, "type": "take_discard", "then": then}) == [
        {"seat": 1, "amount": 140, "reason": "pair_in_area", "tile": "Y7", "by": 0}]


def test_every_reason_is_a_known_reason():
    assert {e["reason"] for e in EXPECTED} <= set(PENALTY_REASONS)
    assert {"playable_discard", "joker_discard", "pair_in_area", "swap", "add"} <= set(PENALTY_REASONS)
