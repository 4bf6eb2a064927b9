"""The engine API's dispatch, options and match helpers (docs/engine-api.md)."""
import pytest

from games.engine import api
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
        api.deal("okey51", {"teams": True}, "s", players=3)


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
    p = api.deal("okey17", {}, "dispatch")
    assert p["ruleset"] == "okey17" and api.view(p, 0)["pairs_threshold"] == 26
    assert api.meld_info("okey17", ["B12", "B13", "B1"], "R5") == {"valid": False}
    with pytest.raises(ValueError):
        api.apply({"seats": []}, {"seat": 0, "type": "draw"})
