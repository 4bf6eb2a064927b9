"""One pass of the exact rami solver's dynamic programme (RULES.md §2, §5).

:mod:`games.bots.solver_rami` runs the passes (the beam, the bounded passes of
its branch and bound); this module is one pass over the 52 cells: the packed
state, a cell's options, the closing of the groups of a number, the beam's
ranking and the dominance pruning.  The compiled core
(``games/bots/_rami_core.c``) ports it line by line, keeping its order of states
and options.

State layout (one int): bits 0-2 jokers used, 3-4 max group copies of one colour
at this number, 5-8 real tiles in groups at this number, then 9 bits per colour:
open runs of length 1, 2 and 3+ (3 bits each).
"""
from __future__ import annotations

import functools
import heapq
from operator import itemgetter

from games.bots.solver_rami_bound import NEG

_TRACE = False  # print the states per cell (profiling)
_MISC = 9
_CS_BITS = 9


def _cs(c1: int, c2: int, c3: int) -> int:
    return c1 | c2 << 3 | c3 << 6


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
def group_jokers(s, mg, jl):
    """Joker counts ``j <= jl`` with which ``s`` real tiles (at most ``mg`` of one
    colour) form groups: some ``k`` has ``max(mg, ceil((s+j)/4)) <= k <= min(s, (s+j)//3)``."""
    res = []
    for j in range(jl + 1):
        lo = max(mg, -(-(s + j) // 4))
        hi = min(s, (s + j) // 3)
        if lo <= hi:
            res.append(j)
    return tuple(res)


def options(cs, t, r_max, n, jl, next1, next2):
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


def search(table_counts, rack_counts, total_jokers, jt, w_joker, w_num, bounds, threshold, beam=None, rest=None):
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
                    opts = local[lk] = _ranked(options(cs, t, r_max, n, jl, next1, next2)[0], c, n, jl,
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
                           if group_jokers(k >> 5 & 15, k >> 3 & 3, total_jokers - (k & 7))}
                if len(nxt) > beam:
                    nxt = _beam_top(nxt, beam, w_joker)
            elif len(nxt) > PRUNE_FROM:
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
            for j in group_jokers(s_g, mg, total_jokers - used):
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
    up0, up1, up2, up3 = _KEY_UPGRADES
    for key, w in layer.items():
        for delta in up0[(key >> 9) & 511] + up1[(key >> 18) & 511] + up2[(key >> 27) & 511] + up3[key >> 36]:
            w2 = get(key + delta)
            if w2 is not None and w2 >= w:
                break
        else:
            out[key] = w
    return out


_SHIFTS = tuple(_MISC + c * _CS_BITS for c in range(4))
# Upgrades of a colour's (c1, c2, c3) as deltas of its packed field, by (c1 > 0, c2 > 0).
# An extra run of 3+ (+64) only while c3 < 7 (the field has three bits).
_UPGRADES = {
    0: (), 1: (64 - 8,), 2: (8 - 1, 64 - 1), 3: (8 - 1, 64 - 1, 64 - 8),
    4: (64,), 5: (64, 64 - 8), 6: (64, 8 - 1, 64 - 1), 7: (64, 8 - 1, 64 - 1, 64 - 8),
}
# Per colour and its open runs: the upgrades as deltas of the whole packed key.
_KEY_UPGRADES = tuple(
    tuple(tuple(d << shift for d in _UPGRADES[((cs & 7) > 0) * 2 + (((cs >> 3) & 7) > 0) + (cs < 448) * 4])
          for cs in range(512))
    for shift in _SHIFTS)
PRUNE_FROM = 1000  # layer size from which dominance is checked

# The misc bits after a cell: index misc << 5 | groups copies << 3 | jokers used.
_MISC_NEXT = [0] * (512 << 5)
for _misc in range(512):
    for _g in range(4):
        for _dj in range(8):
            _s, _mg, _u = _misc >> 5, (_misc >> 3) & 3, _misc & 7
            if _s + _g < 16 and _u + _dj < 8:
                _MISC_NEXT[_misc << 5 | _g << 3 | _dj] = (_s + _g) << 5 | max(_mg, _g) << 3 | (_u + _dj)

IDLE = (0, 0, 0, 0, 0, 0, 0, 0)  # a cell's plan that lays nothing and has no open run
# The 65 steps of a pass in order: per number the four cells, then its groups.
STEPS = tuple(step for n in range(1, 14)
               for step in [("cell", (n - 1) * 4 + c) for c in range(4)] + [("groups", n)])
_OPTIONS_MAX = 200_000
_OPTIONS: dict = {}  # (colour state, table, rack copies, number, jokers free, next two) -> options
