"""Strong okey51 team play in hand-made positions (RULES.md §3 teams): okeys are
swapped out of opponents' melds first (they pay), then out of our own and the
partner's melds (free); solo play never swaps from its own meld."""
from __future__ import annotations

from games.bots import choose_action
from games.engine import api
from tests.bots.helpers import played


def team_position(rack, table, teams=True):
    """Seat 0 to play (opened with melds); indicator R5, so the okey is R6."""
    others = [["K1", "K2"], ["Y3", "B12"], ["Y4", "R11"]]
    return {
        "ruleset": "okey51", "options": {"teams": teams}, "indicator": "R5", "turn": 0, "phase": "play",
        "pile": ["K3", "B9", "Y4", "R2", "K11", "Y12"], "discards": [[], [], [], []],
        "seats": [{"rack": list(r), "opened": "melds", "penalty": 0} for r in [rack] + others],
        "table": [dict(m) for m in table], "highest_opening": None,
    }


RACK = ["K4", "Y9", "Y10", "B1"]


def test_strong_swaps_the_okey_out_of_the_partners_meld_for_free():
    pos = team_position(RACK, [{"id": 1, "owner": 2, "tiles": ["K3", "R6=K4", "K5"]}])
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    assert a == {"seat": 0, "type": "swap", "meld": 1, "tile": "K4"}
    after = played(pos, a)
    assert "R6" in after["seats"][0]["rack"]
    assert [s["penalty"] for s in after["seats"]] == [0, 0, 0, 0]
    assert choose_action(api.view(pos, 0), "normal", seed=1)["type"] != "swap"


def test_strong_swaps_from_the_opponent_before_the_partner():
    table = [{"id": 1, "owner": 2, "tiles": ["K3", "R6=K4", "K5"]},
             {"id": 2, "owner": 1, "tiles": ["B1", "R6=B2", "B3"]}]
    pos = team_position(["K4", "B2", "Y9", "Y10"], table)
    a = choose_action(api.view(pos, 0), "strong", seed=1)
    assert a == {"seat": 0, "type": "swap", "meld": 2, "tile": "B2"}


def test_solo_strong_leaves_the_okey_in_its_own_meld():
    pos = team_position(RACK, [{"id": 1, "owner": 0, "tiles": ["K3", "R6=K4", "K5"]}], teams=False)
    assert choose_action(api.view(pos, 0), "strong", seed=1)["type"] != "swap"
    teams = team_position(RACK, [{"id": 1, "owner": 0, "tiles": ["K3", "R6=K4", "K5"]}])
    assert choose_action(api.view(teams, 0), "strong", seed=1)["type"] == "swap"
