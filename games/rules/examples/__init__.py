"""Every example the rules pages show, per ruleset (``kinds.py`` describes the shapes).

The pages render these and nothing else as tile pictures; the tests check each claim with
the engine (``games.engine.api``) and that each example appears on its page in every language.
"""
from __future__ import annotations

from . import okey17, okey51, rami

EXAMPLES: dict[str, list[dict]] = {"okey51": okey51.EXAMPLES, "okey17": okey17.EXAMPLES, "rami": rami.EXAMPLES}
"""Ruleset id -> its examples, in page order."""


def examples_of(ruleset: str) -> list[dict]:
    """The examples of one ruleset's page; KeyError for a ruleset without a rules page."""
    return EXAMPLES[ruleset]
