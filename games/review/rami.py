"""The rami judge: one turn of one seat against the most the exact solver lays (RULES.md §5).

A rami turn is one action, ``play`` or ``draw``.  Before the initial meld the question
is whether new melds worth 30 or more could be laid from the rack alone (the bots'
exact partition search); after it, how many rack tiles the whole table rearranged could
take (``games.bots.solver_rami.solve``, exact, most tiles then most points).  The rack's
jokers stay out of that comparison, as the strong computer keeps them, unless laying
them with the rest goes out.  The cost is in RULES.md §5 points: the values of the
tiles the best play lays minus those the turn laid (a rack left when someone goes out
pays its sum), at least 0; a missed way out costs the whole rack's value left.
"""
from __future__ import annotations

from collections import Counter

from games.bots.okey_plan import laid_tiles, write
from games.bots.rami import CTX, initial_melds
from games.bots.solver_rami import NoSolution, solve
from games.engine import api


def _rack_value(view: dict, tiles: list[str]) -> int:
    joker = (view.get("options") or {}).get("joker_value", 30)
    return api.ruleset("rami").rack_value(list(tiles), joker)


def _laid(turn) -> list[str]:
    """Rack tiles the turn laid (none for a draw)."""
    if turn.first_type != "play":
        return []
    return sorted((Counter(turn.start["rack"]) - Counter(turn.end["rack"])).elements())


def judge_turn(turn, rng=None) -> dict | None:
    """One rami turn (a :class:`games.review.turns.Turn`) against the best play the seat
    could see: ``{"cost", "reasons", "best" {"table", "placed"}}`` (cost in points >= 0),
    or None when the solver cannot read the table (then the turn is not judged).
    ``rng`` is unused: rami decisions here are exact."""
    view = turn.start
    seat = turn.seat
    rack = list(view["rack"])
    table = [list(m) for m in view.get("table") or []]
    laid = _laid(turn)
    laid_points = _rack_value(view, laid)
    if (view.get("opened") or [])[seat] != "yes":
        melds = initial_melds(rack)
        if melds is None:
            return {"cost": 0, "reasons": [], "best": {}}
        placed = laid_tiles(CTX, melds)
        cost = max(0, _rack_value(view, placed) - laid_points)
        reasons = [{"code": "missed_initial_meld" if not laid else "smaller_play", "points": cost,
                    "tiles": max(0, len(placed) - len(laid))}] if cost else []
        return {"cost": cost, "reasons": reasons,
                "best": {"table": table + write(CTX, melds), "placed": sorted(placed)}}
    plain = [t for t in rack if t != "J"]
    try:
        count, _value, new_table, placed = solve(table, plain, "tiles")
        out = None
        if "J" in rack and count == len(plain):
            whole = solve(table, rack, "tiles")
            out = whole if whole[0] == len(rack) else None
        elif count == len(rack):
            out = (count, _value, new_table, placed)
    except (NoSolution, ValueError):
        return None
    if out is not None and not turn.finished:
        cost = max(0, _rack_value(view, rack) - laid_points)
        return {"cost": cost, "reasons": [{"code": "missed_finish", "points": cost, "tiles": len(rack) - len(laid)}],
                "best": {"table": [list(m) for m in out[2]], "placed": sorted(out[3]), "finish": True}}
    plain_laid = [t for t in laid if t != "J"]
    cost = max(0, _rack_value(view, placed) - _rack_value(view, plain_laid))
    reasons = []
    if cost:
        reasons.append({"code": "drew_instead" if not laid else "fewer_tiles", "points": cost,
                        "tiles": max(0, len(placed) - len(plain_laid))})
    best = {"table": [list(m) for m in new_table], "placed": sorted(placed)} if count else {}
    return {"cost": cost, "reasons": reasons, "best": best}
