"""okey17 rules, one test per rule (RULES.md §4, §7)."""
from games.engine import api
from tests.engine.okey_helpers import okey_position, penalties, play, refused

OTHERS = [["K1", "K2"], ["Y3", "Y8"], ["Y4", "Y9"]]


def pos(rack, others=None, **kw):
    return okey_position("okey17", [rack] + (others or [list(r) for r in OTHERS]), **kw)


def test_the_first_meld_opening_needs_17_and_later_ones_the_highest_plus_one():
    rack = ["B11", "B12", "B13", "K13", "Y13", "R13", "Y5"]  # 12 + 13 = 25
    act = {"seat": 0, "type": "open", "melds": [["B11", "B12", "B13"], ["K13", "Y13", "R13"]]}
    assert play(pos(rack), act)["highest_opening"] == 25
    assert refused(pos(rack, highest_opening=25), act).code == "below_threshold"
    assert play(pos(rack, highest_opening=24), act)["highest_opening"] == 25
    small = {"seat": 0, "type": "open", "melds": [["B11", "B12", "B13"]]}
    assert refused(pos(rack), small).code == "below_threshold"


def test_a_pairs_opening_needs_one_and_a_half_times_the_threshold():  # D-11
    rack = ["B9", "B9", "K9", "K9", "Y7", "Y7", "R1", "R1", "K2"]  # 9 + 9 + 7 = 25, + 1 = 26
    three = {"seat": 0, "type": "open", "melds": [["B9", "B9"], ["K9", "K9"], ["Y7", "Y7"]]}
    assert refused(pos(rack), three).code == "below_threshold"
    four = {"seat": 0, "type": "open", "melds": [["B9", "B9"], ["K9", "K9"], ["Y7", "Y7"], ["R1", "R1"]]}
    p = play(pos(rack), four)
    assert p["seats"][0]["opened"] == "pairs" and p["highest_opening"] is None
    assert refused(pos(rack, highest_opening=17), four).code == "below_threshold"  # ceil(1.5 * 18) = 27


def test_the_view_shows_both_thresholds():
    v = api.view(pos(["K2"], highest_opening=20), 0)
    assert (v["threshold"], v["pairs_threshold"]) == (21, 32)


def test_a_taken_discard_goes_only_into_a_new_meld_and_costs_nothing():
    p = pos(["B5", "B6", "B7", "K7", "K8", "Y1"], phase="draw", opened=["melds", "no", "no", "no"],
            discards=[[], [], [], ["K9"]], table=[(1, ["K10", "K11", "K12"])])
    add = {"seat": 0, "type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "K9"}}
    assert refused(p, add).code == "discard_unused"
    meld = {"seat": 0, "type": "take_discard", "then": {"type": "meld", "tiles": ["K7", "K8", "K9"]}}
    assert penalties(play(p, meld)) == [0, 0, 0, 0]


def test_a_run_grows_one_tile_per_end_per_turn():
    p = pos(["B4", "B3", "B8", "B9", "K2"], opened=["melds", "no", "no", "no"], table=[(0, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B8"},
             {"seat": 0, "type": "add", "meld": 1, "tile": "B4"})
    assert p["table"][0]["tiles"] == ["B4", "B5", "B6", "B7", "B8"]
    assert refused(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B9"}).code == "cannot_add"
    assert refused(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B3"}).code == "cannot_add"


def test_the_limit_resets_next_turn():
    p = pos(["B8", "K2", "Y1"], opened=["melds", "melds", "no", "no"], table=[(0, ["B5", "B6", "B7"])],
            others=[["B9", "K5", "Y7"], ["Y3"], ["Y4"]])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B8"}, {"seat": 0, "type": "discard", "tile": "Y1"},
             {"seat": 1, "type": "draw"}, {"seat": 1, "type": "add", "meld": 1, "tile": "B9"})
    assert p["table"][0]["tiles"][-1] == "B9"


def test_a_group_takes_one_missing_colour():
    p = pos(["R9", "R6", "K2"], opened=["melds", "no", "no", "no"], table=[(0, ["B9", "K9", "Y9"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R9"})
    assert p["table"][0]["tiles"] == ["B9", "K9", "Y9", "R9"]
    assert refused(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R6=R9"}).code == "cannot_add"


def test_a_pairs_player_adds_to_runs_and_lays_pairs_but_no_runs():  # D-19
    p = pos(["B8", "Y7", "Y7", "Y1", "Y2", "Y3", "K2"], opened=["pairs", "melds", "no", "no"],
            table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B8"}, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y7"]})
    assert len(p["table"]) == 2 and penalties(p) == [0, 0, 0, 0]
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["Y1", "Y2", "Y3"]}).code == "pairs_only"


def test_a_meld_player_lays_a_pair_only_in_a_pairs_area_which_costs_its_owner():  # D-12
    p = pos(["Y7", "Y7", "K2"], opened=["melds", "pairs", "melds", "no"])
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y7"]}).code == "melds_only"
    assert refused(p, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y7"], "owner": 2}).code == "melds_only"
    p = play(p, {"seat": 0, "type": "meld", "tiles": ["Y7", "Y7"], "owner": 1})
    assert p["table"][0]["owner"] == 1 and penalties(p) == [0, 140, 0, 0]


def test_ordinary_adds_are_free_and_joker_adds_cost_the_owner():
    p = pos(["B8", "R6", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B8"})
    assert penalties(p) == [0, 0, 0, 0]
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R6=B4"})
    assert penalties(p) == [0, 40, 0, 0]


def test_joker_costs_double_for_each_pairs_player():
    p = pos(["R6", "K2"], opened=["pairs", "pairs", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    assert penalties(play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R6=B8"})) == [0, 320, 0, 0]


def test_swapping_another_players_joker_costs_the_represented_number_times_ten():
    p = pos(["B8", "K2"], opened=["pairs", "melds", "no", "no"], table=[(1, ["B7", "R6=B8", "B9"])])
    p = play(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B8"})
    assert penalties(p) == [0, 160, 0, 0] and "R6" in p["seats"][0]["rack"]


def test_a_joker_laid_this_turn_cannot_be_swapped():
    p = pos(["R6", "B8", "K2", "Y1"], opened=["melds", "no", "no", "no"], table=[(0, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "R6=B8"})
    assert refused(p, {"seat": 0, "type": "swap", "meld": 1, "tile": "B8"}).code == "cannot_swap"


def test_a_groups_joker_is_swapped_only_from_four_tiles():
    three = pos(["B9", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["K9", "R6=B9", "Y9"])])
    assert refused(three, {"seat": 0, "type": "swap", "meld": 1, "tile": "B9"}).code == "cannot_swap"
    four = pos(["B9", "K2"], opened=["melds", "melds", "no", "no"], table=[(1, ["K9", "R6=B9", "Y9", "R9"])])
    assert play(four, {"seat": 0, "type": "swap", "meld": 1, "tile": "B9"})["table"][0]["tiles"][1] == "B9"


def test_a_playable_discard_is_refused_and_its_penalty_stays():
    p = pos(["B8", "K2"], opened=["pairs", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    err = refused(p, {"seat": 0, "type": "discard", "tile": "B8"})
    assert err.code == "playable_discard" and penalties(err.position) == [200, 0, 0, 0]
    assert err.position["seats"][0]["rack"] == ["B8", "K2"] and err.position["turn"] == 0


def test_playable_ignores_the_one_tile_per_end_limit():
    p = pos(["B8", "B9", "K2"], opened=["melds", "no", "no", "no"], table=[(0, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "add", "meld": 1, "tile": "B8"})
    assert refused(p, {"seat": 0, "type": "discard", "tile": "B9"}).code == "playable_discard"


def test_a_joker_discard_costs_the_base_of_the_okey_colour():
    for indicator, okey, base in (("R5", "R6", 400), ("K5", "K6", 500), ("Y5", "Y6", 600), ("B5", "B6", 800)):
        err = refused(pos([okey, "K2"], indicator=indicator), {"seat": 0, "type": "discard", "tile": okey})
        assert err.code == "joker_discard" and penalties(err.position) == [base, 0, 0, 0]


def test_a_discard_is_forced_through_with_its_penalty_when_every_tile_would_be_refused():
    # B8 and B4 both fit B5-B6-B7, R6 is the okey: no tile may be discarded, so the turn
    # could never end; the discard goes through and its penalty stays (rules-notes.md).
    p = pos(["B8", "B4", "R6"], opened=["melds", "melds", "no", "no"], table=[(1, ["B5", "B6", "B7"])])
    p = play(p, {"seat": 0, "type": "discard", "tile": "B8"})
    assert p["turn"] == 1 and p["seats"][0]["rack"] == ["B4", "R6"]
    assert p["discards"][0][-1] == "B8" and penalties(p) == [100, 0, 0, 0]


def test_a_final_joker_discard_doubles_every_amount():
    p = pos(["R6"], opened=["melds", "melds", "no", "pairs"], others=[["K1", "K2", "K3"], ["B1"], ["Y1", "Y2"]])
    p = play(p, {"seat": 0, "type": "discard", "tile": "R6"})
    assert p["result"]["end"] == "okey" and api.round_scores(p) == [-80, 60, 800, 80]


def test_a_direct_finish_makes_every_opponent_pay_base_times_four():  # D-13
    p = pos(["B11", "B12", "B13", "K13", "Y13", "R13", "Y5"], opened=["no", "melds", "no", "pairs"],
            others=[["K1", "K2", "K3"], ["B1"], ["Y1", "Y2"]])
    p = play(p, {"seat": 0, "type": "open", "melds": [["B11", "B12", "B13"], ["K13", "Y13", "R13"]]},
             {"seat": 0, "type": "discard", "tile": "Y5"})
    assert p["result"]["end"] == "direct" and api.round_scores(p) == [-40, 1600, 1600, 1600]


def test_pile_empty_without_a_finish_everyone_pays_as_an_opponent():  # D-14
    p = pos(["K2", "Y12"], opened=["melds", "melds", "no", "pairs"], pile=[],
            others=[["K1", "K2", "K3"], ["B1"], ["Y1", "Y2"]])
    p = play(p, {"seat": 0, "type": "discard", "tile": "K2"})
    assert p["result"]["finisher"] is None and api.round_scores(p) == [10, 30, 400, 40]


def test_blue_okey_and_pairs_finisher_scores():
    seats = [{"rack": [], "opened": "pairs"}, {"rack": ["K1", "K2", "K3", "K4"], "opened": "melds"},
             {"rack": ["B1"], "opened": "no"}, {"rack": ["Y1"], "opened": "pairs"}]
    assert api.score("okey17", {}, seats, 0, indicator="B13", final_discard="K2") == [-160, 40, 800, 20]


def test_the_match_has_seven_rounds():
    assert api.match_length("okey17", {}, 4) == 7
    assert not api.match_over("okey17", {}, 4, [0, 0, 0, 0], 6)
    assert api.match_over("okey17", {}, 4, [0, 0, 0, 0], 7)


def test_an_explicit_null_owner_means_the_actor():  # RULES.md §7: owner defaults to the actor
    p = pos(["B8", "B9", "B10", "K2"], opened=["melds", "melds", "no", "no"])
    p = play(p, {"seat": 0, "type": "meld", "tiles": ["B8", "B9", "B10"], "owner": None})
    assert p["table"][-1]["owner"] == 0
