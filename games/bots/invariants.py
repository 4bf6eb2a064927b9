"""Position invariants checked after every self-play action (RULES.md §1, §2, §7).

The engine's own Hypothesis tests keep their checks inside the test files, so the
bots carry this small copy: tile conservation and valid table melds.
"""
from __future__ import annotations

from collections import Counter

from games.engine import api
from games.engine.tiles import full_set


def _physical(tile: str) -> str:
    return tile.partition("=")[0]


def violations(position: dict) -> list[str]:
    """Broken invariants of a position, as short texts (empty when all hold).

    - tile conservation: racks + pile + table + discards (+ the indicator) hold
      exactly the ruleset's full set (RULES.md §1), each tile in one place;
    - every table meld is valid for the ruleset (RULES.md §2), pairs included
      for okey rulesets;
    - okey: a meld id appears once.
    """
    ruleset = position["ruleset"]
    facts = api.ruleset(ruleset)
    players = len(position["seats"])
    found = Counter()
    for s in position["seats"]:
        found.update(s["rack"])
    found.update(position.get("pile") or [])
    problems = []
    # okey melds carry an id and an owner, rami melds are plain tile lists (RULES.md §7)
    melds = [m["tiles"] if isinstance(m, dict) else list(m) for m in position["table"]]
    ids = [m["id"] for m in position["table"] if isinstance(m, dict)]
    if len(ids) != len(set(ids)):
        problems.append("duplicate meld id")
    indicator = position.get("indicator") if facts.has_indicator else None
    if facts.has_indicator:
        found[indicator] += 1
    if facts.has_discards:
        for d in position.get("discards") or []:
            found.update(d)
    for m in melds:
        found.update(_physical(t) for t in m)
        info = api.meld_info(ruleset, list(m), indicator)
        if not info.get("valid"):
            problems.append(f"invalid meld {m}")
    expected = Counter(full_set(ruleset, players))
    if found != expected:
        extra = found - expected
        missing = expected - found
        problems.append(f"tile conservation: extra {dict(extra)} missing {dict(missing)}")
    return problems
