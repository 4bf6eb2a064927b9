"""Marks and accuracy of a reviewed turn (docs/review.md).

Each judged turn has a cost: the RULES.md points the decision taken gave away against the
best decision the seat could know of (0 when it was the best).  The mark is the band the
cost falls in; the accuracy of a turn is ``100 · exp(−cost / scale)`` and a round's
accuracy is the mean over its judged turns, so one blunder weighs like it should and a
round of good turns is 100.  Bands and scales are per ruleset because a point of okey51
(penalties of 100, endings of 500) is not a point of rami (tile values 1-13).
"""
from __future__ import annotations

import math

MARKS = ("good", "inaccuracy", "mistake", "blunder")
"""Marks, best first."""

THRESHOLDS = {
    "okey51": {"inaccuracy": 20, "mistake": 100, "blunder": 300, "scale": 100},
    "okey17": {"inaccuracy": 20, "mistake": 100, "blunder": 300, "scale": 100},
    "rami": {"inaccuracy": 5, "mistake": 15, "blunder": 30, "scale": 20},
}
"""Per ruleset: the cost in RULES.md points from which a turn is an inaccuracy, a mistake,
a blunder, and the accuracy scale (points).  okey51: a missed add of a 2 costs 10 (good),
a 5 left in the rack 25 (inaccuracy), a penalty tile 100 (mistake), a missed opening or
finish 300 or more (blunder).  rami: points of rack tiles left that the best play lays.
The okey51 scale (100: a penalty tile turn scores 37) was chosen among 75/100/150/200 on
200 self-played rounds of the benchmark's seeds and checked on 200 rounds of other seeds:
it is the widest at which the levels' intervals stay apart on both (docs/review.md).
okey17 keeps okey51's bands and scale: its points are of the same size (a refused
playable discard 100, a missed opening the base of 400-800 less 10 per tile), and on 200
self-played rounds its levels stay apart at every scale tried from 10 to 150."""


def mark(ruleset: str, cost: int) -> str:
    """The mark of a turn costing ``cost`` points (int >= 0) in ``ruleset``: one of
    :data:`MARKS`.  KeyError for a ruleset without thresholds."""
    bands = THRESHOLDS[ruleset]
    if cost >= bands["blunder"]:
        return "blunder"
    if cost >= bands["mistake"]:
        return "mistake"
    if cost >= bands["inaccuracy"]:
        return "inaccuracy"
    return "good"


def turn_accuracy(ruleset: str, cost: int) -> float:
    """``100 · exp(−cost / scale)``: 100 for a best turn, about 61 for a cost of half the
    scale, 37 for the scale (okey51 100 points, rami 20)."""
    return 100.0 * math.exp(-max(0, cost) / THRESHOLDS[ruleset]["scale"])


def accuracy(ruleset: str, costs: list[int]) -> float | None:
    """A round's accuracy 0-100 (one decimal): the mean :func:`turn_accuracy` of its
    judged turns' ``costs``; None when no turn was judged."""
    if not costs:
        return None
    return round(sum(turn_accuracy(ruleset, c) for c in costs) / len(costs), 1)
