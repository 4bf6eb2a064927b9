"""Rack planning shared by the okey51 and okey17 bots (RULES.md §2-§4).

Openings (melds reaching a threshold, or pairs), the tiles worth keeping, and
the discard choice.  Pure functions of the bot's own view (:class:`Seen`).
"""
from __future__ import annotations

from collections import Counter

from games.bots.faces import WILD, colour_of, number_of
from games.bots.partition import (
    OBJ_POINTS,
    OBJ_TILES,
    _value,
    counts_of,
    meld_points,
    meld_tiles,
    pairs_of,
    search,
    slots_rack_tiles,
)


def laid_tiles(ctx, melds) -> list[str]:
    """Physical rack tiles the melds (slot tuples) consume."""
    out = []
    for m in melds:
        out.extend(slots_rack_tiles(ctx, m))
    return out


def keep_one(ctx, melds: list, rack_len: int, prefer_wild_out: bool = True) -> list:
    """Shrink a meld list that would lay the whole rack so one tile stays to discard
    (RULES.md §3 "keep one tile").  Takes an end tile off a meld of four or more
    (a wild first: discarding it ends the round with the okey, RULES.md §3 table),
    else leaves the meld with the fewest points in the rack.  Returns a new list.
    """
    if sum(len(m) for m in melds) < rack_len or not melds:
        return melds
    best = None
    for i, m in enumerate(melds):
        if len(m) < 4:
            continue
        is_group = len({number_of(f) for f, _ in m}) == 1
        options = range(len(m)) if is_group else (0, len(m) - 1)
        for j in options:
            rest = m[:j] + m[j + 1:]
            key = (1 if (m[j][1] and prefer_wild_out) else 0, -number_of(m[j][0]))
            if best is None or key > best[0]:
                best = (key, i, rest)
    if best is not None:
        _, i, rest = best
        return melds[:i] + [rest] + melds[i + 1:]
    weakest = min(range(len(melds)), key=lambda i: meld_points(ctx.ruleset, melds[i]))
    return melds[:weakest] + melds[weakest + 1:]


def partition(ctx, rack, objective=OBJ_TILES) -> list:
    """Best runs/groups of ``rack`` for the objective (see ``games.bots.partition``)."""
    counts, wilds = counts_of(ctx, rack)
    return list(search(counts, wilds, ctx.ruleset, objective, ctx.ace_high)[1])


def partition_value(ctx, rack, objective=OBJ_TILES) -> int:
    counts, wilds = counts_of(ctx, rack)
    return search(counts, wilds, ctx.ruleset, objective, ctx.ace_high)[0]


def opening_melds(ctx, rack: list[str], threshold: int, must: str | None = None):
    """Melds (slot tuples) opening at ``threshold`` points from ``rack`` keeping one tile,
    containing a copy of ``must`` when given (a taken discard, RULES.md §3 D-18); or ``None``.
    """
    for objective in (OBJ_TILES, OBJ_POINTS):
        melds = keep_one(ctx, partition(ctx, rack, objective), len(rack))
        if not melds:
            continue
        pts = sum(meld_points(ctx.ruleset, m) for m in melds)
        if pts < threshold:
            continue
        if must is not None and must not in laid_tiles(ctx, melds):
            continue
        return melds
    return None


def pair_opening(ctx, rack: list[str], minimum_pairs: int = 5, min_points: int = 0,
                 must: str | None = None):
    """Pairs to open with (slot tuples), keeping one tile; ``None`` when fewer than
    ``minimum_pairs`` or below ``min_points`` pair points (okey17), or ``must`` unused."""
    pairs = pairs_of(ctx, rack)
    if 2 * len(pairs) >= len(rack):
        pairs = sorted(pairs, key=lambda p: meld_points(ctx.ruleset, p))[1:]
    if len(pairs) < max(minimum_pairs, 1):
        return None
    if sum(meld_points(ctx.ruleset, p) for p in pairs) < min_points:
        return None
    if must is not None and must not in laid_tiles(ctx, pairs):
        return None
    return pairs


def write(ctx, melds) -> list[list[str]]:
    """Slot tuples to RULES.md §7 meld tile lists."""
    return [meld_tiles(ctx, m) for m in melds]


def remove(rack: list[str], tiles: list[str]) -> list[str]:
    """``rack`` minus one copy of each of ``tiles``."""
    left = list(rack)
    for t in tiles:
        left.remove(t)
    return left


def closeness(seen, rack: list[str]) -> Counter:
    """Per tile string, how many rack tiles could join it in a future meld
    (same colour within two numbers, or same number another colour)."""
    codes = [seen.ctx.rack_code(t) for t in rack]
    out = Counter()
    for t, c in zip(rack, codes):
        if c == WILD:
            continue
        n = 0
        for c2 in codes:
            if c2 == WILD or c2 == c:
                continue
            if colour_of(c2) == colour_of(c) and abs(number_of(c2) - number_of(c)) <= 2:
                n += 1
            elif number_of(c2) == number_of(c) and colour_of(c2) != colour_of(c):
                n += 1
        out[t] = n
    return out


def usefulness(seen, rack: list[str], objective: str) -> dict:
    """Per distinct tile: what the best partition of ``rack`` loses without it.

    Read off the partition instead of searching again: a tile outside it loses
    nothing; an end tile of a run of four or more (any tile of a group of four)
    loses its own share; any other meld tile loses its whole meld (an upper
    bound: the rest might re-form elsewhere).
    """
    ctx = seen.ctx
    counts, wilds = counts_of(ctx, rack)
    _, melds = search(counts, wilds, ctx.ruleset, objective, ctx.ace_high)
    out = dict.fromkeys(rack, 0)
    for m in melds:
        whole = _value(ctx.ruleset, objective, m)
        is_group = len({number_of(f) for f, _ in m}) == 1
        for j, (f, w) in enumerate(m):
            tile = ctx.wild if w else ctx.real_str(f)
            if len(m) >= 4 and (is_group or j in (0, len(m) - 1)):
                loss = whole - _value(ctx.ruleset, objective, m[:j] + m[j + 1:])
            else:
                loss = whole
            out[tile] = max(out.get(tile, 0), loss)
    return out


def value_of(seen, tile: str) -> int:
    """Points value of a rack tile (F: its identity; a wild: 0 here, handled apart)."""
    code = seen.ctx.rack_code(tile)
    return 0 if code == WILD else number_of(code)


def visible_counts(seen) -> Counter:
    """Physical tiles this seat can see outside its rack: every discard pile, the
    table (wilds by their physical tile) and the indicator."""
    seen_tiles = Counter()
    for pile in seen.view.get("discards") or []:
        seen_tiles.update(pile)
    for m in seen.table:
        seen_tiles.update(t.partition("=")[0] for t in m["tiles"])
    if seen.view.get("indicator"):
        seen_tiles[seen.view["indicator"]] += 1
    return seen_tiles


def near_value(seen, rack: list[str], objective: str = OBJ_POINTS) -> dict:
    """Per distinct tile: the best two-tile near-meld it is in, among the tiles the
    best partition leaves over, weighted by how many completing tiles are still
    unseen (RULES.md §2 runs and groups).  On the scale of the partition values
    (one more meld of those points), without a search."""
    ctx = seen.ctx
    counts, wilds = counts_of(ctx, rack)
    _, melds = search(counts, wilds, ctx.ruleset, objective, ctx.ace_high)
    left = remove(rack, laid_tiles(ctx, melds))
    codes = sorted({ctx.rack_code(t) for t in left} - {WILD})
    visible = visible_counts(seen)
    mine = Counter(ctx.rack_code(t) for t in rack)

    def unseen(code: int) -> int:
        name = ctx.real_str(code)
        if ctx.false_face is not None and code == ctx.false_face:
            name = "F"
        return max(0, 2 - visible[name] - mine[code])

    best: dict = {}
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            ca, na, cb, nb = colour_of(a), number_of(a), colour_of(b), number_of(b)
            need = []
            if ca == cb and nb - na == 1:
                need = [x for x in (na - 1, nb + 1) if 1 <= x <= 13]
                if ctx.ace_high and nb == 13:
                    need.append(1)
                need = [ca * 13 + x - 1 for x in need]
            elif ca == cb and nb - na == 2:
                need = [ca * 13 + na]
            elif ca == cb and ctx.ace_high and na == 1 and nb == 13:
                need = [ca * 13 + 11]
            elif na == nb and ca != cb:
                need = [c * 13 + na - 1 for c in range(4) if c not in (ca, cb)]
            if not need:
                continue
            avail = min(1.0, sum(unseen(f) for f in need) / 2)
            pts = max(meld_points(ctx.ruleset, tuple(sorted([(a, False), (b, False), (f, False)],
                                                             key=lambda s: number_of(s[0]))))
                      for f in need)
            gain = (pts * 100 + 30) if objective == OBJ_POINTS else (3000 + pts * 10)
            v = gain * avail
            for t in (a, b):
                if v > best.get(t, 0):
                    best[t] = v
    out = {}
    for t in dict.fromkeys(rack):
        c = ctx.rack_code(t)
        out[t] = best.get(c, 0) if c != WILD else 0
    return out
