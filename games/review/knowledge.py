"""What one seat could know at a decision: its own view, and the tiles it has not seen.

A review judges a decision only from what the player had in front of them
(ARCHITECTURE.md invariant 3): ``games.engine.api.view(position, seat)``, never another
rack nor the pile.  The tiles the seat has not seen are the ruleset's whole set
(RULES.md §1, D-1) minus its own rack, the table, every discard pile and the indicator;
where a judgement needs the tiles to come, it samples them from that multiset with a
generator seeded from the review's seed, so the same review comes out again.
"""
from __future__ import annotations

import random
from collections import Counter

from games.engine import fairdeal


def seen_tiles(view: dict) -> Counter:
    """Physical tiles the seat of ``view`` sees: its rack, every table meld (a wild by its
    physical tile, ``R6=B5`` -> ``R6``), every discard pile and the indicator.

    Args: ``view``: ``api.view(position, seat)`` of an okey or rami position.
    Returns a Counter of tile strings (RULES.md §1 notation)."""
    out = Counter(view.get("rack") or [])
    for meld in view.get("table") or []:
        tiles = meld["tiles"] if isinstance(meld, dict) else meld
        out.update(t.partition("=")[0] for t in tiles)
    for pile in view.get("discards") or []:
        out.update(pile)
    if view.get("indicator"):
        out[view["indicator"]] += 1
    return out


def unseen_tiles(view: dict) -> list[str]:
    """The tiles the seat of ``view`` has not seen, sorted (other racks and the pile
    together: the seat cannot tell them apart).

    Returns a sorted list of tile strings, one entry per copy.  Raises ValueError for a
    ruleset or seat count ``fairdeal.tile_set`` does not know."""
    players = len(view.get("rack_counts") or view.get("opened") or [])
    left = Counter(fairdeal.tile_set(view["ruleset"], players)) - seen_tiles(view)
    return sorted(left.elements())


def sampler(seed: str, seat: int, turn: int) -> random.Random:
    """The generator of one judged turn: a function of the review's ``seed`` (text), the
    ``seat`` and the seat's ``turn`` number only, so a review is reproduced from its seed
    and two reviews of the same seat never share draws with another seat's."""
    return random.Random(f"{seed}|{seat}|{turn}")


def sample_draws(view: dict, rng: random.Random, count: int) -> list[str]:
    """``count`` tiles the seat might draw next, drawn without replacement from
    :func:`unseen_tiles` (fewer when fewer are unseen)."""
    pool = unseen_tiles(view)
    return rng.sample(pool, min(count, len(pool)))
