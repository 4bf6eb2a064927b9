"""Unit tests of the ``rami`` ruleset, one rule at a time (RULES.md §5, §7)."""
from __future__ import annotations

import copy
from collections import Counter

import pytest

from games.engine import api
from games.engine.rulesets.rami import DEFAULT_OPTIONS, RAMI as rami
from games.engine.tiles import full_set
from tests.deals import text_deal_seed


def position(racks, table=(), pile=("K3", "B9", "Y4", "R2"), turn=0, opened=None, options=None):
    """A loaded position: racks per seat, table melds, everybody opened unless told."""
    opened = opened if opened is not None else ["yes"] * len(racks)
    return {
        "ruleset": "rami",
        "options": options or {},
        "turn": turn,
        "pile": list(pile),
        "seats": [{"rack": list(r), "opened": o, "penalty": 0} for r, o in zip(racks, opened)],
        "table": [list(m) for m in table],
    }


def play(seat, *melds):
    return {"seat": seat, "type": "play", "table": [list(m) for m in melds]}


def apply(pos, action):
    """The position after an accepted action (fails the test on a refusal)."""
    done = api.step(pos, action)
    assert done.accepted, done.code
    assert done.penalties == ()  # rami has no in-round penalties
    return done.position


def refused(pos, action):
    """The error code of a refused action; also checks nothing changed."""
    before = copy.deepcopy(pos)
    done = api.step(pos, action)
    assert not done.accepted and done.position is pos and not done.changed
    assert pos == before
    return done.code


# --- options, deal, match -------------------------------------------------------------

def test_options_take_the_defaults():
    assert rami.normalize_options({}) == {
        "rounds": None, "target": None, "joker_value": 30, "double_one_turn": False}
    assert rami.normalize_options({"joker_value": 50})["joker_value"] == 50


@pytest.mark.parametrize("bad", [
    {"joker_value": 40}, {"rounds": 0}, {"target": -5}, {"rounds": 2, "target": 100},
    {"double_one_turn": "yes"}, {"colour": "red"},
])
def test_options_refuse_bad_values(bad):
    with pytest.raises(ValueError):
        rami.normalize_options(bad)


def test_deal_gives_fourteen_tiles_each_from_the_106_set():
    pos = rami.deal({}, text_deal_seed("seed-1"), players=4, first=2)
    assert [len(s["rack"]) for s in pos["seats"]] == [14] * 4
    assert len(pos["pile"]) == 106 - 56
    everything = pos["pile"] + [t for s in pos["seats"] for t in s["rack"]]
    assert Counter(everything) == Counter(full_set("rami", 4))
    assert pos["turn"] == 2
    assert pos["table"] == [] and pos["result"] is None
    assert all(s["opened"] == "no" and s["penalty"] == 0 for s in pos["seats"])
    assert "indicator" not in pos and "discards" not in pos and "phase" not in pos


def test_deal_for_six_uses_the_160_set_with_four_jokers():
    pos = rami.deal({}, text_deal_seed("big", 6), players=6)
    everything = pos["pile"] + [t for s in pos["seats"] for t in s["rack"]]
    assert len(everything) == 160
    assert everything.count("J") == 4
    assert len(pos["pile"]) == 160 - 6 * 14


def test_deal_is_deterministic_by_seed():
    assert rami.deal({}, text_deal_seed("abc")) == rami.deal({}, text_deal_seed("abc"))
    assert rami.deal({}, text_deal_seed("abc")) != rami.deal({}, text_deal_seed("abd"))


@pytest.mark.parametrize("players,first", [(1, 0), (7, 0), (4, 4)])
def test_deal_refuses_bad_table_sizes(players, first):
    with pytest.raises(ValueError):
        rami.deal({}, text_deal_seed("x"), players=players, first=first)


def test_official_match_is_one_round_per_player():
    assert rami.match_length({}, 3) == 3
    assert rami.match_length({"rounds": 2}, 4) == 2
    assert rami.match_length({"target": 200}, 4) is None
    assert not rami.match_over({}, 4, [0, 0, 0, 0], 3)
    assert rami.match_over({}, 4, [0, 0, 0, 0], 4)
    assert rami.match_over({"target": 100}, 2, [100, -100], 1)
    assert not rami.match_over({"target": 100}, 2, [99, -99], 9)


def test_standings_put_the_highest_total_first_ties_by_seat():
    assert rami.standings(None, [10, 40, 40, -90]) == [1, 2, 0, 3]


# --- melds ----------------------------------------------------------------------------

@pytest.mark.parametrize("tiles,expect", [
    (["R4", "R5", "R6"], {"valid": True, "type": "run", "points": 15}),
    (["R6", "R4", "R5"], {"valid": True, "type": "run", "points": 15}),
    (["R1", "R2", "R3"], {"valid": True, "type": "run", "points": 6}),
    (["B9", "K9", "Y9", "R9"], {"valid": True, "type": "group", "points": 36}),
    (["J=K7", "K8", "K9"], {"valid": True, "type": "run", "points": 24}),
    (["R12", "R13", "R1"], {"valid": False}),
    (["R13", "R1", "R2"], {"valid": False}),
    (["J", "K8", "K9"], {"valid": False}),
    (["R5", "R5"], {"valid": False}),
    (["R5", "B5", "R5"], {"valid": False}),
    (["R5", "R6", "R8"], {"valid": False}),
    (["B5=R5", "R6", "R7"], {"valid": False}),
    (["J=R5", "J=R6", "J=R7"], {"valid": False}),
])
def test_meld_info(tiles, expect):
    assert rami.meld_info(tiles) == expect


def test_table_stores_runs_lowest_first_and_groups_by_colour():
    assert rami.canonical_meld(["R6", "J=R5", "R4"]) == ["R4", "J=R5", "R6"]
    assert rami.canonical_meld(["Y9", "B9", "R9"]) == ["R9", "B9", "Y9"]


# --- play: the initial meld ----------------------------------------------------------

def test_initial_meld_needs_30_points():
    pos = position([["R1", "R2", "R3", "K10", "K11", "K12", "B5"], ["K1"]], opened=["no", "yes"])
    assert refused(pos, play(0, ["R1", "R2", "R3"])) == "below_threshold"
    after = apply(pos, play(0, ["R1", "R2", "R3"], ["K10", "K11", "K12"]))
    assert after["seats"][0]["opened"] == "yes"
    assert after["seats"][0]["rack"] == ["B5"]


def test_initial_meld_of_exactly_30_opens():
    pos = position([["K9", "K10", "K11", "B1"], ["K1"]], opened=["no", "yes"])
    after = apply(pos, play(0, ["K9", "K10", "K11"]))
    assert after["seats"][0]["rack"] == ["B1"]
    assert after["seats"][0]["opened"] == "yes"
    assert after["turn"] == 1


def test_initial_meld_counts_a_joker_as_the_tile_it_represents():
    pos = position([["K9", "J", "K11", "B1"], ["K1"]], opened=["no", "yes"])
    assert apply(pos, play(0, ["K9", "J=K10", "K11"]))["seats"][0]["opened"] == "yes"
    pos = position([["K1", "J", "K3", "B1"], ["K1"]], opened=["no", "yes"])
    assert refused(pos, play(0, ["K1", "J=K2", "K3"])) == "below_threshold"


def test_initial_meld_may_not_touch_the_table():
    pos = position([["R7", "R10", "R11", "R12"], ["K1"]], table=[["R4", "R5", "R6"]],
                   opened=["no", "yes"])
    action = play(0, ["R4", "R5", "R6", "R7"], ["R10", "R11", "R12"])
    assert refused(pos, action) == "initial_meld_touches_table"


def test_initial_meld_may_rewrite_an_untouched_meld_in_another_order():
    pos = position([["R10", "R11", "R12", "B1"], ["K1"]], table=[["R4", "R5", "R6"]],
                   opened=["no", "yes"])
    after = apply(pos, play(0, ["R6", "R4", "R5"], ["R12", "R10", "R11"]))
    assert sorted(map(sorted, after["table"])) == [["R10", "R11", "R12"], ["R4", "R5", "R6"]]


def test_initial_meld_using_only_table_tiles_is_below_threshold():
    pos = position([["B1"], ["K1"]], table=[["R4", "R5", "R6"]], opened=["no", "yes"])
    # No new meld: worth 0 < 30, reported before no_tiles_played (RULES.md §7 order).
    assert refused(pos, play(0, ["R4", "R5", "R6"])) == "below_threshold"


# --- play: after the initial meld ----------------------------------------------------

def test_opened_player_may_rearrange_the_table():
    pos = position([["R7", "R8", "Y1"], ["K1"]],
                   table=[["R3", "R4", "R5", "R6"], ["B7", "K7", "Y7"]])
    after = apply(pos, play(0, ["R3", "R4", "R5"], ["R6", "R7", "R8"], ["B7", "K7", "Y7"]))
    assert after["seats"][0]["rack"] == ["Y1"]
    assert after["table"] == [["R3", "R4", "R5"], ["R6", "R7", "R8"], ["B7", "K7", "Y7"]]
    assert after["last_action"] == {"seat": 0, "type": "play", "table": after["table"]}


def test_a_freed_joker_must_be_reused_in_the_same_turn():
    pos = position([["R5", "K8", "K9", "B1"], ["K1"]], table=[["R4", "J=R5", "R6"]])
    after = apply(pos, play(0, ["R4", "R5", "R6"], ["J=K7", "K8", "K9"]))
    assert after["seats"][0]["rack"] == ["B1"]
    # Taking the joker back to the rack is a table difference.
    assert refused(pos, play(0, ["R4", "R5", "R6"])) == "table_mismatch"


def test_every_table_tile_must_stay_on_the_table():
    pos = position([["B7", "Y1"], ["K1"]], table=[["B4", "B5", "B6"], ["K7", "K8", "K9"]])
    assert refused(pos, play(0, ["B4", "B5", "B6", "B7"])) == "table_mismatch"


def test_a_play_never_reports_tile_not_in_rack():
    pos = position([["B7"], ["K1"]], table=[["B4", "B5", "B6"]])
    assert refused(pos, play(0, ["B4", "B5", "B6", "B7", "B8"])) == "table_mismatch"
    assert refused(pos, play(0, ["B4", "B5", "B6"], ["J=B7", "B8", "B9"])) == "table_mismatch"


def test_a_play_must_lay_a_rack_tile():
    pos = position([["B7"], ["K1"]], table=[["B4", "B5", "B6", "B7"]])
    assert refused(pos, play(0, ["B4", "B5", "B6", "B7"])) == "no_tiles_played"
    assert refused(pos, play(0, ["B7", "B6", "B5", "B4"])) == "no_tiles_played"


def test_every_meld_must_be_valid_at_the_end_of_the_turn():
    pos = position([["B7", "B8", "Y1"], ["K1"]], table=[["B4", "B5", "B6"]])
    assert refused(pos, play(0, ["B4", "B5", "B6", "B7"], ["B8"])) == "invalid_meld"
    assert refused(pos, play(0, ["B4", "B5", "B6"], ["B7", "B8"])) == "invalid_meld"


def test_a_joker_in_a_meld_is_written_with_what_it_represents():
    pos = position([["J", "B1"], ["K1"]], table=[["B4", "B5", "B6"]])
    assert refused(pos, play(0, ["B4", "B5", "B6", "J"])) == "invalid_meld"
    after = apply(pos, play(0, ["B4", "B5", "B6", "J=B7"]))
    assert after["table"] == [["B4", "B5", "B6", "J=B7"]]


def test_error_order_follows_rules_section_7():
    pos = position([["R10", "R11", "R12", "B1"], ["K1"]], table=[["R4", "R5", "R6"]],
                   opened=["no", "yes"])
    # mismatch (K13 not owned) beats touching the table and an invalid meld
    assert refused(pos, play(0, ["R4", "R5"], ["R6", "K13"])) == "table_mismatch"
    # touching the table beats an invalid meld
    assert refused(pos, play(0, ["R4", "R5"], ["R6", "R10", "R11", "R12"])) == \
        "initial_meld_touches_table"
    # an invalid meld beats below_threshold
    assert refused(pos, play(0, ["R4", "R5", "R6"], ["R10", "R11"])) == "invalid_meld"
    assert refused(pos, play(1, ["R4", "R5", "R6"])) == "not_your_turn"


def test_malformed_actions_are_bad_action():
    pos = position([["B1"], ["K1"]])
    assert refused(pos, {"seat": 0, "type": "discard", "tile": "B1"}) == "bad_action"
    assert refused(pos, {"seat": 0, "type": "play", "table": "B1"}) == "bad_action"
    assert refused(pos, {"seat": 0, "type": "play", "table": [["Q9"]]}) == "bad_action"
    assert refused(pos, {"seat": 9, "type": "draw"}) == "bad_action"
    assert refused(pos, ["draw"]) == "bad_action"


# --- draw and pass -------------------------------------------------------------------

def test_draw_takes_the_top_pile_tile_and_ends_the_turn():
    pos = position([["B1"], ["K1"]], pile=["R9", "R10"])
    after = apply(pos, {"seat": 0, "type": "draw"})
    assert after["seats"][0]["rack"] == ["B1", "R9"]
    assert after["pile"] == ["R10"]
    assert after["turn"] == 1
    assert after["last_action"] == {"seat": 0, "type": "draw"}


def test_everyone_passing_on_an_empty_pile_ends_the_round_lowest_rack_wins():
    pos = position([["R5", "K10"], ["B3"], ["J"]], pile=[], turn=1)
    draw = lambda seat: {"seat": seat, "type": "draw"}  # noqa: E731
    pos = apply(pos, draw(1))
    pos = apply(pos, draw(2))
    assert not rami.is_over(pos)
    pos = apply(pos, draw(0))
    assert rami.is_over(pos)
    assert pos["result"]["end"] == "blocked"
    assert pos["result"]["finisher"] is None and pos["result"]["winner"] == 1
    assert rami.round_scores(pos) == [-12, 39, -27]
    assert refused(pos, draw(1)) == "round_over"


def test_a_play_breaks_the_row_of_passes():
    pos = position([["R5", "K10", "K11", "K12"], ["B3"]], pile=[], turn=1)
    pos = apply(pos, {"seat": 1, "type": "draw"})
    pos = apply(pos, play(0, ["K10", "K11", "K12"]))
    assert pos["turn_state"] == {"passes": 0}
    pos = apply(pos, {"seat": 1, "type": "draw"})
    assert not rami.is_over(pos)
    pos = apply(pos, {"seat": 0, "type": "draw"})
    assert rami.round_scores(pos) == [-2, 2]


# --- end of round and scores ---------------------------------------------------------

def test_laying_the_last_tile_wins_the_round():
    pos = position([["R7"], ["K1"], ["J"], ["B2", "B3"]], table=[["R4", "R5", "R6"]])
    after = apply(pos, play(0, ["R4", "R5", "R6", "R7"]))
    assert rami.is_over(after)
    assert after["result"]["end"] == "rami" and after["result"]["finisher"] == 0
    assert rami.round_scores(after) == [36, -1, -30, -5]
    assert after["result"]["racks"] == [[], ["K1"], ["J"], ["B2", "B3"]]


def test_joker_value_option_makes_a_left_joker_cost_50():
    pos = position([["R7"], ["J", "B1"]], table=[["R4", "R5", "R6"]], options={"joker_value": 50})
    assert rami.round_scores(apply(pos, play(0, ["R4", "R5", "R6", "R7"]))) == [51, -51]


def test_going_out_in_one_turn_doubles_with_the_option():
    racks = [["K10", "K11", "K12"], ["B2", "B3"]]
    one_turn = play(0, ["K10", "K11", "K12"])
    on = position(racks, opened=["no", "yes"], options={"double_one_turn": True})
    after = apply(on, one_turn)
    assert rami.round_scores(after) == [10, -10]
    assert after["result"]["end"] == "direct"
    off = position(racks, opened=["no", "yes"])
    assert rami.round_scores(apply(off, one_turn)) == [5, -5]
    laid_before = position(racks, opened=["yes", "yes"], options={"double_one_turn": True})
    assert rami.round_scores(apply(laid_before, one_turn)) == [5, -5]


def test_score_tie_goes_to_the_first_seat_in_order():
    seats = [{"rack": ["R9"], "opened": "yes"}, {"rack": ["B4"], "opened": "no"},
             {"rack": ["K4"], "opened": "yes"}]
    assert rami.score({}, seats, None) == [-5, 5, 0]


def test_double_applies_only_to_a_finisher():
    seats = [{"rack": ["R9"], "opened": "yes"}, {"rack": ["B4"], "opened": "yes"}]
    assert rami.score({"double_one_turn": True}, seats, None, direct=True) == [-5, 5]


def test_apply_never_mutates_its_input():
    pos = rami.deal({}, text_deal_seed("mutation"))
    frozen = copy.deepcopy(pos)
    apply(pos, {"seat": 0, "type": "draw"})
    assert pos == frozen


# --- view and assisted table ---------------------------------------------------------

def test_view_shows_only_the_own_rack_and_counts():
    pos = rami.deal({}, text_deal_seed("view"))
    mine = rami.view(pos, 1)
    assert mine["rack"] == pos["seats"][1]["rack"]
    assert mine["rack_counts"] == [14, 14, 14, 14]
    assert mine["pile_count"] == len(pos["pile"])
    assert set(mine) == {
        "ruleset", "options", "players", "seat", "turn", "phase", "rack", "rack_counts", "pile_count",
        "table", "opened", "penalty", "highest_opening", "threshold", "turn_state",
        "last_action", "result"}
    assert mine["phase"] == "play" and mine["threshold"] == 30
    assert mine["table"] == [] and mine["result"] is None and mine["last_action"] is None
    spectator = rami.view(pos, None)
    assert spectator["rack"] == [] and spectator["threshold"] is None
    with pytest.raises(ValueError):
        rami.view(pos, 4)


def test_penalty_tiles_are_always_empty():
    assert rami.penalty_tiles(rami.deal({}, text_deal_seed("p")), 0) == []


def test_add_targets_lists_the_melds_a_tile_extends():
    table = [["R4", "R5", "R6"], ["B7", "K7", "Y7"], ["K1", "K2", "K3"], ["B9", "K9", "Y9", "R9"]]
    pos = position([["R7", "R7", "J", "B1"], ["K1"]], table=table)
    assert rami.add_targets(pos, 0, "R7") == [0, 1]
    assert rami.add_targets(pos, 0, "J") == [0, 1, 2]
    assert rami.add_targets(pos, 0, "B1") == []
    assert rami.add_targets(pos, 0, "K4") == []  # not in the rack
    assert rami.add_targets(pos, 1, "K1") == []  # not seat 1's turn
    unopened = position([["R7"], ["K1"]], table=table, opened=["no", "yes"])
    assert rami.add_targets(unopened, 0, "R7") == []


def test_add_action_is_a_legal_play():
    pos = position([["J", "B1"], ["K1"]], table=[["R4", "R5", "R6"]])
    action = rami.add_action(pos, 0, "J", 0)
    assert action == {"seat": 0, "type": "play", "table": [["R4", "R5", "R6", "J=R7"]]}
    assert apply(pos, action)["seats"][0]["rack"] == ["B1"]
    with pytest.raises(ValueError):
        rami.add_action(pos, 0, "B1", 0)


def test_a_loaded_position_gets_normalized_options_and_player_count():
    pos = position([["B1"], ["K1"]])
    after = apply(pos, {"seat": 0, "type": "draw"})
    assert after["options"] == DEFAULT_OPTIONS
    assert after["players"] == 2
    assert after["result"] is None and after["turn_state"] == {"passes": 0}


def test_threshold_in_the_view_only_before_the_initial_meld():
    pos = position([["B1"], ["K1"]], opened=["yes", "no"])
    assert rami.view(pos, 0)["threshold"] is None
    assert rami.view(pos, 1)["threshold"] == 30


def test_the_api_dispatches_to_rami():
    pos = api.deal("rami", {"joker_value": 50}, text_deal_seed("api", 3), players=3, first=1)
    assert api.normalize_options("rami", {})["joker_value"] == 30
    assert api.view(pos, 1)["rack"] == pos["seats"][1]["rack"]
    after = api.step(pos, {"seat": 1, "type": "draw"}).position
    assert after["turn"] == 2 and len(after["seats"][1]["rack"]) == 15
    assert api.step(after, {"seat": 1, "type": "draw"}).code == "not_your_turn"
    assert api.meld_info("rami", ["R4", "J=R5", "R6"])["points"] == 15
    assert api.match_length("rami", {}, 3) == 3
