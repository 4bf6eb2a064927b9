"""Exact-enough rack partition into melds for the bots (RULES.md §2).

``best_partition`` splits a rack (face counts + wild count) into disjoint runs
and groups, maximising an additive meld value: the bots use *tiles laid first*
(to go out / keep little deadwood) or *opening points first* (to reach a
threshold).  The search branches on the lowest remaining face: it is left out,
or it is the lowest real tile of a run, or of a group (wilds fill gaps and
ends).  Results are memoised per (rack, wilds, ruleset, objective).

A meld here is a tuple of *slots* ``(face, is_wild)``, lowest number first;
:func:`meld_tiles` writes it in RULES.md §1 notation for an action.
"""
from __future__ import annotations

from functools import lru_cache

from games.bots.faces import TileContext, face, number_of
from games.engine.melds import GROUP, PAIR, RUN, meld_points as _points, rules_for

OBJ_TILES = "tiles"
OBJ_POINTS = "points"


def meld_points(ruleset: str, slots) -> int:
    """Opening points of a run/group/pair given as slots (RULES.md §2 meld points table),
    by the ruleset's ``MeldRules.points`` (``games.engine.melds.meld_points``).

    Sum of values (okey51, rami: a wild counts as what it represents, a 1 is 1), or
    okey17's meld values: run = second-highest number + 1 per tile beyond three;
    group = number (+1 with four tiles); pair = the number once.
    """
    nums = [number_of(f) for f, _ in slots]
    if len(slots) == 2:
        kind = PAIR
    elif len(set(nums)) == 1:
        kind = GROUP
    else:
        kind = RUN
    return _points(rules_for(ruleset), kind, nums)


def _value(ruleset: str, objective: str, slots) -> int:
    """Additive meld value: tiles first (``OBJ_TILES``) or points first; a wild used
    costs a hair, so a real tile is preferred where both fit."""
    pts = meld_points(ruleset, slots)
    if objective == OBJ_TILES:
        return len(slots) * 1000 + pts * 10 - sum(1 for _, w in slots if w)
    return pts * 100 + len(slots) * 10 - sum(1 for _, w in slots if w)


def _run_candidates(counts, wilds, c, n, ace_high):
    """Runs of colour c whose lowest real tile is number n (counts[face(c,n)] > 0).

    okey51 (``ace_high``): when n is 1, also runs ``k..13-1`` with that 1 on top.
    """
    out = []
    used_w = 0
    slots = [(face(c, n), False)]
    p = n
    while p < 13 and len(slots) < 13:
        p += 1
        f = face(c, p)
        if counts[f] > 0:
            slots = slots + [(f, False)]
        elif used_w < wilds:
            slots = slots + [(f, True)]
            used_w += 1
        else:
            break
        _emit(out, slots, used_w, wilds, c, n)
    if p == 13 and ace_high and n > 1 and used_w < wilds and len(slots) < 13:
        # a wild as the 1 after 13
        _emit(out, slots + [(face(c, 1), True)], used_w + 1, wilds, c, n)
    _emit(out, [(face(c, n), False)], 0, wilds, c, n)
    if n == 1 and ace_high:
        top = [(face(c, 1), False)]
        used_w = 0
        for q in range(13, 1, -1):
            f = face(c, q)
            if counts[f] > 0:
                top = [(f, False)] + top
            elif used_w < wilds:
                top = [(f, True)] + top
                used_w += 1
            else:
                break
            if len(top) >= 3:
                out.append(tuple(top))
    return out


def _emit(out, slots, used_w, wilds, c, n):
    """Add slots as a run candidate, plus variants with spare wilds below n."""
    free = wilds - used_w
    for k in range(0, free + 1):
        if n - k < 1:
            break
        full = [(face(c, n - i), True) for i in range(k, 0, -1)] + slots
        if 3 <= len(full) <= 13:
            out.append(tuple(full))


def _group_candidates(counts, wilds, c, n):
    """Groups of number n holding colour c's tile, other colours only above c (lower
    colours of n are already used up in the search order), wilds for missing colours."""
    out = []
    others = [c2 for c2 in range(c + 1, 4) if counts[face(c2, n)] > 0]
    m = len(others)
    for mask in range(1 << m):
        chosen = [others[i] for i in range(m) if mask >> i & 1]
        present = [c] + chosen
        missing = [c2 for c2 in range(4) if c2 not in present]
        for k in range(0, min(wilds, len(missing)) + 1):
            size = len(present) + k
            if 3 <= size <= 4:
                slots = [(face(c2, n), False) for c2 in present] + [(face(c2, n), True) for c2 in missing[:k]]
                out.append(tuple(slots))
    return out


@lru_cache(maxsize=200_000)
def _search(counts: tuple, wilds: int, ruleset: str, objective: str, ace_high: bool):
    """Best (value, melds) for the multiset; melds is a tuple of slot tuples."""
    lowest = -1
    for i, k in enumerate(counts):
        if k:
            lowest = i
            break
    if lowest < 0:
        return 0, ()
    c, n = lowest // 13, lowest % 13 + 1
    lst = list(counts)
    lst[lowest] -= 1
    best_v, best_m = _search(tuple(lst), wilds, ruleset, objective, ace_high)
    cands = _group_candidates(counts, wilds, c, n) + _run_candidates(counts, wilds, c, n, ace_high)
    for slots in cands:
        rest = list(counts)
        w = wilds
        for f, is_w in slots:
            if is_w:
                w -= 1
            else:
                rest[f] -= 1
        v, ms = _search(tuple(rest), w, ruleset, objective, ace_high)
        v += _value(ruleset, objective, slots)
        if v > best_v:
            best_v, best_m = v, ms + (slots,)
    return best_v, best_m


def _windows(ace_high: bool) -> dict:
    """Per number, the 3-number run windows holding it (``12-13-1`` with ace_high)."""
    wins = [(s, s + 1, s + 2) for s in range(1, 12)]
    if ace_high:
        wins.append((12, 13, 1))
    return {n: [w for w in wins if n in w] for n in range(1, 14)}


_WINDOWS = _windows(False)
_WINDOWS_ACE = _windows(True)


def search(counts: tuple, wilds: int, ruleset: str, objective: str, ace_high: bool):
    """Best ``(value, melds)`` for a rack given as face counts and a wild count.

    With fewer than two wilds, tiles that cannot join any meld (no 3-number run
    window nor group holding enough real tiles besides the wilds) are left out
    before the memoised search: they are deadwood in every partition.
    """
    if wilds < 2:
        need = 3 - wilds  # real tiles a 3-tile window must hold
        windows = _WINDOWS_ACE if ace_high else _WINDOWS
        pruned = list(counts)
        for f, k in enumerate(counts):
            if not k:
                continue
            c, n = f // 13, f % 13 + 1
            others = sum(1 for c2 in range(4) if c2 != c and counts[c2 * 13 + n - 1])
            if others + 1 >= need:
                continue
            base = c * 13
            if any(sum(1 for m in w if counts[base + m - 1]) >= need for w in windows[n]):
                continue
            pruned[f] = 0
        counts = tuple(pruned)
    return _search(counts, wilds, ruleset, objective, ace_high)


def counts_of(ctx: TileContext, rack: list[str]) -> tuple[tuple, int]:
    """(face counts tuple of 52, number of wilds) for a rack."""
    counts = [0] * 52
    wilds = 0
    for t in rack:
        code = ctx.rack_code(t)
        if code < 0:
            wilds += 1
        else:
            counts[code] += 1
    return tuple(counts), wilds


def best_partition(ctx: TileContext, rack: list[str], objective: str = OBJ_TILES) -> list[tuple]:
    """Disjoint runs/groups from ``rack`` maximising the objective (RULES.md §2).

    Returns a list of slot tuples; leftover wilds are not used (see :func:`absorb_wilds`).
    """
    counts, wilds = counts_of(ctx, rack)
    _, melds = search(counts, wilds, ctx.ruleset, objective, ctx.ace_high)
    return list(melds)


def meld_tiles(ctx: TileContext, slots) -> list[str]:
    """Write slots as meld tile strings (``F`` for the okey face, ``R6=B5`` for a wild)."""
    return [ctx.wild_str(f) if w else ctx.real_str(f) for f, w in slots]


def slots_rack_tiles(ctx: TileContext, slots) -> list[str]:
    """The physical rack tiles a meld consumes."""
    return [ctx.wild if w else ctx.real_str(f) for f, w in slots]


def pairs_of(ctx: TileContext, rack: list[str]) -> list[tuple]:
    """As many pairs as the rack gives (RULES.md §2 pair): identical faces first,
    then a wild with the highest single, then two wilds.  Slot tuples of length 2.
    """
    counts, wilds = counts_of(ctx, rack)
    pairs = []
    singles = []
    for f in range(51, -1, -1):
        k = counts[f]
        for _ in range(k // 2):
            pairs.append(((f, False), (f, False)))
        if k % 2:
            singles.append(f)
    singles.sort(key=number_of, reverse=True)
    for f in singles:
        if wilds == 0:
            break
        pairs.append(((f, False), (f, True)))
        wilds -= 1
    while wilds >= 2:
        f = ctx.false_face if ctx.false_face is not None else 0
        pairs.append(((f, True), (f, True)))
        wilds -= 2
    return pairs
