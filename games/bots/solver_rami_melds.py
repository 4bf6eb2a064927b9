"""The rami solver's answer written out: the chosen plan of every cell and group
step turned into melds (RULES.md §5 notation: runs lowest first, groups in colour
order, jokers as ``J=X``).  Used by :func:`games.bots.solver_rami.solve` on the
plans of either search path (pure Python or the compiled core)."""
from __future__ import annotations

from games.bots.solver_rami_pass import IDLE
from games.engine.tiles import COLOURS, JOKER


def _groups_k(s, mg, j):
    return max(mg, -(-(s + j) // 4))


def build(plans):
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
        if not open_runs[c] and plan == IDLE:
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
