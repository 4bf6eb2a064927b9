"""The ``rami`` vectors of the shared conformance examples, run on the ruleset module
(RULES.md §8: ``meld``, ``score`` and ``game`` kinds)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.engine.errors import IllegalAction
from games.engine.rulesets import rami

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
        assert rami.meld_info(vector["tiles"]) == vector["expect"]
    elif kind == "score":
        scores = rami.score(vector["options"], vector["seats"], vector["finisher"],
                            direct=vector.get("direct", False))
        assert scores == vector["expect"]["scores"]
    else:
        position = vector["position"]
        results = []
        for action in vector["actions"]:
            try:
                position = rami.apply(position, action)
            except IllegalAction as refused:
                results.append(f"error:{refused.code}")
            else:
                results.append("ok")
        expect = vector["expect"]
        assert results == expect["results"]
        assert [s["penalty"] for s in position["seats"]] == expect["penalty"]
        if "scores" in expect:
            assert rami.round_scores(position) == expect["scores"]
        else:
            assert not rami.is_over(position)
