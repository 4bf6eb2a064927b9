"""okey51 rules, one test per rule (RULES.md §3, §7)."""
import copy

from games.engine import api
from tests.deals import text_deal
from tests.engine.okey_helpers import okey_position, penalties, play, refused

OTHERS = [["K1", "K2"], ["Y3", "Y8"], ["Y4", "Y9"]]


def pos(rack, others=None, **kw):
    return okey_position("okey51", [rack] + (others or [list(r) for r in OTHERS]), **kw)


def test_it_deals_15_tiles_to_the_first_seat_and_14_to_the_others():
    p = text_deal("okey51", "seed-a", first=2)
    assert [len(s["rack"]) for s in p["seats"]] == [14, 14, 15, 14]
    assert p["turn"] == 2 and p["phase"] == "play"
    assert len(p["pile"]) == 106 - 57 - 1


def test_the_deal_depends_only_on_the_seed():
    assert text_deal("okey51", "x") == text_deal("okey51", "x")
    assert text_deal("okey51", "x")["seats"] != text_deal("okey51", "y")["seats"]


def test_the_indicator_is_never_a_false_joker():  # D-2
    assert all(text_deal("okey51", f"s{i}")["indicator"] != "F" for i in range(300))


def test_it_refuses_out_of_turn_action():
    assert refused(pos(["K7", "K8"], phase="draw"), {"seat": 1, "type": "draw"}).code == "not_your_turn"


def test_it_refuses_discarding_before_drawing():
    assert refused(pos(["K7", "K8"], phase="draw"), {"seat": 0, "type": "discard", "tile": "K7"}).code == "wrong_phase"


def test_it_refuses_a_second_draw():
    assert refused(pos(["K7", "K8"]), {"seat": 0, "type": "draw"}).code == "wrong_phase"


def test_it_refuses_drawing_from_an_empty_pile():
    assert refused(pos(["K7"], phase="draw", pile=[]), {"seat": 0, "type": "draw"}).code == "empty_pile"


def test_a_draw_takes_the_top_pile_tile():
    p = play(pos(["K7"], phase="draw", pile=["B2", "B3"]), {"seat": 0, "type": "draw"})
    assert p["seats"][0]["rack"] == ["K7", "B2"] and p["pile"] == ["B3"] and p["phase"] == "play"


def test_it_refuses_taking_when_the_previous_seat_has_not_discarded():
    p = pos(["K7"], phase="draw")
    take = {"seat": 0, "type": "take_discard", "then": {"type": "open", "melds": []}}
    assert refused(p, take).code == "nothing_to_take"


def test_it_refuses_taking_a_discard_that_is_not_laid():
    p = pos(["K7", "K8", "Y1"], phase="draw", opened=["melds", "no", "no", "no"],
            discards=[[], [], [], ["K9"]])
    assert refused(p, {"seat": 0, "type": "take_discard"}).code == "bad_action"  # D-29: no then
    swap = {"seat": 0, "type": "take_discard", "then": {"type": "swap", "meld": 1, "tile": "K9"}}
    assert refused(p, swap).code == "discard_unused"
    lay_other = {"seat": 0, "type": "take_discard", "then": {"type": "meld", "tiles": ["K7", "K8", "R6"]}}
    assert refused(p, lay_other).code == "tile_not_in_rack"


def test_a_taken_discard_laid_in_a_new_meld_charges_the_discarder():  # D-18
    p = pos(["K7", "K8", "Y1"], phase="draw", opened=["melds", "no", "no", "no"], discards=[[], [], [], ["K9"]])
    p = play(p, {"seat": 0, "type": "take_discard", "then": {"type": "meld", "tiles": ["K7", "K8", "K9"]}})
    assert penalties(p) == [0, 0, 0, 90]
    assert p["discards"][3] == [] and p["seats"][0]["rack"] == ["Y1"] and p["phase"] == "play"


def test_a_taken_discard_added_charges_the_discarder_and_the_meld_owner():
    p = pos(["Y1", "Y2"], phase="draw", opened=["melds", "melds", "no", "no"], discards=[[], [], [], ["B8"]],
            table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "B8"}})
    assert penalties(p) == [0, 80, 0, 80]


def test_a_taken_wild_charges_the_value_it_represents():
    p = pos(["K7", "K8", "Y1"], phase="draw", opened=["melds", "no", "no", "no"], discards=[[], [], [], ["R6"]])
    p = play(p, {"seat": 0, "type": "take_discard", "then": {"type": "meld", "tiles": ["K7", "K8", "R6=K9"]}})
    assert penalties(p) == [0, 0, 0, 90]


def test_it_refuses_an_opening_below_51():
    p = pos(["K10", "K11", "K12", "B1", "B2", "B3", "Y7"])
    act = {"seat": 0, "type": "open", "melds": [["K10", "K11", "K12"], ["B1", "B2", "B3"]]}
    assert refused(p, act).code == "below_threshold"


def test_it_opens_at_51_and_records_the_highest_opening():
    p = pos(["K10", "K11", "K12", "B13", "Y13", "R13", "Y7"])
    p = play(p, {"seat": 0, "type": "open", "melds": [["K10", "K11", "K12"], ["B13", "Y13", "R13"]]})
    assert p["seats"][0]["opened"] == "melds" and p["highest_opening"] == 72
    assert [m["id"] for m in p["table"]] == [1, 2] and p["table"][0]["owner"] == 0


def test_doubling_requires_one_more_than_the_highest_opening():  # D-21
    rack = ["K10", "K11", "K12", "B13", "Y13", "R13", "Y7"]  # 72 points
    act = {"seat": 0, "type": "open", "melds": [["K10", "K11", "K12"], ["B13", "Y13", "R13"]]}
    assert refused(pos(rack, highest_opening=72), act).code == "below_threshold"
    assert play(pos(rack, highest_opening=71), act)["highest_opening"] == 72
    no_doubling = pos(rack, highest_opening=90, options={"doubling": False})
    assert play(no_doubling, act)["highest_opening"] == 90


def test_a_pairs_opening_needs_five_pairs_and_ignores_the_chain():  # D-7
    four = ["B9", "B9", "K1", "K1", "Y2", "Y2", "R3", "R3"]
    act4 = {"seat": 0, "type": "open", "melds": [four[i:i + 2] for i in range(0, 8, 2)]}
    assert refused(pos(four + ["Y7"], highest_opening=80), act4).code == "below_threshold"
    five = four + ["K4", "K4"]
    act5 = {"seat": 0, "type": "open", "melds": [five[i:i + 2] for i in range(0, 10, 2)]}
    p = play(pos(five + ["Y7"], highest_opening=80), act5)
    assert p["seats"][0]["opened"] == "pairs" and p["highest_opening"] == 80


def test_it_refuses_an_opening_mixing_pairs_and_runs():
    p = pos(["K10", "K11", "K12", "B13", "B13", "Y7"])
    act = {"seat": 0, "type": "open", "melds": [["K10", "K11", "K12"], ["B13", "B13"]]}
    assert refused(p, act).code == "invalid_meld"


def test_an_opened_player_opening_again_is_wrong_phase():
    p = pos(["K10", "K11", "K12", "Y7"], opened=["melds", "no", "no", "no"])
    assert refused(p, {"seat": 0, "type": "open", "melds": [["K10", "K11", "K12"]]}).code == "wrong_phase"


def test_after_opening_a_player_lays_and_adds_in_the_same_turn():  # D-8
    p = pos(["K10", "K11", "K12", "B13", "Y13", "R13", "Y7", "Y8", "Y9", "K9", "K2"])
    p = play(p, {"seat": 0, "type": "open", "melds": [["K10", "K11", "K12"], ["B13", "Y13", "R13"]]},
             {"seat": 0, "type": "meld", "tiles": ["Y7", "Y8", "Y9"]},
             {"seat": 0, "type": "add", "meld": 1, "tile": "K9"})
    assert p["table"][0]["tiles"] == ["K9", "K10", "K11", "K12"] and p["table"][2]["id"] == 3
    assert penalties(p) == [0, 0, 0, 0]


def test_it_refuses_laying_before_opening():
    p = pos(["Y7", "Y8", "Y9", "K2"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y8", "Y9"]}).code == "not_opened"


def test_it_refuses_pairs_player_laying_a_run():
    p = pos(["Y7", "Y8", "Y9", "K2"], opened=["pairs", "no", "no", "no"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y8", "Y9"]}).code == "pairs_only"


def test_it_refuses_pairs_player_adding():
    p = pos(["B8", "K2"], opened=["pairs", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    assert refused(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B8"}).code == "pairs_only"


def test_it_refuses_pairs_player_swapping():
    p = pos(["K4", "K2"], opened=["pairs", "melds", "no", "no"], table=[(1, ["K3", "R6=K4", "K5"])])
    assert refused(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "K4"}).code == "pairs_only"


def test_a_pairs_player_lays_new_pairs():
    p = play(pos(["Y7", "Y7", "K2"], opened=["pairs", "no", "no", "no"]),
             {"seat": 0, "type": "meld", "tiles": ["Y7", "Y7"]})
    assert p["table"][0]["tiles"] == ["Y7", "Y7"]


def test_it_refuses_meld_player_laying_a_pair():
    p = pos(["Y7", "Y7", "K2"], opened=["melds", "no", "no", "no"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y7"]}).code == "melds_only"


def test_an_add_to_an_opponent_charges_value_times_ten():
    p = pos(["B4", "K2", "Y11"], opened=["melds", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B4"})
    assert p["table"][0]["tiles"] == ["B4", "B5", "B6", "B7"] and penalties(p) == [0, 40, 0, 0]


def test_an_added_wild_charges_the_value_it_represents():
    p = pos(["R6", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R6=B8"})
    assert penalties(p) == [0, 80, 0, 0]


def test_adds_to_own_and_partner_melds_are_free():
    table = [(0, ["B5", "B6", "B7"]), (2, ["K5", "K6", "K7"])]
    p = pos(["B8", "K8", "Y1"], opened=["melds", "no", "melds", "no"], table=table, options={"teams": True})
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B8"},
             {"seat": 0, "type": "add", "meld": 2, "tile": "K8"})
    assert penalties(p) == [0, 0, 0, 0]
    solo = pos(["K8", "Y1"], opened=["melds", "no", "melds", "no"], table=table)
    assert penalties(play(solo, {"seat": 0, "type": "add", "meld": 2, "tile": "K8"})) == [0, 0, 80, 0]


def test_it_refuses_adding_where_the_tile_does_not_fit():
    p = pos(["B9", "B8", "K2"], opened=["melds", "melds", "no", "no"],
            table=[(1, ["B5", "B6", "B7"]), (1, ["Y9", "Y9"])])
    assert refused(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B9"}).code == "cannot_add"
    assert refused(p, {"seat": 0, "type": "add", "meld": 7, "tile": "B8"}).code == "cannot_add"
    assert refused(p, {"seat": 0, "type": "add", "meld": 2, "tile": "R6=Y9"}).code == "tile_not_in_rack"


def test_a_swap_charges_the_owner_100_plus_value_times_ten():
    p = pos(["B8", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["B7", "R6=B8", "B9"])])
    p = play(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B8"})
    assert penalties(p) == [0, 180, 0, 0]
    assert p["table"][0]["tiles"] == ["B7", "B8", "B9"] and sorted(p["seats"][0]["rack"]) == ["K2", "R6"]


def test_it_refuses_a_swap_without_a_matching_wild():
    p = pos(["B7", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["B7", "R6=B8", "B9"])])
    assert refused(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B7"}).code == "cannot_swap"


def test_it_refuses_an_action_that_leaves_the_rack_empty():
    p = pos(["Y7", "Y8", "Y9"], opened=["melds", "no", "no", "no"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y8", "Y9"]}).code == "must_keep_tile"


def test_a_penalty_tile_costs_100_also_unopened():  # D-17
    p = pos(["B4", "K2"], table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "discard", "tile": "B4"})
    assert penalties(p) == [100, 0, 0, 0] and p["discards"][0] == ["B4"] and p["turn"] == 1


def test_discarding_the_okey_mid_round_costs_100():
    p = pos(["R6", "K2"], table=[(1, ["B5", "B6", "B7"])])
    assert penalties(play(p, {"seat": 0, "type": "discard", "tile": "R6"})) == [100, 0, 0, 0]


def test_a_tile_that_fits_nothing_costs_nothing():
    p = pos(["B10", "K2"], table=[(1, ["B5", "B6", "B7"]), (1, ["Y9", "Y9"])])
    assert penalties(play(p, {"seat": 0, "type": "discard", "tile": "B10"})) == [0, 0, 0, 0]


def test_a_normal_end_scores_the_hand_table():
    p = pos(["B4"], opened=["melds", "melds", "no", "pairs"],
            others=[["B3", "B4", "K10"], ["K2", "Y8"], ["Y1", "Y5"]], table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "discard", "tile": "B4"})
    assert p["result"]["end"] == "hand" and api.round_scores(p) == [-500, 85, 500, 60]
    assert penalties(p) == [0, 0, 0, 0] and api.round_totals(p) == [-500, 85, 500, 60]


def test_an_okey_end_costs_double_and_a_left_okey_is_flat():
    p = pos(["R6"], opened=["melds", "melds", "no", "melds"], others=[["B3", "B4"], ["K2"], ["R6", "K1"]])
    p = play(p, {"seat": 0, "type": "discard", "tile": "R6"})
    assert p["result"]["end"] == "okey" and api.round_scores(p) == [-1000, 70, 1000, 510]


def test_a_pairs_end_is_minus_1000_also_with_an_okey():  # D-9
    p = pos(["R6"], opened=["pairs", "melds", "no", "pairs"], others=[["B3", "B4"], ["K2"], ["R6", "F"]])
    p = play(p, {"seat": 0, "type": "discard", "tile": "R6"})
    assert api.round_scores(p) == [-1000, 70, 1000, 60 + 1000]


def test_the_false_joker_counts_its_identity():  # D-20
    scores = api.score("okey51", {}, [{"rack": [], "opened": "melds"}, {"rack": ["F", "K2"], "opened": "melds"}],
                       0, indicator="R5", final_discard="K3")
    assert scores == [-500, (6 + 2) * 5]


def test_the_round_ends_drawn_when_the_next_turn_starts_with_an_empty_pile():  # D-10
    p = pos(["K2", "Y12"], opened=["melds", "melds", "no", "no"], pile=[],
            others=[["B3", "B4"], ["K5"], ["R6", "K1"]])
    p = play(p, {"seat": 0, "type": "discard", "tile": "K2"})
    assert p["result"]["end"] == "draw" and p["result"]["finisher"] is None
    assert api.round_scores(p) == [60, 35, 500, 500]


def test_an_unopened_player_cannot_finish():
    assert refused(pos(["K2"]), {"seat": 0, "type": "discard", "tile": "K2"}).code == "not_opened"


def test_every_action_after_the_end_is_round_over():
    p = play(pos(["B4"], opened=["melds", "melds", "no", "no"]), {"seat": 0, "type": "discard", "tile": "B4"})
    assert refused(p, {"seat": 1, "type": "draw"}).code == "round_over"
    assert refused(p, {"seat": 3, "type": "discard", "tile": "Y4"}).code == "round_over"


def test_the_first_rule_broken_in_section_7_order_is_reported():
    p = pos(["K2", "Y3"], phase="draw")
    assert refused(p, {"seat": 1, "type": "discard", "tile": "K2"}).code == "not_your_turn"
    assert refused(p, {"seat": 1, "type": "discard", "tile": "Q"}).code == "bad_action"  # D-29 first
    p = pos(["K2", "Y3"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["B1", "B1"]}).code == "tile_not_in_rack"
    p = pos(["B1", "B2", "K2"], opened=["pairs", "no", "no", "no"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["B1", "B2"]}).code == "invalid_meld"
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["B1", "B2", "K2"]}).code == "pairs_only"


def test_it_refuses_malformed_actions_as_bad_action():
    p = pos(["K2"])
    assert refused(p, {"seat": 0, "type": "fly"}).code == "bad_action"
    assert refused(p, {"type": "draw"}).code == "bad_action"
    assert refused(p, {"seat": 9, "type": "draw"}).code == "bad_action"


def test_apply_never_mutates_its_input():
    p = pos(["K10", "K11", "K12", "B13", "Y13", "R13", "Y7", "B8"], table=[(1, ["B5", "B6", "B7"])],
            opened=["no", "melds", "no", "no"])
    before = copy.deepcopy(p)
    q = play(p, {"seat": 0, "type": "open", "melds": [["K10", "K11", "K12"], ["B13", "Y13", "R13"]]},
             {"seat": 0, "type": "add", "meld": 1, "tile": "B8"}, {"seat": 0, "type": "discard", "tile": "Y7"})
    assert p == before and q != p


def test_the_view_hides_other_racks_and_the_pile():
    p = text_deal("okey51", "view")
    v = api.view(p, 1)
    assert v["rack"] == p["seats"][1]["rack"] and v["rack_counts"] == [15, 14, 14, 14]
    assert "pile" not in v and "seats" not in v and v["pile_count"] == len(p["pile"])
    assert v["okey"] and v["threshold"] == 51
    assert api.view(p, None)["rack"] == []


def test_penalty_tiles_and_add_targets_help_the_assisted_table():
    p = pos(["B4", "K8", "R6", "Y1"], opened=["melds", "melds", "no", "no"],
            table=[(1, ["B5", "B6", "B7"]), (1, ["K9", "Y9", "B9"])])
    assert sorted(api.penalty_tiles(p, 0)) == ["B4", "R6"]
    assert api.add_targets(p, 0, "B4") == [1]
    assert api.add_targets(p, 0, "R6") == [1, 2]
    assert api.add_targets(p, 0, "K8") == []


def test_a_loaded_position_may_omit_defaults():
    p = {"ruleset": "okey51", "indicator": "R5", "turn": 0, "phase": "draw", "pile": ["K1"],
         "seats": [{"rack": ["K2"]}, {"rack": ["K3"]}]}
    q = play(p, {"seat": 0, "type": "draw"})
    assert q["options"] == {"doubling": True, "teams": False, "rounds": 1}
    assert q["seats"][0] == {"opened": "no", "penalty": 0, "rack": ["K2", "K1"]} and q["discards"] == [[], []]


def test_a_fifth_pair_completed_by_the_taken_discard_opens_with_pairs():
    four = ["B9", "B9", "K1", "K1", "Y2", "Y2", "R3", "R3", "K4", "Y12"]
    p = pos(four, phase="draw", discards=[[], [], [], ["K4"]])
    melds = [["B9", "B9"], ["K1", "K1"], ["Y2", "Y2"], ["R3", "R3"], ["K4", "K4"]]
    p = play(p, {"seat": 0, "type": "take_discard", "then": {"type": "open", "melds": melds}})
    assert p["seats"][0]["opened"] == "pairs" and penalties(p) == [0, 0, 0, 40]


def test_the_false_joker_swaps_for_a_wild_standing_for_the_okey_identity():
    p = pos(["F", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["R5", "R6", "R7"])])
    p = play(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "F"})
    assert p["table"][0]["tiles"] == ["R5", "F", "R7"] and penalties(p) == [0, 160, 0, 0]


def test_a_swap_from_a_partner_is_free_in_team_play():
    p = pos(["B8", "K2"], opened=["melds", "no", "melds", "no"], table=[(2, ["B7", "R6=B8", "B9"])],
            options={"teams": True})
    assert penalties(play(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B8"})) == [0, 0, 0, 0]
