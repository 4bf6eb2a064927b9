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

Compiled core: the search (everything between the counts and the rebuilt
plans) also exists in C, ``games/bots/_rami_core.c``, a port of this module's
``_solve_counts`` and of the bound that keeps the same order of states and
options, so it returns the same optimum and table.  It is built by
``pip install -e .`` when a C compiler is there (``setup.py``, optional) and
used when it imports with the expected :data:`_CORE_VERSION`; otherwise, or
with ``OKEY_RAMI_PURE=1`` in the environment at import, this pure-Python code
runs (the reference; ``_core`` is the module in use, ``None`` for pure Python).
"""
from __future__ import annotations

import functools
import heapq
import logging
import os
from operator import itemgetter

from games.bots.solver_rami_bound import NEG, ColourBounds
from games.engine.tiles import COLOURS, JOKER, parse_face, split_wild

OBJECTIVES = ("tiles", "value")
_TRACE = False  # print the states per cell (profiling)
MAX_JOKERS = 4  # the 160-tile set's four (D-1); the state fields assume it
MAX_COPIES = 3
_DIRECT_GAP = 3  # lost units from which the pass goes straight to the beam's floor
_BEAM = 16  # states kept per cell by the heuristic first pass
_BIG = 1 << 16  # weight of the first objective; the second stays below it

# State layout (one int): bits 0-2 jokers used, 3-4 max group copies of one
# colour at this number, 5-8 real tiles in groups at this number, then 9 bits per
# colour: open runs of length 1, 2 and 3+ (3 bits each).
_MISC = 9
_CS_BITS = 9


def _cs(c1: int, c2: int, c3: int) -> int:
    return c1 | c2 << 3 | c3 << 6


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


def _cell_options(c1, c2, c3, t, r_max, n, jl, next1, next2):
    """Every useful way to play one cell for a colour with open runs (c1, c2, c3).

    ``t`` table copies (all must be used), up to ``r_max`` rack copies, number
    ``n``, ``jl`` jokers still free; ``next1``/``next2`` real copies available
    at the next two numbers of this colour.  Returns ``{(cs', g, jokers): (rack
    copies, plan)}`` keeping, for each outcome, the plan laying the most rack
    copies.  Pruned without loss: starting a bare run while leaving an open run
    of 3+ unextended (extending it is never worse); outcomes whose short runs
    cannot get tiles at the next numbers; open runs of 3+ beyond what the next
    number can extend are closed (they are interchangeable).
    """
    out: dict = {}
    forced = c1 + c2
    for e3 in range(c3 + 1):
        ext = forced + e3
        for ye in range(min(ext, jl) + 1):
            max_new = t + r_max - (ext - ye)
            if max_new < 0:
                continue
            left1 = jl - ye
            for a0 in range(max_new + 1 if e3 == c3 else 1):
                if a0 and n > 11:
                    break
                for a1 in range(min(max_new - a0, left1 if n >= 2 else 0) + 1):
                    if n == 13 and c1 + a1:
                        break
                    left2 = left1 - a1
                    for a2 in range(min(max_new - a0 - a1, left2 // 2 if n >= 3 else 0) + 1):
                        yp_options = range(2 * a2, min(a2 * (n - 1), left2) + 1) if a2 else (0,)
                        x = ext - ye + a0 + a1 + a2
                        new2 = c1 + a1
                        new3 = c2 + e3 + a2
                        for yp in yp_options:
                            d_jokers = ye + a1 + yp
                            spare = jl - d_jokers
                            room = next1 + spare - a0 - new2
                            if room < 0 or a0 > next2 + spare:
                                continue
                            cs2 = _cs(a0, new2, new3 if new3 < room else room)
                            for g in range(max(0, t - x), t + r_max - x + 1):
                                r = x + g - t
                                key = (cs2, g, d_jokers)
                                old = out.get(key)
                                if old is None or old[0] < r:
                                    out[key] = (r, (e3, ye, a0, a1, a2, yp, g, r))
    return out


@functools.lru_cache(maxsize=None)
def _group_jokers(s, mg, jl):
    """Joker counts ``j <= jl`` with which ``s`` real tiles (at most ``mg`` of one
    colour) form groups: some ``k`` has ``max(mg, ceil((s+j)/4)) <= k <= min(s, (s+j)//3)``."""
    res = []
    for j in range(jl + 1):
        lo = max(mg, -(-(s + j) // 4))
        hi = min(s, (s + j) // 3)
        if lo <= hi:
            res.append(j)
    return tuple(res)


def _groups_k(s, mg, j):
    return max(mg, -(-(s + j) // 4))


def solve(table: list[list[str]], rack: list[str], objective: str = "tiles"):
    """The best play for ``rack`` on ``table`` with free rearrangement (RULES.md §5).

    Args:
        table: the melds on the table, each a list of tiles (``J=K7`` for a
            joker); only the multiset of tiles matters.
        rack: the player's tiles (``J`` for a joker), up to 3 copies of a tile
            and up to 4 jokers in all (160-tile set).
        objective: ``"tiles"``: most rack tiles laid, then most face value;
            ``"value"``: most face value laid (a joker counting 0), then most
            tiles.

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
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}")
    table_counts = [0] * 52
    rack_counts = [0] * 52
    jokers = {"table": 0, "rack": 0}
    _count((t for meld in table for t in meld), table_counts, "table", jokers)
    _count(rack, rack_counts, "rack", jokers)
    jt, jr = jokers["table"], jokers["rack"]
    total_jokers = jt + jr
    if total_jokers > MAX_JOKERS:
        raise ValueError("too many jokers")
    if max(t + r for t, r in zip(table_counts, rack_counts)) > MAX_COPIES:
        raise ValueError("more than three copies of a tile")
    if objective == "tiles":
        w_joker, w_num = _BIG, [_BIG + n for n in range(14)]
    else:
        w_joker, w_num = 1, [n * _BIG + 1 for n in range(14)]
    _drop_unplaceable(table_counts, rack_counts, total_jokers)
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
                            _BEAM, _DIRECT_GAP, _PRUNE_FROM)
        if found is None:
            raise NoSolution("the table's tiles cannot form valid melds")
        best_key, steps = found
        plans = [(kind, where, plan) for (kind, where), plan in zip(_STEPS, steps)]
    else:
        best_key, plans = _solve_counts(table_counts, rack_counts, total_jokers, jt, w_joker, w_num,
                                        rest, w_max, unit, slack)
    new_table = _build(plans)
    placed_counts = [0] * 52
    placed_jokers = 0
    for kind, where, plan in plans:
        if kind == "cell":
            placed_counts[where] += plan[7]
    used_jokers = best_key & 7
    placed_jokers = used_jokers - jt
    placed = [f"{COLOURS[cell % 4]}{cell // 4 + 1}" for cell in range(52) for _ in range(placed_counts[cell])]
    placed += [JOKER] * placed_jokers
    tiles_placed = sum(placed_counts) + placed_jokers
    value_placed = sum((cell // 4 + 1) * k for cell, k in enumerate(placed_counts))
    return tiles_placed, value_placed, new_table, placed


def _solve_counts(table_counts, rack_counts, total_jokers, jt, w_joker, w_num, rest, w_max, unit, slack):
    """The pure-Python branch and bound on counts (the reference of the compiled
    core): ``(final key, plans)``, ``plans`` a list of ``(kind, cell or number,
    plan)`` in step order for :func:`_build`.  ``rest[cell]`` is the rack weight
    from ``cell`` on, ``w_max`` the weight of laying everything, ``unit`` one
    tile (or point) of weight and ``slack`` the first budget.  Raises
    :class:`NoSolution` when no arrangement holds the table's tiles."""
    args = (table_counts, rack_counts, total_jokers, jt, w_joker, w_num)
    # Passes with a growing budget of lost weight: a pass keeps only states
    # that can still end within the budget, so the first pass that ends holds
    # the optimum.  A narrow beam pass gives a floor: no budget needs to go
    # below the weight it reached.
    guess = _search(*args, None, None, beam=_BEAM)
    floor = guess[2] if guess is not None else None
    units = 0
    found = guess if floor == w_max else None  # the beam laid everything: optimal
    if found is None and floor is not None and w_max - floor <= unit:
        # One tile short of everything: a pass bounded by every remaining rack
        # tile (no per-colour bound to build) settles whether the beam is optimal.
        found = _search(*args, None, floor + 1, rest=rest) or guess
    if found is None:
        bounds = ColourBounds(table_counts, rack_counts, total_jokers, w_num, _options)
        root = bounds.root(total_jokers)
        if root == NEG:
            raise NoSolution("the table's tiles cannot form valid melds")
        # Most weight any arrangement can reach: the per-colour bound, every joker laid.
        w_max = min(w_max, root + total_jokers * w_joker)
        found = guess if floor == w_max else None
        args += (bounds,)
    # Far below everything laid, budgets would take many passes: try the beam at once.
    direct = floor is not None and w_max - floor >= _DIRECT_GAP * unit
    while found is None:
        budget = units * unit + slack
        threshold = w_max - budget if budget < w_max else None
        last = floor is not None and (threshold is None or threshold <= floor + 1 or direct)
        if last:
            threshold = floor + 1  # only strictly better than the beam
        found = _search(*args, threshold)
        if last and found is None:
            found = guess  # nothing beats the beam: it is optimal
        if found is not None or threshold is None:
            break
        units += max(1, units // 2)  # small steps: the bound keeps passes above the optimum cheap
    if found is None:
        raise NoSolution("the table's tiles cannot form valid melds")
    best_key, history, _ = found
    plans = []
    key = best_key
    for kind, where, back in reversed(history):
        prev = back.get(key)
        if prev is None:  # the state went through unchanged
            plan = 0 if kind == "groups" else _IDLE
        else:
            key, plan = prev
        plans.append((kind, where, plan))
    plans.reverse()
    return best_key, plans


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


def _options(cs, t, r_max, n, jl, next1, next2):
    """A cell's options, most rack copies first, from the shared cache:
    ``([(rack copies, colour state', group copies, jokers, plan), ...], cache key)``."""
    ck = (cs, t, r_max, n, jl, next1, next2)
    found = _OPTIONS.get(ck)
    if found is None:
        found = _OPTIONS[ck] = sorted((
            (r, cs2, g, dj, plan)
            for (cs2, g, dj), (r, plan) in _cell_options(
                cs & 7, (cs >> 3) & 7, cs >> 6, t, r_max, n, jl, next1, next2).items()
        ), key=itemgetter(0), reverse=True)
    return found, ck


def _ranked(found, c, n, jl, shift, weight, w_joker, bounds, own):
    """A cell's options for the search: ``(rank, colour part, group/joker bits,
    weight added, plan)``, best rank first.  Without ``bounds`` the rank is the
    rack weight laid; with them, that plus the colour's bound after the move
    (moves into a dead end dropped).  ``own`` is the colour's memo at ``n + 1``."""
    if bounds is None:
        return [(r * weight, cs2 << shift, g << 3 | dj, r * weight + dj * w_joker, plan)
                for r, cs2, g, dj, plan in found]
    ranked = []
    for r, cs2, g, dj, plan in found:
        b = own.get(cs2 | (jl - dj) << 9)
        if b is None:
            b = bounds.get(c, n + 1, cs2, jl - dj)
        if b > NEG:
            ranked.append((r * weight + b, cs2 << shift, g << 3 | dj, r * weight + dj * w_joker, plan))
    ranked.sort(key=itemgetter(0), reverse=True)
    return ranked


def _search(table_counts, rack_counts, total_jokers, jt, w_joker, w_num, bounds, threshold, beam=None, rest=None):
    """One pass of the cell DP; states whose best ending stays below
    ``threshold`` (None: no bound) are dropped, the best ending bounded by
    ``bounds`` or, given ``rest`` (rack weight from each cell on), by every
    remaining rack tile; with ``beam``, only that many
    best states are kept per cell (a heuristic pass).  ``bounds`` is the
    position's :class:`~games.bots.solver_rami_bound.ColourBounds`: a state's
    best ending is its weight, plus each colour's bound from its open runs, plus
    the free jokers.  Returns ``(final key, history, weight)`` or None when no
    complete arrangement is within the bound."""
    avail = [t + r for t, r in zip(table_counts, rack_counts)]
    layer = {0: 0}
    history = []  # per step: (kind, cell or number, back dict)
    if len(_OPTIONS) > _OPTIONS_MAX:  # keep a long-running server's memory bounded
        _OPTIONS.clear()
    bounded = threshold is not None
    memo = bounds.memo if bounds is not None else [[{}] * 15] * 4
    bget = bounds.get if bounds is not None else None
    for n in range(1, 14):
        for c in range(4):
            cell = (n - 1) * 4 + c
            t, r_max = table_counts[cell], rack_counts[cell]
            shift = _MISC + c * _CS_BITS
            clear = ~((511 << shift) | 511)
            weight = w_num[n]
            next1 = avail[cell + 4] if n < 13 else 0
            next2 = avail[cell + 8] if n < 12 else 0
            # The other colours' bounds: those before c are past number n.
            others = [(memo[d][n + 1 if d < c else n], d, n + 1 if d < c else n, _MISC + d * _CS_BITS)
                      for d in range(4) if d != c]
            (memo1, d1, m1, sh1), (memo2, d2, m2, sh2), (memo3, d3, m3, sh3) = others
            own = memo[c][n + 1]
            back: dict = {}
            if t or r_max:
                nxt: dict = {}
                items = layer.items()
            else:
                # An empty cell leaves the states without open runs of the
                # colour as they are (no entry in `back`): only the others move.
                mask = 511 << shift
                items = [(k, layer.pop(k)) for k in [k for k in layer if k & mask]]
                nxt = layer
            get = nxt.get
            # (colour state, jokers free) -> this cell's options; the bounded
            # passes of one position share them.
            local: dict = {} if bounds is None else bounds.lists[cell]
            for key, w in items:
                misc = key & 511
                jl = total_jokers - (misc & 7)
                cs = (key >> shift) & 511
                lk = cs | jl << 9
                opts = local.get(lk)
                if opts is None:
                    opts = local[lk] = _ranked(_options(cs, t, r_max, n, jl, next1, next2)[0], c, n, jl,
                                               shift, weight, w_joker, bounds, own)
                if not opts:
                    continue
                if rest is not None:
                    need = threshold - w - jl * w_joker - rest[cell + 1]
                    if opts[0][0] < need:
                        continue
                elif bounded:
                    need = threshold - w - jl * w_joker
                    jk = jl << 9
                    b1 = memo1.get(((key >> sh1) & 511) | jk)
                    if b1 is None:
                        b1 = bget(d1, m1, (key >> sh1) & 511, jl)
                    b2 = memo2.get(((key >> sh2) & 511) | jk)
                    if b2 is None:
                        b2 = bget(d2, m2, (key >> sh2) & 511, jl)
                    b3 = memo3.get(((key >> sh3) & 511) | jk)
                    if b3 is None:
                        b3 = bget(d3, m3, (key >> sh3) & 511, jl)
                    need -= b1 + b2 + b3
                    if opts[0][0] < need:
                        continue
                else:
                    need = NEG
                base = key & clear
                mb = misc << 5
                for v, part, gd, add, plan in opts:
                    if v < need:
                        break  # options come best bound first
                    nk = base | part | _MISC_NEXT[mb | gd]
                    nw = w + add
                    old = get(nk)
                    if old is None or old < nw:
                        nxt[nk] = nw
                        back[nk] = (key, plan)
            if beam is not None:
                if c == 3:  # the groups of number n must close
                    nxt = {k: w for k, w in nxt.items()
                           if _group_jokers(k >> 5 & 15, k >> 3 & 3, total_jokers - (k & 7))}
                if len(nxt) > beam:
                    nxt = _beam_top(nxt, beam, w_joker)
            elif len(nxt) > _PRUNE_FROM:
                nxt = _undominated(nxt)
            layer = nxt
            history.append(("cell", cell, back))
            if _TRACE:
                print(n, c, len(layer))
            if not layer:
                return None
        # Close the groups of number n; states with no group tile stay as they are.
        back = {}
        items = [(k, layer.pop(k)) for k in [k for k in layer if k & 504]]
        nxt = layer
        for key, w in items:
            misc = key & 511
            used = misc & 7
            s_g, mg = misc >> 5, (misc >> 3) & 3
            base = key & ~511
            for j in _group_jokers(s_g, mg, total_jokers - used):
                nk = base | (used + j)
                nw = w + j * w_joker
                old = nxt.get(nk)
                if old is None or old < nw:
                    nxt[nk] = nw
                    back[nk] = (key, j)
        layer = nxt
        history.append(("groups", n, back))
        if not layer:
            return None
    # Every run must be long enough; every table joker laid.
    best_key, best_w = None, None
    for key, w in layer.items():
        runs = key >> _MISC
        short = any((runs >> (c * _CS_BITS)) & 63 for c in range(4))
        if short or (key & 7) < jt:
            continue
        if threshold is not None and w < threshold:
            continue
        if best_w is None or w > best_w:
            best_key, best_w = key, w
    if best_key is None:
        return None
    return best_key, history, best_w


def _beam_top(layer, width, w_joker):
    """The ``width`` best states of ``layer`` for the beam: rack weight laid (a
    joker used early is no gain yet), then flexibility: jokers kept, open runs
    of 3+, few short runs to feed."""
    flex = _FLEX
    ranked = [(((w - (k & 7) * w_joker) << 7) - ((k & 7) << 2) + flex[(k >> 9) & 511]
               + flex[(k >> 18) & 511] + flex[(k >> 27) & 511] + flex[k >> 36], k)
              for k, w in layer.items()]
    return {k: layer[k] for _, k in heapq.nlargest(width, ranked)}


# Flexibility of one colour's open runs: + runs of 3+, - runs still to feed.
_FLEX = [(cs >> 6) - 2 * (cs & 7) - ((cs >> 3) & 7) for cs in range(512)]


def _undominated(layer):
    """Drop states another state of the layer dominates: same everything but one
    colour's open runs, which are longer there (1 -> 2 or 3, 2 -> 3) or one more
    run of 3+, with at least the same weight.  Any play from the weaker state
    is open to the stronger one (a longer run can do what a shorter one must,
    and a run of 3+ may close at any time), so the optimum is kept."""
    out = {}
    get = layer.get
    for key, w in layer.items():
        dominated = False
        for shift in _SHIFTS:
            cs = (key >> shift) & 511
            c1, c2 = cs & 7, (cs >> 3) & 7
            for delta in _UPGRADES[(c1 > 0) * 2 + (c2 > 0) + (cs < 448) * 4]:
                w2 = get(key + (delta << shift))
                if w2 is not None and w2 >= w:
                    dominated = True
                    break
            if dominated:
                break
        if not dominated:
            out[key] = w
    return out


_SHIFTS = tuple(_MISC + c * _CS_BITS for c in range(4))
# Upgrades of a colour's (c1, c2, c3) as deltas of its packed field, by (c1 > 0, c2 > 0).
# An extra run of 3+ (+64) only while c3 < 7 (the field has three bits).
_UPGRADES = {
    0: (), 1: (64 - 8,), 2: (8 - 1, 64 - 1), 3: (8 - 1, 64 - 1, 64 - 8),
    4: (64,), 5: (64, 64 - 8), 6: (64, 8 - 1, 64 - 1), 7: (64, 8 - 1, 64 - 1, 64 - 8),
}
_PRUNE_FROM = 1000  # layer size from which dominance is checked

# The misc bits after a cell: index misc << 5 | groups copies << 3 | jokers used.
_MISC_NEXT = [0] * (512 << 5)
for _misc in range(512):
    for _g in range(4):
        for _dj in range(8):
            _s, _mg, _u = _misc >> 5, (_misc >> 3) & 3, _misc & 7
            if _s + _g < 16 and _u + _dj < 8:
                _MISC_NEXT[_misc << 5 | _g << 3 | _dj] = (_s + _g) << 5 | max(_mg, _g) << 3 | (_u + _dj)

_IDLE = (0, 0, 0, 0, 0, 0, 0, 0)  # a cell's plan that lays nothing and has no open run
# The 65 steps of a pass in order: per number the four cells, then its groups.
_STEPS = tuple(step for n in range(1, 14)
               for step in [("cell", (n - 1) * 4 + c) for c in range(4)] + [("groups", n)])
_OPTIONS_MAX = 200_000
_OPTIONS: dict = {}  # (colour state, table, rack copies, number, jokers free, next two) -> options


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


def _build(plans):
    """Turn the chosen per-cell plans into melds (RULES.md §5 notation)."""
    open_runs = [[] for _ in range(4)]  # per colour: lists of written tiles
    finished: list[list[str]] = []
    pool = [0, 0, 0, 0]
    for kind, where, plan in plans:
        if kind == "groups":
            n, j = where, plan
            finished.extend(_make_groups(n, pool, j))
            pool = [0, 0, 0, 0]
            continue
        n, c = where // 4 + 1, where % 4
        if not open_runs[c] and plan == _IDLE:
            continue  # nothing laid, no run to extend or close
        colour = COLOURS[c]
        e3, ye, a0, a1, a2, yp, g, r = plan
        real = f"{colour}{n}"
        joker = f"{JOKER}={real}"
        runs = open_runs[c]
        short = [run for run in runs if len(run) < 3]
        long_ = [run for run in runs if len(run) >= 3]
        extend = short + long_[:e3]
        finished.extend(long_[e3:])
        for i, run in enumerate(extend):
            run.append(joker if i < ye else real)
        new = [[real] for _ in range(a0)]
        new += [[f"{JOKER}={colour}{n - 1}", real] for _ in range(a1)]
        prefixes = _split_prefix(a2, yp, n)
        for p in prefixes:
            new.append([f"{JOKER}={colour}{m}" for m in range(n - p, n)] + [real])
        open_runs[c] = extend + new
        pool[c] += g
    for runs in open_runs:
        finished.extend(runs)
    return finished


def _split_prefix(a2, yp, n):
    """Split ``yp`` prefix jokers over ``a2`` runs, each 2..n-1 jokers."""
    out = []
    left = yp
    for i in range(a2):
        rest = a2 - i - 1
        p = min(n - 1, left - 2 * rest)
        out.append(p)
        left -= p
    return out


def _make_groups(n, pool, jokers):
    """Build the groups of number ``n`` from ``pool[c]`` real copies and jokers."""
    s = sum(pool)
    if s == 0 and jokers == 0:
        return []
    k = _groups_k(s, max(pool), jokers)
    groups = [[] for _ in range(k)]
    i = 0
    for c in range(4):
        for _ in range(pool[c]):
            groups[i % k].append(c)
            i += 1
    # Jokers: first bring every group to 3, then add the rest where room is.
    left = jokers
    out = []
    fills = [[] for _ in range(k)]
    for gi, members in enumerate(groups):
        need = max(0, 3 - len(members))
        free = [c for c in range(4) if c not in members]
        fills[gi] = free[:need]
        left -= need
    for gi, members in enumerate(groups):
        free = [c for c in range(4) if c not in members and c not in fills[gi]]
        while left and free:
            fills[gi].append(free.pop(0))
            left -= 1
    for members, extra in zip(groups, fills):
        cols = sorted(members + extra)
        out.append([f"{COLOURS[c]}{n}" if c in members else f"{JOKER}={COLOURS[c]}{n}" for c in cols])
    return out
