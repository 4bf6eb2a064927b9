"""The review of a finished round: every turn of a seat judged against the best decision
that seat could know of (docs/review.md).

Pure Python, like the engine and the bots it reads (ARCHITECTURE.md invariant 1): a
round's initial position and its move log in, a JSON-shaped review out.  Each turn is
judged from the seat's own views only (``games.review.turns``): the exact solvers answer
what is exact (openings, the best arrangement, penalty tiles, the most tiles a rami table
takes) and what depends on the tiles to come is estimated over draws sampled from the
unseen tiles with a generator seeded by ``seed``, so the same seed gives the same review.
"""
from __future__ import annotations

from . import marks
from .turns import seat_turns

VERSION = 1
"""The review's method: stored with each review, raised when a judgement changes, so old
reviews can be told apart from new ones."""

JUDGES = {"okey51": "games.review.okey51", "okey17": "games.review.okey17", "rami": "games.review.rami"}
"""The judge module of each reviewed ruleset (its ``judge_turn(turn, rng)``)."""

RULESETS = tuple(JUDGES)


def reviewable(ruleset: str) -> bool:
    """True when rounds of ``ruleset`` (a ruleset id) are reviewed."""
    return ruleset in JUDGES


def _judge(ruleset: str):
    import importlib

    return importlib.import_module(JUDGES[ruleset]).judge_turn


def review_seat(initial: dict, actions: list[dict], seat: int, seed: str) -> dict:
    """The review of ``seat`` in one round.

    Args:
        initial: the round's dealt position (RULES.md §7).
        actions: the round's moves in log order, RULES.md §7 action dicts with ``seat``
            (refused moves that kept a penalty included, as the log stores them).
        seat: the seat reviewed (0-based).
        seed: text; the draws sampled for the judgements that need the tiles to come.
    Returns:
        ``{"version", "ruleset", "seat", "seed", "accuracy" (0-100 or None), "cost"
        (points given away in the round), "marks" {mark: count}, "turns": [{"number",
        "moves" [move numbers from 1], "cost" (points, None: not judged), "mark",
        "reasons" [{code, points, ...}], "best" {...}}]}``.
    Raises:
        ValueError: a ruleset that is not reviewed (:func:`reviewable`).
    """
    from .knowledge import sampler

    ruleset = initial["ruleset"]
    if not reviewable(ruleset):
        raise ValueError(f"rounds of {ruleset!r} are not reviewed")
    judge = _judge(ruleset)
    turns = []
    costs = []
    for turn in seat_turns(initial, actions, seat):
        judged = judge(turn, sampler(seed, seat, turn.number))
        entry = {"number": turn.number, "moves": turn.moves, "cost": None, "mark": None, "reasons": [], "best": {}}
        if judged is not None:
            cost = int(judged["cost"])
            costs.append(cost)
            entry.update(cost=cost, mark=marks.mark(ruleset, cost), reasons=judged["reasons"], best=judged["best"])
        turns.append(entry)
    counts = {m: sum(1 for t in turns if t["mark"] == m) for m in marks.MARKS}
    return {"version": VERSION, "ruleset": ruleset, "seat": seat, "seed": seed,
            "accuracy": marks.accuracy(ruleset, costs), "cost": sum(costs), "marks": counts, "turns": turns}


def review_round(initial: dict, actions: list[dict], seats, seed: str) -> list[dict]:
    """:func:`review_seat` for each seat of ``seats`` (iterable of seat numbers), in order."""
    return [review_seat(initial, actions, seat, seed) for seat in seats]
