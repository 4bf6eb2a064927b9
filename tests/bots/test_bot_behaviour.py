"""What the bots do in hand-made positions (RULES.md §3-§5): open when they can,
avoid penalised discards, take a discard only to place it, go out, and the
rack partition agrees with the exact solver."""
from __future__ import annotations

import random

import pytest

import games.bots
from games.bots import choose_action
from games.bots.faces import TileContext
from games.bots.partition import OBJ_POINTS, OBJ_TILES, best_partition, meld_points, meld_tiles
from games.bots.solver_okey import best_melds
from games.engine import api
from games.engine.tiles import full_set
from tests.bots.helpers import played


def okey_position(ruleset, racks, table=(), turn=0, phase="play", discards=None, opened=None,
                  indicator="R5", highest=None):
    """A loaded okey position (RULES.md §7) with a small pile."""
    opened = opened or ["no"] * 4
    return {
        "ruleset": ruleset, "options": {}, "indicator": indicator, "turn": turn, "phase": phase,
        "pile": ["K3", "B9", "Y4", "R2", "K11", "Y12"],
        "discards": discards or [[], [], [], []],
        "seats": [{"rack": list(r), "opened": o, "penalty": 0} for r, o in zip(racks, opened)],
        "table": [dict(m) for m in table], "highest_opening": highest,
    }


def act(pos, level="normal", seed=1):
    seat = pos["turn"]
    action = choose_action(api.view(pos, seat), level, seed=seed)
    played(pos, action)  # must be legal
    return action


OTHERS = [["K1", "K2"], ["Y3"], ["Y4"]]


@pytest.mark.parametrize("level", ["easy", "normal", "strong"])
def test_okey51_opens_with_melds_reaching_the_threshold(level):
    rack = ["K10", "K11", "K12", "B13", "Y13", "R13", "B1", "B2", "B3", "Y7", "R9", "K4", "B6", "Y1"]
    a = act(okey_position("okey51", [rack] + OTHERS), level)
    assert a["type"] == "open"
    laid = [t for m in a["melds"] for t in m]
    assert sum(api.meld_info("okey51", m, "R5")["points"] for m in a["melds"]) >= 51
    assert "K10" in laid and "R13" in laid


def test_okey51_does_not_open_below_threshold_and_discards_instead():
    rack = ["K10", "K11", "K12", "B1", "B2", "B3", "Y7", "R9", "K4", "B6", "Y1", "R2", "Y10", "K7"]
    a = act(okey_position("okey51", [rack] + OTHERS))
    assert a["type"] == "discard"


def test_okey51_avoids_a_penalty_tile():
    table = [{"id": 1, "owner": 1, "tiles": ["B5", "B6", "B7"]}]
    rack = ["B4", "B8", "K2", "K9", "Y11", "R1", "R7", "Y3", "K12", "B12", "R10", "Y6", "K6", "R3"]
    a = act(okey_position("okey51", [rack] + OTHERS, table, opened=["no", "melds", "no", "no"]))
    assert a["type"] == "discard"
    assert a["tile"] not in ("B4", "B8")


def test_okey51_adds_to_an_opponent_meld_then_goes_out():
    table = [{"id": 1, "owner": 1, "tiles": ["B5", "B6", "B7"]}]
    pos = okey_position("okey51", [["B8", "K2"]] + OTHERS, table, opened=["melds", "melds", "no", "no"])
    a = act(pos)
    assert a == {"seat": 0, "type": "add", "meld": 1, "tile": "B8"}
    pos = played(pos, a)
    a = act(pos)
    assert a == {"seat": 0, "type": "discard", "tile": "K2"}
    assert api.is_over(played(pos, a))


def test_okey51_takes_the_discard_only_to_open_with_it():
    rack = ["Y10", "Y11", "Y13", "B13", "K13", "R13", "B10", "B11", "B12", "K5", "K1", "R3", "Y2", "B7"]
    pos = okey_position("okey51", [["K7", "K8"], rack, ["Y3"], ["Y4"]], turn=1, phase="draw",
                        discards=[["B2", "Y12"], [], [], []], opened=["melds", "no", "no", "no"])
    a = act(pos)
    assert a["type"] == "take_discard" and a["then"]["type"] == "open"
    assert any("Y12" in m for m in a["then"]["melds"])
    pos2 = okey_position("okey51", [["K7", "K8"], rack, ["Y3"], ["Y4"]], turn=1, phase="draw",
                         discards=[["Y12", "R8"], [], [], []], opened=["melds", "no", "no", "no"])
    assert act(pos2) == {"seat": 1, "type": "draw"}


def test_okey51_swaps_an_okey_out_of_an_opponent_meld():
    table = [{"id": 1, "owner": 2, "tiles": ["K3", "R6=K4", "K5"]}]
    pos = okey_position("okey51", [["K4", "Y9", "Y10", "B1"]] + OTHERS, table,
                        opened=["melds", "melds", "melds", "no"])
    assert act(pos, "strong") == {"seat": 0, "type": "swap", "meld": 1, "tile": "K4"}
    assert act(pos, "normal")["type"] != "swap"


def test_okey51_strong_takes_a_discard_to_add_it_normal_does_not():
    table = [{"id": 1, "owner": 2, "tiles": ["B5", "B6", "B7"]}]
    pos = okey_position("okey51", [["K7", "K8"], ["Y1", "R12", "K4", "Y9"], ["Y3"], ["Y4"]], table, turn=1,
                        phase="draw", discards=[["B8"], [], [], []], opened=["melds", "melds", "melds", "no"])
    assert act(pos, "strong") == {"seat": 1, "type": "take_discard",
                                  "then": {"type": "add", "meld": 1, "tile": "B8"}}
    assert act(pos, "normal") == {"seat": 1, "type": "draw"}


def test_okey17_never_discards_a_playable_tile_or_a_joker():
    table = [{"id": 1, "owner": 1, "tiles": ["B5", "B6", "B7"]}]
    rack = ["B8", "R6", "K2", "K9", "Y11", "R1", "Y3", "K12", "R10", "Y6", "B4", "R3", "K6", "Y9"]
    for level in ("easy", "normal", "strong"):
        for seed in range(6):
            a = act(okey_position("okey17", [rack] + OTHERS, table, opened=["no", "melds", "no", "no"]),
                    level, seed)
            if a["type"] == "discard":
                assert a["tile"] not in ("B8", "B4", "R6")


def test_okey17_plans_adds_so_the_turn_can_end():
    # F plays as R6 (indicator R5).  Every tile fits somewhere: adding the K6 first would leave
    # two playable tiles; the bot must find an order that ends with one tile.
    table = [{"id": 1, "owner": 1, "tiles": ["K7", "K8", "K9"]}, {"id": 2, "owner": 1, "tiles": ["R7", "R8", "R9"]},
             {"id": 3, "owner": 2, "tiles": ["R2", "R3", "R4", "R5"]}]
    pos = okey_position("okey17", [["F", "F", "K6"]] + OTHERS, table, opened=["melds", "melds", "melds", "no"])
    for _ in range(4):
        if api.is_over(pos):
            break
        a = act(pos)
        pos = played(pos, a)
    assert api.is_over(pos) and pos["result"]["finisher"] == 0


def test_rami_initial_meld_is_worth_thirty_and_leaves_the_table_alone():
    table = [["R4", "R5", "R6"]]
    rack = ["K10", "K11", "K12", "B1", "B2", "B3", "Y7", "R9", "K4", "B6", "Y1", "R2", "Y10", "K7"]
    pos = {"ruleset": "rami", "options": {}, "turn": 0, "pile": ["K3", "B9"],
           "seats": [{"rack": rack, "opened": "no", "penalty": 0}] + [
               {"rack": ["K1"], "opened": "yes", "penalty": 0} for _ in range(3)], "table": table}
    a = act(pos)
    assert a["type"] == "play"
    assert a["table"][0] == ["R4", "R5", "R6"]
    fresh = a["table"][1:]
    assert sum(api.meld_info("rami", m)["points"] for m in fresh) >= 30


def test_rami_goes_out_when_the_rack_fits():
    pos = {"ruleset": "rami", "options": {}, "turn": 0, "pile": ["K3", "B9"],
           "seats": [{"rack": ["R7", "B9", "K9", "Y9"], "opened": "yes", "penalty": 0}] + [
               {"rack": ["K1"], "opened": "yes", "penalty": 0} for _ in range(3)], "table": [["R4", "R5", "R6"]]}
    for level in ("normal", "strong"):
        a = act(pos, level)
        assert api.is_over(played(pos, a))


@pytest.mark.parametrize("ruleset", ["okey51", "okey17"])
def test_rack_partition_matches_the_exact_solver(ruleset):
    rng = random.Random(ruleset)
    for _ in range(150):
        tiles = [t for t in full_set(ruleset)]
        rng.shuffle(tiles)
        indicator = next(t for t in tiles if t != "F")
        tiles.remove(indicator)
        rack = tiles[:rng.choice([8, 14, 15])]
        ctx = TileContext.for_view({"ruleset": ruleset, "indicator": indicator})
        points, _, _ = best_melds(rack, ruleset, indicator, "points")
        mine = best_partition(ctx, rack, OBJ_POINTS)
        assert sum(meld_points(ruleset, m) for m in mine) == points, (rack, indicator)
        _, placed, _ = best_melds(rack, ruleset, indicator, "tiles")
        mine_tiles = best_partition(ctx, rack, OBJ_TILES)
        assert sum(len(m) for m in mine_tiles) == placed, (rack, indicator)
        for m in mine + mine_tiles:
            info = api.meld_info(ruleset, meld_tiles(ctx, m), indicator)
            assert info["valid"], (rack, indicator, m)


def test_okey17_keeps_adding_when_no_discard_is_allowed():
    # Every rack tile is playable; only a chain of four adds leaves one tile (the exempt
    # final discard).  Found by the long legality run (round 114).
    melds = [(1, ["B10", "K10", "Y10"]), (1, ["R6", "R7", "R8", "R9"]), (1, ["R13", "B13", "K13"]),
             (0, ["Y4", "Y5", "Y6", "Y7"]), (0, ["R11", "R12", "K12=R13"]), (0, ["R1", "R2", "R3", "R4"]),
             (2, ["B11", "K11", "K12=R11", "Y11"]), (2, ["B5", "B6", "B7", "B8"]), (2, ["R12", "F", "Y12"])]
    table = [{"id": i, "owner": owner, "tiles": tiles} for i, (owner, tiles) in enumerate(melds, 1)]
    pos = okey_position("okey17", [["K1"], ["K2"], ["Y13", "R10", "R10", "R5", "B9"], ["Y4"]], table, turn=2,
                        opened=["melds", "melds", "melds", "no"], indicator="K11")
    for level in ("easy", "normal", "strong"):
        p = pos
        for _ in range(6):
            if api.is_over(p):
                break
            p = played(p, act(p, level))
        assert api.is_over(p) and p["result"]["finisher"] == 2, level


def test_a_planning_failure_falls_back_to_a_safe_action(monkeypatch):
    monkeypatch.setattr(games.bots, "STRICT", False)
    view = api.view(okey_position("okey51", [["R7", "K2", "Y9"]] + OTHERS), 0)
    view["table"] = [{"id": 1, "owner": 1, "tiles": ["not-a-tile"]}]  # the planner cannot read it
    assert choose_action(view, "strong") == {"seat": 0, "type": "discard", "tile": "R7"}
    view["phase"] = "draw"
    assert choose_action(view, "normal") == {"seat": 0, "type": "draw"}
