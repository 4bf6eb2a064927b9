"""The rules pages: every example they show is what the engine says, every example is on
its page in each language, and each page renders for visitors and players alike."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from games.engine import api
from games.engine.rulesets.okey51 import MIN_PAIRS
from games.engine.tiles import COLOURS, okey_of, split_wild
from games.rules.examples import EXAMPLES
from games.rules.examples.kinds import ROLES

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("fr", "es", "en", "tr")
ALL = [example for examples in EXAMPLES.values() for example in examples]


def ids(example):
    return f"{example['ruleset']}-{example['id']}"


def of_kind(kind):
    return [example for example in ALL if example["kind"] == kind]


def spare_indicator(tiles):
    """An indicator whose okey is none of ``tiles`` (so that no tile of an example turns wild)."""
    physical = {split_wild(t)[0] for t in tiles}
    return next(f"{c}{n}" for c in COLOURS for n in range(1, 14) if okey_of(f"{c}{n}") not in physical)


def okey_position(ruleset, indicator, racks, opened, table=(), phase="play", options=None, discard=None,
                  highest_opening=None):
    """A loaded okey position (RULES.md §7) with seat 0 to move."""
    discards = [[] for _ in racks]
    if discard:
        discards[-1] = [discard]
    return {"ruleset": ruleset, "options": dict(options or {}), "indicator": indicator, "turn": 0, "phase": phase,
            "pile": ["K13", "Y13", "R13"], "discards": discards,
            "seats": [{"rack": list(rack), "opened": o, "penalty": 0} for rack, o in zip(racks, opened)],
            "table": [dict(meld) for meld in table], "highest_opening": highest_opening}


def rami_position(rack, table=(), opened=False):
    return {"ruleset": "rami", "turn": 0, "pile": ["K13", "Y13"], "table": [list(m) for m in table],
            "seats": [{"rack": list(rack), "opened": "yes" if opened else "no"}]
            + [{"rack": ["Y13", "K12"], "opened": "no"} for _ in range(3)]}


def evaluate(calc):
    """The value of a worked sum as the page writes it (× ÷ + − and brackets)."""
    expression = calc.replace("×", "*").replace("÷", "//").replace("−", "-")
    assert re.fullmatch(r"[\d\s()+\-*/]+", expression), calc
    return eval(expression, {"__builtins__": {}})  # noqa: S307 - digits and operators only, checked above


# ------------------------------------------------------------------ the examples against the engine
def test_example_ids_are_unique_within_a_page_and_kinds_are_known():
    for ruleset, examples in EXAMPLES.items():
        api.ruleset(ruleset)
        names = [example["id"] for example in examples]
        assert len(names) == len(set(names)), ruleset
        assert all(re.fullmatch(r"[a-z0-9_]+", name) for name in names)
        assert all(example["ruleset"] == ruleset for example in examples)
    assert {example["kind"] for example in ALL} == {"meld", "indicator", "opening", "penalty", "move", "scoring"}


@pytest.mark.parametrize("example", of_kind("meld"), ids=ids)
def test_a_meld_example_is_what_the_engine_says(example):
    info = api.meld_info(example["ruleset"], example["tiles"], example["indicator"])
    if example["valid"]:
        assert info == {"valid": True, "type": example["type"], "points": example["points"]}
    else:
        assert info == {"valid": False}
        assert example["points"] is None


@pytest.mark.parametrize("example", of_kind("indicator"), ids=ids)
def test_an_indicator_example_names_the_okey_and_the_false_joker_plays_as_it(example):
    okey = example["okey"]
    assert okey_of(example["indicator"]) == okey
    colour, number = okey[0], int(okey[1:])
    others = [c for c in COLOURS if c != colour][:2]
    # F is an ordinary tile with the okey's identity: it completes a group of the okey's number
    group = [f"{c}{number}" for c in others]
    as_false_joker = api.meld_info(example["ruleset"], group + ["F"], example["indicator"])
    assert as_false_joker["valid"] and as_false_joker == api.meld_info(example["ruleset"], group + [okey])


@pytest.mark.parametrize("example", of_kind("opening"), ids=ids)
def test_an_opening_example_reaches_the_threshold_it_claims(example):
    ruleset, melds = example["ruleset"], [meld["tiles"] for meld in example["melds"]]
    for meld in example["melds"]:
        info = api.meld_info(ruleset, meld["tiles"], example["indicator"])
        assert info["valid"] and info["points"] == meld["points"], meld
    pairs = all(len(tiles) == 2 for tiles in melds)
    if example["unit"] == "pairs":
        assert pairs and example["total"] == len(melds)
    else:
        assert example["total"] == sum(meld["points"] for meld in example["melds"])
    rack = [split_wild(t)[0] for tiles in melds for t in tiles] + ["K13"]
    if api.ruleset(ruleset).has_indicator:
        indicator = example["indicator"] or spare_indicator(rack)
        position = okey_position(ruleset, indicator, [rack] + [["Y13", "K12"]] * 3, ["no"] * 4,
                                 options=example["options"], highest_opening=example["highest_opening"])
        view = api.view(position, 0)
        if example["unit"] == "pairs":
            assert example["needs"] == MIN_PAIRS
        else:
            assert example["needs"] == (view.get("pairs_threshold") if pairs else view["threshold"])
        done = api.step(position, {"seat": 0, "type": "open", "melds": melds})
    else:
        position = rami_position(rack)
        assert example["needs"] == api.view(position, 0)["threshold"]
        done = api.step(position, {"seat": 0, "type": "play", "table": melds})
    assert (done.accepted, done.code) == ((True, None) if example["opens"] else (False, "below_threshold"))
    assert example["opens"] == (example["total"] >= example["needs"])


@pytest.mark.parametrize("example", of_kind("penalty"), ids=ids)
def test_a_penalty_example_charges_what_the_engine_charges(example):
    others = [["Y13", "K12", "R1"]] * 3
    phase = "draw" if example["action"]["type"] == "take_discard" else "play"
    position = okey_position(example["ruleset"], example["indicator"], [example["rack"]] + others,
                             example["opened"], example["table"], phase, example["options"], example["discard"])
    done = api.step(position, {"seat": 0, **example["action"]})
    assert done.accepted == example["accepted"], done.code
    assert [(p.seat, p.amount) for p in done.penalties] == [(c["seat"], c["amount"]) for c in example["charges"]]
    if not example["accepted"]:
        assert done.position["seats"][0]["rack"] == position["seats"][0]["rack"]  # the tile stays in the rack
    owner = next((m["owner"] for m in example["table"] if m["id"] == example["action"].get("meld")),
                 example["action"].get("owner"))
    for charge in example["charges"]:
        assert charge["role"] in ROLES
        expected = {"you": 0, "owner": owner, "discarder": len(position["seats"]) - 1}[charge["role"]]
        assert charge["seat"] == expected, charge


@pytest.mark.parametrize("example", of_kind("move"), ids=ids)
def test_a_rami_move_example_is_accepted_or_refused_as_it_says(example):
    position = rami_position(example["rack"], example["table"], example["opened"])
    done = api.step(position, {"seat": 0, "type": "play", "table": example["play"]})
    assert (done.accepted, done.code) == (example["valid"], example["code"])


@pytest.mark.parametrize("example", of_kind("scoring"), ids=ids)
def test_a_scoring_example_is_what_the_engine_scores(example):
    seats = [{"rack": seat["rack"], "opened": seat["opened"] or "yes"} for seat in example["seats"]]
    scores = api.score(example["ruleset"], example["options"], seats, example["finisher"], example["indicator"],
                       example["final_discard"], example["direct"])
    assert scores == example["scores"]
    assert [evaluate(seat["calc"]) for seat in example["seats"]] == scores
    if example["finisher"] is not None:
        assert example["seats"][example["finisher"]]["rack"] == []
