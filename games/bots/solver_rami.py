"""Exact ``rami`` (Rummikub) solver: the most rack tiles that fit on the table.

RULES.md §5: after the initial meld a player may rearrange the whole table; at
the end of the turn every table tile (jokers included) must be in a valid run or
group (RULES.md §2).  :func:`solve` finds, over every rearrangement, the largest
number of rack tiles that can be laid (then the largest face value), or the
largest face value (then the most tiles), and returns the new table.

Algorithm (after van Rijn, Takes & Vis, "The complexity of Rummikub problems",
2016): a dynamic programme over the 52 cells (number, colour), numbers 1..13
outermost.  The state after a cell holds, for each colour, how many runs are open
(they took a tile at the last number) by length 1, 2 and "3 or more"; for the
current number the real tiles given to groups (their sum and maximum per
colour); and how many jokers are used.  At a cell the solver chooses how many
rack copies to lay, which open runs to extend (runs shorter than 3 must be),
which runs to start (a run may start with jokers before its first real tile, so
a run always holds a real tile) and how many copies go to groups.  At the end
of each number the groups are closed: ``k`` groups of 3-4 different colours can
be formed from ``S`` real tiles (at most ``k`` per colour) and ``j`` jokers
exactly when ``max(colour count, ceil((S+j)/4)) <= k <= min(S, floor((S+j)/3))``.
Identical copies are interchangeable, so counts are enough; the optimum is then
rebuilt into melds.

Search: exact branch and bound on the weight lost.  Rack tiles that fit no
meld of the available tiles are dropped first.  A beam pass (the best 16
states per cell, ranked by rack weight laid and run
flexibility, groups closable) gives a feasible floor.  A floor that lays
everything, or reaches the upper bound, is optimal; a floor one unit short
of everything is settled by one pass bounded by every remaining rack tile.
Otherwise passes with a
budget growing in small steps (a unit is a tile, or a point in value mode) keep only
the states whose bound can still reach the threshold, never looser than the
floor; the first pass that ends holds the optimum.  The bound
(:mod:`games.bots.solver_rami_bound`) follows each colour's runs exactly from
the state's open runs and caps its groups by the partners and jokers they
need; summed over the colours, plus the free jokers, it never falls below the
best ending.  States are pruned without loss when another state of the same
layer dominates them (longer open runs, same weight or more), short runs that
the next numbers cannot feed are dropped, and surplus open runs of 3+ are
closed.  Empty cells, and the group closing of states without group tiles,
leave the states in place (no copy of the layer).

The state is packed into one integer.  Up to 3 copies of a tile and up to 4
jokers (160-tile set, D-1).

Modules: this one counts the tiles, drops the unplaceable ones and runs the
passes (:func:`_solve_counts`); :mod:`games.bots.solver_rami_pass` is one pass,
:mod:`games.bots.solver_rami_bound` the bound and
:mod:`games.bots.solver_rami_melds` writes the answer's melds.

Compiled core: the search (everything between the counts and the rebuilt
plans) also exists in C, ``games/bots/_rami_core.c``, a port of
``_solve_counts``, of the pass and of the bound that keeps the same order of
states and options, so it returns the same optimum and table.  It is built by
``pip install -e .`` when a C compiler is there (``setup.py``, optional) and
used when it imports with the expected :data:`_CORE_VERSION`; otherwise, or
with ``OKEY_RAMI_PURE=1`` in the environment at import, this pure-Python code
runs (the reference; ``_core`` is the module in use, ``None`` for pure Python).
"""
from __future__ import annotations

import logging
import os

from games.bots import solver_rami_pass as _pass
from games.bots.solver_rami_bound import NEG, ColourBounds
from games.bots.solver_rami_melds import build
from games.engine.tiles import COLOURS, JOKER, parse_face, split_wild

OBJECTIVES = ("tiles", "value")
MAX_JOKERS = 4  # the 160-tile set's four (D-1); the state fields assume it
MAX_COPIES = 3
_DIRECT_GAP = 3  # lost units from which the pass goes straight to the beam's floor
_BEAM = 16  # states kept per cell by the heuristic first pass
_BIG = 1 << 16  # weight of the first objective; the second stays below it


class NoSolution(ValueError):
    """The given table is not made of tiles that can form valid melds."""


def _count(tiles, counts, jokers_key, jokers):
    for tile in tiles:
        physical, _ = split_wild(tile)
        if physical == JOKER:
            jokers[jokers_key] += 1
            continue
        face = parse_face(physical)
        counts[(face.number - 1) * 4 + COLOURS.index(face.colour)] += 1


def solve(table: list[list[str]], rack: list[str], objective: str = "tiles", hint: list[str] | None = None):
    """The best play for ``rack`` on ``table`` with free rearrangement (RULES.md §5).

    Args:
        table: the melds on the table, each a list of tiles (``J=K7`` for a
            joker); only the multiset of tiles matters.
        rack: the player's tiles (``J`` for a joker), up to 3 copies of a tile
            and up to 4 jokers in all (160-tile set).
        objective: ``"tiles"``: most rack tiles laid, then most face value;
            ``"value"``: most face value laid (a joker counting 0), then most
            tiles.
        hint: rack tiles believed to fit on the table together (e.g. the
            answer for the other objective, or a greedy play).  Only a speed-up
            of the pure-Python search (its weight tells which bounded pass to
            try first); the answer is the same with any hint, or none.

    Returns:
        ``(tiles_placed, value_placed, new_table, placed)``: the number of rack
        tiles laid, their face value (points, a joker 0), the new table as a
        list of melds (runs lowest first, groups in colour order, jokers as
        ``J=X``) holding every table tile, and the rack tiles laid.  With
        nothing to lay, ``tiles_placed`` is 0 and ``new_table`` a valid
        arrangement of the old table's tiles.

    Raises:
        NoSolution: the table's tiles cannot all be in valid melds.
        ValueError: unknown objective, more than 4 jokers or 3 copies of a
            tile (table and rack together); ``BadTile`` for a bad tile.
    """
    counted = _counted(table, rack, objective)
    return _solve(counted, objective, _hint_weight(hint, counted, objective))


def solve_above(table: list[list[str]], rack: list[str], points: int, hint: list[str] | None = None):
    """:func:`solve` with the ``"value"`` objective when its play lays more than
    ``points`` points of the rack, else None (RULES.md §5).

    Same arguments, answer and errors as :func:`solve`.  The pure-Python search
    first runs one pass bounded at ``points + 1`` points (it keeps only the
    states that can still lay that much, so it ends exactly when such a play
    exists, and cheaply), and solves only then; the compiled core solves at once.
    """
    counted = _counted(table, rack, "value")
    if _core is not None:
        found = _solve(counted, "value", None)
        return found if found[1] > points else None
    table_counts, rack_counts, jt, jr = counted
    w_joker, w_num = _weights("value")
    total = jt + jr
    bounds = ColourBounds(table_counts, rack_counts, total, w_num, _pass.options)
    if bounds.root(total) == NEG:
        raise NoSolution("the table's tiles cannot form valid melds")
    # value mode weighs a point _BIG and each tile or joker laid 1 (fewer than _BIG of them)
    above = (points + 1) * _BIG
    if _pass.search(table_counts, rack_counts, total, jt, w_joker, w_num, bounds, above) is None:
        return None
    return _solve(counted, "value", max(above, _hint_weight(hint, counted, "value") or 0))


def _counted(table, rack, objective):
    """``(table counts, rack counts, table jokers, rack jokers)`` per cell
    ((number - 1) * 4 + colour), the rack's unplaceable tiles dropped; the
    errors of :func:`solve`."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}")
    table_counts = [0] * 52
    rack_counts = [0] * 52
    jokers = {"table": 0, "rack": 0}
    _count((t for meld in table for t in meld), table_counts, "table", jokers)
    _count(rack, rack_counts, "rack", jokers)
    jt, jr = jokers["table"], jokers["rack"]
    if jt + jr > MAX_JOKERS:
        raise ValueError("too many jokers")
    if max(t + r for t, r in zip(table_counts, rack_counts)) > MAX_COPIES:
        raise ValueError("more than three copies of a tile")
    _drop_unplaceable(table_counts, rack_counts, jt + jr)
    return table_counts, rack_counts, jt, jr


def _weights(objective):
    """``(joker weight, weight per number 0..13)`` of a laid tile: the first
    objective counts ``_BIG`` a unit (a tile, or a point), the second 1."""
    if objective == "tiles":
        return _BIG, [_BIG + n for n in range(14)]
    return 1, [n * _BIG + 1 for n in range(14)]


def _solve(counted, objective, known):
    """:func:`solve` on counts; ``known``: the weight of a play believed possible or None."""
    table_counts, rack_counts, jt, jr = counted
    total_jokers = jt + jr
    w_joker, w_num = _weights(objective)
    # Branch and bound on the weight lost: a pass keeps only the states that can
    # still end within `budget` of laying every rack tile; the first pass that
    # ends holds the optimum (anything outside the budget is worse).  Dense
    # tables lose a tile or two, so the passes stay tiny.
    rest = [0] * 53
    for cell in range(51, -1, -1):
        rest[cell] = rest[cell + 1] + rack_counts[cell] * w_num[cell // 4 + 1]
    w_max = rest[0] + total_jokers * w_joker
    if objective == "tiles":
        unit, slack = _BIG + 13, 0
    else:
        unit, slack = _BIG, sum(rack_counts) + jr
    if _core is not None:
        found = _core.solve(table_counts, rack_counts, total_jokers, jt, w_joker, w_num, unit, slack,
                            _BEAM, _DIRECT_GAP, _pass.PRUNE_FROM)
        if found is None:
            raise NoSolution("the table's tiles cannot form valid melds")
        best_key, steps = found
        plans = [(kind, where, plan) for (kind, where), plan in zip(_pass.STEPS, steps)]
    else:
        best_key, plans = _solve_counts(table_counts, rack_counts, total_jokers, jt, w_joker, w_num,
                                        rest, w_max, unit, slack, known)
    new_table = build(plans)
    placed_counts = [0] * 52
    for kind, where, plan in plans:
        if kind == "cell":
            placed_counts[where] += plan[7]
    placed_jokers = (best_key & 7) - jt
    placed = [f"{COLOURS[cell % 4]}{cell // 4 + 1}" for cell in range(52) for _ in range(placed_counts[cell])]
    placed += [JOKER] * placed_jokers
    tiles_placed = sum(placed_counts) + placed_jokers
    value_placed = sum((cell // 4 + 1) * k for cell, k in enumerate(placed_counts))
    return tiles_placed, value_placed, new_table, placed


def _solve_counts(table_counts, rack_counts, total_jokers, jt, w_joker, w_num, rest, w_max, unit, slack,
                  known=None):
    """The pure-Python branch and bound on counts (the reference of the compiled
    core): ``(final key, plans)``, ``plans`` a list of ``(kind, cell or number,
    plan)`` in step order for :func:`~games.bots.solver_rami_melds.build`.  ``rest[cell]`` is the rack weight
    from ``cell`` on, ``w_max`` the weight of laying everything, ``unit`` one
    tile (or point) of weight and ``slack`` the first budget; ``known``: the
    weight of a play believed possible (:func:`_hint_weight`) or None.  Raises
    :class:`NoSolution` when no arrangement holds the table's tiles."""
    args = (table_counts, rack_counts, total_jokers, jt, w_joker, w_num)
    # Passes with a growing budget of lost weight: a pass keeps only states
    # that can still end within the budget, so the first pass that ends holds
    # the optimum.  A narrow beam pass gives a floor: no budget needs to go
    # below the weight it reached.
    guess = _pass.search(*args, None, None, beam=_BEAM)
    floor = guess[2] if guess is not None else None
    found = guess if floor == w_max else None  # the beam laid everything: optimal
    if found is None and floor is not None and w_max - floor <= unit:
        # One tile short of everything: a pass bounded by every remaining rack
        # tile (no per-colour bound to build) settles whether the beam is optimal.
        found = _pass.search(*args, None, floor + 1, rest=rest) or guess
    if found is None:
        bounds = ColourBounds(table_counts, rack_counts, total_jokers, w_num, _pass.options)
        root = bounds.root(total_jokers)
        if root == NEG:
            raise NoSolution("the table's tiles cannot form valid melds")
        # Most weight any arrangement can reach: the per-colour bound, every joker laid.
        w_max = min(w_max, root + total_jokers * w_joker)
        found = guess if floor == w_max else None
        args += (bounds,)
    if found is None:
        # Far below everything laid, budgets would take many passes: try the beam at once.
        direct = floor is not None and w_max - floor >= _DIRECT_GAP * unit
        found = _bounded_passes(args, _thresholds(w_max, floor, unit, slack, direct), guess, known)
    if found is None:
        raise NoSolution("the table's tiles cannot form valid melds")
    best_key, history, _ = found
    plans = []
    key = best_key
    for kind, where, back in reversed(history):
        prev = back.get(key)
        if prev is None:  # the state went through unchanged
            plan = 0 if kind == "groups" else _pass.IDLE
        else:
            key, plan = prev
        plans.append((kind, where, plan))
    plans.reverse()
    return best_key, plans


def _thresholds(w_max, floor, unit, slack, direct):
    """The bounded passes in the order the branch and bound tries them: a list of
    ``(threshold, last)``.  Budgets of lost weight grow in small steps (the bound
    keeps the passes above the optimum cheap); the list ends with the pass that
    settles the search: ``last`` (only strictly better than the beam's ``floor``,
    else the beam is optimal) or an unbounded one (threshold None)."""
    out = []
    units = 0
    while True:
        budget = units * unit + slack
        threshold = w_max - budget if budget < w_max else None
        last = floor is not None and (threshold is None or threshold <= floor + 1 or direct)
        if last:
            threshold = floor + 1
        out.append((threshold, last))
        if last or threshold is None:
            return out
        units += max(1, units // 2)


def _reaching(passes, weight):
    """Index of the first pass whose threshold ``weight`` reaches (the last pass if none)."""
    for i, (threshold, _) in enumerate(passes):
        if threshold is None or threshold <= weight:
            return i
    return len(passes) - 1


def _bounded_passes(args, passes, guess, known):
    """The first of ``passes`` (:func:`_thresholds`) that ends, as the search
    would find it trying them in order; ``guess``: the beam's answer (None when
    it found none).

    A pass with threshold T ends exactly when some arrangement weighs T or more,
    so the passes before the first one that ``known`` (a weight believed
    possible) reaches need not run: start there.  If that pass ends, its best
    weight is the optimum, and the first pass the optimum reaches is the one
    the search in order would have ended with (run it when it is an earlier
    one); if it does not, ``known`` was not possible and the passes go on in
    order.  Either way the answer is that of the passes in order, so pure
    Python and the compiled core (which tries them all) agree.
    """
    start = _reaching(passes, known) if known is not None else 0
    for i in range(start, len(passes)):
        threshold, last = passes[i]
        found = _pass.search(*args, threshold)
        if found is not None:
            if i == start:
                first = _reaching(passes, found[2])
                if first < i:
                    found = _pass.search(*args, passes[first][0])
            return found
        if last:
            return guess  # nothing beats the beam: it is optimal
    return None


def _hint_weight(hint, counted, objective):
    """Search weight of laying the ``hint`` tiles (those still in the rack counts)
    with every table joker: the weight of a play believed possible, or None."""
    if not hint:
        return None
    _, rack_counts, jt, jr = counted
    w_joker, w_num = _weights(objective)
    counts = [0] * 52
    jokers = {"hint": 0}
    _count(hint, counts, "hint", jokers)
    weight = sum(w_num[cell // 4 + 1] * min(k, rack_counts[cell]) for cell, k in enumerate(counts) if k)
    return weight + (jt + min(jokers["hint"], jr)) * w_joker


def _others_tiles(avail, n, c):
    """Tiles of the other colours at number ``n``."""
    return sum(avail[(n - 1) * 4 + d] for d in range(4) if d != c)


def _drop_unplaceable(table_counts, rack_counts, jokers):
    """Zero the rack counts of tiles that fit no run or group of the available
    tiles (table + rack + jokers), repeatedly; this only narrows the search."""
    changed = True
    while changed:
        changed = False
        avail = [t + r for t, r in zip(table_counts, rack_counts)]
        for cell in range(52):
            if not rack_counts[cell]:
                continue
            n, c = cell // 4 + 1, cell % 4
            others = sum(1 for d in range(4) if d != c and avail[(n - 1) * 4 + d])
            ok = others + jokers >= 2
            for low in range(max(1, n - 2), min(n, 11) + 1):
                if ok:
                    break
                missing = sum(1 for m in range(low, low + 3) if m != n and not avail[(m - 1) * 4 + c])
                ok = missing <= jokers
            if not ok:
                rack_counts[cell] = 0
                changed = True
                continue
            # Each copy needs its own meld: a run takes a tile of the colour at
            # n-1 or n+1, a group two tiles of other colours at n (jokers may
            # stand in).  More copies than such melds cannot all be laid.
            near = (avail[cell - 4] if n > 1 else 0) + (avail[cell + 4] if n < 13 else 0)
            melds = near + jokers + (_others_tiles(avail, n, c) + jokers) // 2
            fit = max(0, melds - table_counts[cell])
            if rack_counts[cell] > fit:
                rack_counts[cell] = fit
                changed = True


_CORE_VERSION = 1  # must equal CORE_VERSION in _rami_core.c: an older build is not used


def _load_core():
    """The compiled core module, or None (pure Python): ``OKEY_RAMI_PURE`` set
    to anything but ``0``, the extension not built, or built from another
    version of the source (logged)."""
    if os.environ.get("OKEY_RAMI_PURE", "0") not in ("", "0"):
        return None
    try:
        from games.bots import _rami_core
    except ImportError:
        return None
    if getattr(_rami_core, "VERSION", None) != _CORE_VERSION:
        logging.getLogger(__name__).warning(
            "games.bots._rami_core is version %s, expected %s: rebuild it (pip install -e .); "
            "using the pure-Python solver", getattr(_rami_core, "VERSION", None), _CORE_VERSION)
        return None
    return _rami_core


_core = _load_core()
