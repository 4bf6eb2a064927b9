"""The kinds of example the rules pages show, as plain data (one constructor per kind).

Every example is a dict with ``kind``, ``id`` (unique within its ruleset, used by the page
templates as ``{{ ex.<id> }}``) and ``ruleset``; the other keys are the claim the page makes
and that ``tests/games/test_rules_pages.py`` checks against the engine.  Seat 0 is "you" in
every example; seats are shown to players as "Player 1" … "Player 4".
"""
from __future__ import annotations

ROLES = ("you", "owner", "discarder")
"""Who a penalty example charges: the player acting (seat 0), the owner of the meld acted
on, or the player whose discard was taken (the previous seat, seat 3 of four)."""


def meld(ruleset: str, id: str, tiles: list[str], type: str | None = None, points: int | None = None,
         indicator: str | None = None) -> dict:
    """A meld and what it is: ``type`` ``run``/``group``/``pair`` worth ``points``
    (RULES.md §2 meld points), or ``type`` None for tiles that are not a meld."""
    return {"kind": "meld", "id": id, "ruleset": ruleset, "tiles": list(tiles), "valid": type is not None,
            "type": type, "points": points, "indicator": indicator}


def indicator(ruleset: str, id: str, shown: str, okey: str) -> dict:
    """The tile turned face up (``shown``), the okey it makes and the false joker that plays
    as that okey (RULES.md §1)."""
    return {"kind": "indicator", "id": id, "ruleset": ruleset, "indicator": shown, "okey": okey}


def opening(ruleset: str, id: str, melds: list[tuple[list[str], int]], total: int, needs: int, opens: bool,
            unit: str = "points", highest_opening: int | None = None, options: dict | None = None,
            indicator: str | None = None) -> dict:
    """A first lay-down: ``melds`` as ``(tiles, points)``, their ``total`` (``unit``
    ``points``; ``pairs`` counts the pairs of an okey51 pairs opening), what the player
    ``needs`` at that moment (after an earlier opening of ``highest_opening``) and whether
    it ``opens`` (RULES.md §3-§5)."""
    return {"kind": "opening", "id": id, "ruleset": ruleset,
            "melds": [{"tiles": list(tiles), "points": points} for tiles, points in melds],
            "total": total, "needs": needs, "opens": opens, "unit": unit,
            "highest_opening": highest_opening, "options": dict(options or {}), "indicator": indicator}


def penalty(ruleset: str, id: str, action: dict, charges: list[tuple[int, int, str]], *, rack: list[str],
            indicator: str, table: list[tuple[int, list[str]]] = (), opened: tuple[str, ...] = ("melds",) * 4,
            options: dict | None = None, discard: str | None = None, accepted: bool = True) -> dict:
    """A move by seat 0 that costs points (okey rulesets, RULES.md §3-§4).

    ``table``: ``(owner, tiles)`` melds, given ids 1, 2, … in order; ``discard``: the tile
    the previous seat (3) just discarded, which ``action`` (a RULES.md §7 action without
    ``seat``) may take; ``charges``: ``(seat, points, role)`` with ``role`` in
    :data:`ROLES`; ``accepted`` False for an okey17 discard that is refused (the penalty
    stays, the tile goes back to the rack)."""
    return {"kind": "penalty", "id": id, "ruleset": ruleset, "action": dict(action),
            "charges": [{"seat": s, "amount": a, "role": r} for s, a, r in charges], "rack": list(rack),
            "indicator": indicator, "table": [{"id": i, "owner": o, "tiles": list(t)} for i, (o, t) in
                                              enumerate(table, 1)],
            "opened": list(opened), "options": dict(options or {}), "discard": discard, "accepted": accepted}


def move(ruleset: str, id: str, table: list[list[str]], rack: list[str], play: list[list[str]],
         code: str | None = None, opened: bool = True) -> dict:
    """A rami ``play`` (RULES.md §5): the table before, the rack, the table the player
    leaves; ``code`` None when it is accepted, else the RULES.md §7 refusal code."""
    return {"kind": "move", "id": id, "ruleset": ruleset, "table": [list(m) for m in table], "rack": list(rack),
            "play": [list(m) for m in play], "code": code, "valid": code is None, "opened": opened}


def scoring(ruleset: str, id: str, seats: list[tuple], scores: list[int], finisher: int | None,
            indicator: str | None = None, final_discard: str | None = None, direct: bool = False,
            options: dict | None = None) -> dict:
    """A round's end (RULES.md §3-§5 tables): per seat ``(rack, opened, calc)`` (rami:
    ``(rack, calc)``), where ``calc`` is the sum a player would write down (``×``, ``÷``,
    ``+``, ``−``) and equals that seat's entry of ``scores``, the end-of-round points
    ``api.score`` gives (okey: lower is better; rami: higher is better)."""
    rows = []
    for seat in seats:
        rack, opened, calc = seat if len(seat) == 3 else (seat[0], None, seat[1])
        rows.append({"rack": list(rack), "opened": opened, "calc": calc})
    return {"kind": "scoring", "id": id, "ruleset": ruleset, "seats": rows, "scores": list(scores),
            "finisher": finisher, "indicator": indicator, "final_discard": final_discard, "direct": direct,
            "options": dict(options or {})}
