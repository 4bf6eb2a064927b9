"""The rami (Rummikub) computer player (RULES.md §5).

A turn is one action: ``play`` (the whole new table) or ``draw``.

- Before the initial meld: lay new melds from the rack worth at least 30
  points (the table untouched), else draw.
- After it: lay new melds from the rack, then extend table melds one tile at a
  time (run ends, a group's fourth colour), until nothing more fits; draw when
  nothing can be laid.  ``strong`` also rearranges the whole table with the
  exact solver, table jokers included (up to :data:`SOLVER_JOKER_TILES` tiles),
  and keeps its rack jokers unless they let it go out or lay three tiles or more.
  Holding melds back (drawing while every opponent still holds 8+ or 11+ tiles)
  and giving the solver the rack jokers late measured no gain and were left out.
- ``easy`` lays only new melds (never extends the table) and sometimes draws
  instead of playing.
"""
from __future__ import annotations

from games.bots.faces import TileContext, face_str, fitting_faces, read_meld, run_ends
from games.bots.partition import OBJ_POINTS, OBJ_TILES, search, counts_of, meld_points, meld_tiles

THRESHOLD = 30
CTX = TileContext("rami", "J", None, False)

SOLVER_JOKER_TILES = 80
"""Strong: table melds holding jokers go to the solver too when the table and the rack's
plain tiles together hold at most this many tiles (0 = never: they stay fixed).  Measured
(1,200 rounds strong,normal,normal,easy mixed): fixed joker melds 146.6 ± 3.7 points, cap 60
171.1 ± 3.1, cap 80 177.2 ± 2.9 (p99 decision 36 ms, under the 50 ms budget)."""


def act(view: dict, level: str, rng) -> dict:
    """The seat's action: ``{"seat", "type": "play", "table": [...]}`` or a draw."""
    seat = view["seat"]
    rack = list(view.get("rack") or [])
    table = [list(m) for m in view.get("table") or []]
    opened = (view.get("opened") or [])[seat] == "yes"
    draw = {"seat": seat, "type": "draw"}
    if not rack:
        return draw
    if level == "easy" and rng.random() < 0.15:
        return draw
    if not opened:
        melds = initial_melds(rack)
        if melds is None:
            return draw
        return {"seat": seat, "type": "play", "table": table + [meld_tiles(CTX, m) for m in melds]}
    if level == "strong":
        solved = _solver_play(view, rack, table)
        if solved is not None:
            return {"seat": seat, "type": "play", "table": solved}
    new_table, left = lay(rack, table, extend=(level != "easy"), keep_jokers=(level == "strong"))
    if len(left) == len(rack):
        return draw
    return {"seat": seat, "type": "play", "table": new_table}


def initial_melds(rack: list[str]):
    """New melds (slot tuples) from ``rack`` worth ≥ 30 points (RULES.md §5), or ``None``.
    Prefers laying the most tiles; falls back to the most points."""
    for objective in (OBJ_TILES, OBJ_POINTS):
        counts, wilds = counts_of(CTX, rack)
        melds = list(search(counts, wilds, "rami", objective, False)[1])
        if melds and sum(meld_points("rami", m) for m in melds) >= THRESHOLD:
            return melds
    return None


def lay(rack: list[str], table: list[list[str]], extend: bool = True, keep_jokers: bool = False):
    """Greedy laying after the initial meld: new melds from the rack, then single-tile
    extensions of table melds.  Returns ``(new table, rack tiles left)``.

    ``keep_jokers``: leave jokers in the rack unless laying everything goes out.
    """
    counts, wilds = counts_of(CTX, rack)
    melds = list(search(counts, wilds, "rami", OBJ_TILES, False)[1])
    new_table = [list(m) for m in table]
    left = list(rack)
    for m in melds:
        tiles = meld_tiles(CTX, m)
        for t in tiles:
            left.remove(t.partition("=")[0])
        new_table.append(tiles)
    if extend:
        changed = True
        while changed and left:
            changed = False
            for t in sorted(left, key=lambda x: x == "J"):
                placed = _extend_one(new_table, t)
                if placed:
                    left.remove(t)
                    changed = True
                    break
    if keep_jokers and left and any(t == "J" for t in rack) and "J" not in left:
        # a joker was laid: keep that plan only if it empties the rack or lays a lot
        if len(rack) - len(left) < 3:
            alt_rack = [t for t in rack if t != "J"]
            jokers = [t for t in rack if t == "J"]
            alt_table, alt_left = lay(alt_rack, table, extend, keep_jokers=False)
            if len(alt_left) < len(alt_rack):
                return alt_table, alt_left + jokers
    return new_table, left


def _extend_one(table: list[list[str]], tile: str) -> bool:
    """Add ``tile`` to the first table meld it extends (in place); True when placed."""
    for i, meld in enumerate(table):
        m = read_meld(CTX, meld)
        if m.kind == "pair":
            continue
        if tile == "J":
            if m.kind == "run":
                ends = run_ends(CTX, m)
                if ends:
                    f, end = ends[-1]
                    table[i] = (meld + [f"J={face_str(f)}"]) if end == "hi" else ([f"J={face_str(f)}"] + meld)
                    return True
            elif m.size < 4:
                f = fitting_faces(CTX, m)[0]
                table[i] = meld + [f"J={face_str(f)}"]
                return True
            continue
        code = CTX.rack_code(tile)
        if m.kind == "run":
            for f, end in run_ends(CTX, m):
                if f == code:
                    table[i] = (meld + [tile]) if end == "hi" else ([tile] + meld)
                    return True
        elif code in fitting_faces(CTX, m):
            table[i] = meld + [tile]
            return True
    return False


def _solver_play(view: dict, rack: list[str], table: list[list[str]]):
    """Strong: rearrange the table with the exact solver (RULES.md §5), or ``None``.

    The rack's jokers stay in the rack (kept late).  Melds holding a joker go to
    the solver with the rest when the problem holds at most
    :data:`SOLVER_JOKER_TILES` tiles, else they stay as they are (joker-free
    problems are the fast ones).  The
    greedy play wins when it goes out.  The solver's answer is checked (tile
    multiset = old table + laid rack tiles, every meld valid) before use.
    """
    try:
        from games.bots.solver_rami import solve
    except ImportError:
        return None
    greedy_table, greedy_left = lay(rack, table, extend=True)
    if not greedy_left:
        return greedy_table
    fixed = [m for m in table if any(t.startswith("J") for t in m)]
    free = [m for m in table if not any(t.startswith("J") for t in m)]
    plain = [t for t in rack if t != "J"]
    if fixed and sum(len(m) for m in table) + len(plain) <= SOLVER_JOKER_TILES:
        fixed, free = [], table
    try:
        placed_n, _, new_free, placed = solve(free, plain, "tiles")
    except Exception:  # noqa: BLE001 - fall back to the greedy play
        return None
    if not placed_n or not _checked(free, plain, new_free, placed):
        return None
    greedy_plain = len(rack) - len(greedy_left) - (rack.count("J") - greedy_left.count("J"))
    if placed_n < greedy_plain:
        return None
    return [list(m) for m in fixed] + [list(m) for m in new_free]


def _checked(table, rack, new_table, placed) -> bool:
    """True when ``new_table`` holds exactly the old table's tiles plus ``placed``
    (all from the rack) in valid melds."""
    from collections import Counter

    from games.engine.rulesets.rami import meld_info

    def phys(melds):
        return Counter(t.partition("=")[0] for m in melds for t in m)

    if Counter(placed) - Counter(rack):
        return False
    if phys(new_table) != phys(table) + Counter(placed):
        return False
    return all(meld_info(list(m))["valid"] for m in new_table)


__all__ = ["act", "initial_melds", "lay"]
