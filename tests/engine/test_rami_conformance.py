"""The ``rami`` vectors of the shared conformance examples, one test each through the
engine API (RULES.md §8: ``meld``, ``score`` and ``game`` kinds; ``game`` vectors with
``api.replay``)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine import api

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLES = SHARED / "conformance" / "examples.jsonl"


def rami_vectors() -> list[dict]:
    lines = EXAMPLES.read_text(encoding="utf-8").splitlines()
    vectors = [json.loads(line) for line in lines if line.strip()]
    return [v for v in vectors if v.get("ruleset", v.get("position", {}).get("ruleset")) == "rami"]


VECTORS = rami_vectors()


def test_the_examples_hold_rami_vectors_of_every_kind():
    assert {v["kind"] for v in VECTORS} == {"meld", "score", "game"}


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(vector):
    kind = vector["kind"]
    if kind == "meld":
        assert api.meld_info("rami", vector["tiles"]) == vector["expect"]
    elif kind == "score":
        scores = api.score("rami", vector["options"], vector["seats"], vector["finisher"],
                           direct=vector.get("direct", False))
        assert scores == vector["expect"]["scores"]
    else:
        played = api.replay_all(vector["position"], vector["actions"])
        expect = vector["expect"]
        assert [("ok" if s.accepted else f"error:{s.code}") for s in played.steps] == expect["results"]
        assert [s["penalty"] for s in played.position["seats"]] == expect["penalty"]
        if "scores" in expect:
            assert api.round_scores(played.position) == expect["scores"]
        else:
            assert not api.is_over(played.position)
