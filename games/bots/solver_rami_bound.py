"""Upper bound for the rami solver's branch and bound: one colour at a time.

RULES.md §2, §5.  :mod:`games.bots.solver_rami` walks the cells (number,
colour) in order; to drop a state early it needs an upper bound on the rack
weight the remaining cells can still lay.  This module relaxes the problem per
colour: the runs of one colour are followed exactly (its open runs by length,
short runs must be fed, jokers in and in front of runs), while its groups are
only checked for what they need: ``g`` copies at a number go to ``g`` groups,
each needing two members of other colours, of which a colour with ``a`` real
tiles there gives at most ``min(a, g)`` (one per group); jokers fill the rest
and are taken from the colour's free jokers; the ``g`` groups also need ``3g``
tiles and jokers at that number.  Every colour may use all the free jokers.
Any real arrangement projects onto one relaxed arrangement per colour (the
jokers of a colour's runs and of the groups holding its tiles are distinct),
so the sum over the colours bounds the real optimum from above (the jokers'
own weight is counted apart).

:class:`ColourBounds` fills its tables lazily (only for the run states the
search meets) and is valid for one position.  The compiled core
(``games/bots/_rami_core.c``, ``bound_compute``) ports it line by line; this
module is the pure-Python path and the reference.
"""
from __future__ import annotations

NEG = -(1 << 60)  # no arrangement: below any real weight, even summed four times


def group_jokers(others: tuple) -> tuple:
    """Jokers that ``g`` = 0..3 copies of a cell in groups need at least.

    ``g`` copies go to ``g`` different groups, each with two members of other
    colours: a colour with ``a`` real tiles at the number (``others`` holds the
    three other colours' counts) fills at most ``min(a, g)`` of those places
    (one per group), jokers the rest: ``max(0, 2g - sum(min(a, g)))``.
    """
    return tuple(max(0, 2 * g - sum(min(a, g) for a in others)) for g in range(4))


class ColourBounds:
    """Lazily built per-colour bounds for one position.

    Args:
        table_counts, rack_counts: copies per cell on the table / rack.
        total_jokers: jokers in play (table + rack).
        w_num: weight of one rack tile per number (index 1..13).
        options: ``options(cs, t, r_max, n, jl, next1, next2) -> (list, key)``,
            the solver's cached option list of a cell and its cache key.
    """

    def __init__(self, table_counts, rack_counts, total_jokers, w_num, options):
        self.table = table_counts
        self.rack = rack_counts
        self.avail = [t + r for t, r in zip(table_counts, rack_counts)]
        avail = self.avail
        self.totals = [sum(avail[(cell // 4) * 4:(cell // 4) * 4 + 4]) for cell in range(52)]
        # per cell: the other colours' real tiles at its number
        self.extra = [group_jokers(tuple(avail[cell - cell % 4 + d] for d in range(4) if d != cell % 4))
                      for cell in range(52)]
        self.w_num = w_num
        self.options = options
        # memo[c][m]: (colour state | free jokers << 9) -> bound
        self.memo = [[{} for _ in range(15)] for _ in range(4)]
        self.lists: list[dict] = [{} for _ in range(52)]  # the solver's ranked options per cell

    def get(self, c: int, m: int, cs: int, jl: int) -> int:
        """Most rack weight colour ``c`` can still lay at numbers ``m..13``,
        entering number ``m`` with open runs ``cs`` (packed as in the solver)
        and ``jl`` free jokers; :data:`NEG` when the runs cannot be finished."""
        memo = self.memo[c][m]
        k = cs | jl << 9
        v = memo.get(k)
        if v is None:
            v = memo[k] = self._compute(c, m, cs, jl)
        return v

    def _compute(self, c, m, cs, jl):
        if m == 14:
            return 0 if not cs & 63 else NEG  # runs shorter than 3 are not melds
        cell = (m - 1) * 4 + c
        avail = self.avail
        next1 = avail[cell + 4] if m < 13 else 0
        next2 = avail[cell + 8] if m < 12 else 0
        opts, _ = self.options(cs, self.table[cell], self.rack[cell], m, jl, next1, next2)
        weight = self.w_num[m]
        best = NEG
        extra = self.extra[cell]
        room = self.totals[cell] + jl  # the groups' tiles and jokers at this number
        nmemo = self.memo[c][m + 1]
        for r, cs2, g, dj, _plan in opts:
            if g:
                if 3 * g > room:
                    continue
                dj += extra[g]
                if dj > jl:
                    continue
            b = nmemo.get(cs2 | (jl - dj) << 9)
            if b is None:
                b = self.get(c, m + 1, cs2, jl - dj)
            v = r * weight + b
            if v > best:
                best = v
        return best if best > NEG // 2 else NEG

    def root(self, total_jokers: int) -> int:
        """Upper bound on the rack weight of the whole position (jokers apart)."""
        total = 0
        for c in range(4):
            b = self.get(c, 1, 0, total_jokers)
            if b <= NEG // 2:
                return NEG
            total += b
        return total
