"""The engine API's dispatch, options and match helpers (docs/engine-api.md)."""
import ast
from pathlib import Path

import pytest

from games.engine import api
from games.engine.errors import Refused
from games.engine.tiles import full_set
from tests.deals import text_deal
from tests.engine.okey_helpers import okey_position, play


def test_it_fills_option_defaults_and_refuses_bad_values():
    assert api.normalize_options("okey51", None) == {"doubling": True, "teams": False, "rounds": 1}
    assert api.normalize_options("okey17", {}) == {"rounds": 7}
    with pytest.raises(ValueError):
        api.normalize_options("okey51", {"rounds": 2})
    with pytest.raises(ValueError):
        api.normalize_options("okey51", {"teams": "yes"})
    with pytest.raises(ValueError):
        api.normalize_options("chess", {})


def test_team_play_needs_four_seats():
    with pytest.raises(ValueError):
        text_deal("okey51", "s", players=3, options={"teams": True})


def test_match_length_and_end():
    assert api.match_length("okey51", {"rounds": 3}, 4) == 3
    assert not api.match_over("okey51", {"rounds": 3}, 4, [0] * 4, 2)
    assert api.match_over("okey51", {"rounds": 3}, 4, [0] * 4, 3)


def test_standings_put_the_lowest_okey_total_first_and_the_highest_rami_total_first():
    assert api.standings("okey51", [300, -500, 300, 20]) == [1, 3, 0, 2]
    assert api.standings("rami", [10, 40, 40, -5]) == [1, 2, 0, 3]


def test_team_totals_add_partners():
    assert api.team_totals("okey51", {"teams": True}, [1, 2, 3, 4]) == [4, 6]
    assert api.team_totals("okey51", {}, [1, 2, 3, 4]) is None


def test_round_totals_add_in_round_penalties():
    p = okey_position("okey51", [["B4"], ["K1", "K2"], ["Y3"], ["Y4"]], opened=["melds", "melds", "no", "no"],
                      penalty=[100, 0, 40, 0])
    assert api.round_totals(p) is None
    p = play(p, {"seat": 0, "type": "discard", "tile": "B4"})
    assert api.round_scores(p) == [-500, 15, 500, 500]
    assert api.round_totals(p) == [-400, 15, 540, 500]


def test_it_dispatches_on_the_positions_ruleset():
    p = text_deal("okey17", "dispatch")
    assert p["ruleset"] == "okey17" and api.view(p, 0)["pairs_threshold"] == 26
    assert api.meld_info("okey17", ["B12", "B13", "B1"], "R5") == {"valid": False}
    with pytest.raises(ValueError):
        api.step({"seats": []}, {"seat": 0, "type": "draw"})


def test_the_engine_answers_with_steps_never_with_exceptions_that_carry_state():
    assert not hasattr(api, "apply")
    engine = Path(api.__file__).parent
    for path in engine.rglob("*.py"):
        if path.name == "api.py":
            continue
        tree = ast.parse(path.read_text())
        calls = [n.func for n in ast.walk(tree) if isinstance(n, ast.Call)]
        assert not [f for f in calls if getattr(f, "attr", getattr(f, "id", None)) in ("apply", "IllegalAction")], path
    assert "position" not in Refused("bad_action").__dict__


def test_each_ruleset_object_holds_its_facts():
    okey51, okey17, rami = (api.ruleset(r) for r in ("okey51", "okey17", "rami"))
    assert [r.id for r in api.RULESETS.values()] == ["okey51", "okey17", "rami"]
    assert isinstance(rami, api.Ruleset) and rami is api.ruleset("rami")
    assert rami.higher_wins and not okey51.higher_wins and not rami.has_discards and okey17.has_indicator
    assert rami.seat_counts == (2, 3, 4, 5, 6) and okey51.seat_counts == (2, 3, 4)
    assert rami.better(10, 5) and okey51.better(5, 10)
    assert okey51.meld_rules.ace_high and not okey17.meld_rules.ace_high and okey17.meld_rules.descending
    assert len(full_set("rami", 6)) == 160 and full_set(rami, 4).count("J") == 2 and full_set("okey17").count("F") == 2
    assert okey51.standings({"teams": True}, [10, -50, 30, 20]) == [1, 3, 0, 2]
    assert api.standings("okey51", [10, -50, 30, 20]) == [1, 0, 3, 2]
    with pytest.raises(ValueError):
        api.ruleset("chess")
