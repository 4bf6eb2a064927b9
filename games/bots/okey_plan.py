"""Rack planning shared by the okey51 and okey17 bots (RULES.md §2-§4).

Openings (melds reaching a threshold, or pairs), the tiles worth keeping, and
the discard choice.  Pure functions of the bot's own view (:class:`Seen`).
"""
from __future__ import annotations

from collections import Counter

from games.bots.faces import WILD, colour_of, number_of
from games.bots.partition import (OBJ_POINTS, OBJ_TILES, search, _value, counts_of, meld_points,
                                  meld_tiles, pairs_of, slots_rack_tiles)


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
    """Per distinct tile: how much the best partition of ``rack`` loses without it.

    A tile outside the best partition loses nothing (that partition stays), so
    only the partition's tiles are searched again.
    """
    ctx = seen.ctx
    counts, wilds = counts_of(ctx, rack)
    base, melds = search(counts, wilds, ctx.ruleset, objective, ctx.ace_high)
    used = set(laid_tiles(ctx, melds))
    out = {}
    for t in set(rack):
        if t not in used:
            out[t] = 0
            continue
        out[t] = base - partition_value(ctx, remove(rack, [t]), objective)
    return out


def pair_usefulness(seen, rack: list[str]) -> dict:
    """Per distinct tile: 1 when it is in a pair of identical tiles in the rack."""
    cnt = Counter(rack)
    return {t: (1 if cnt[t] >= 2 else 0) for t in cnt}


def value_of(seen, tile: str) -> int:
    """Points value of a rack tile (F: its identity; a wild: 0 here, handled apart)."""
    code = seen.ctx.rack_code(tile)
    return 0 if code == WILD else number_of(code)


def potential_loss(seen, rack: list[str], objective: str = OBJ_POINTS) -> dict:
    """Per distinct tile: what the best partition *with one more wild* loses without it.

    One extra wild turns every two-tile near-meld (``B5 B6``, ``B5 B7``, ``R9 K9``)
    into a meld, so this measures how close the rack is to more melds — the
    strong bot keeps the tiles that matter for its next draw.  Skipped (all 0)
    when the rack already holds two wilds (the search would be slow and every
    tile is close to a meld anyway).
    """
    ctx = seen.ctx
    counts, wilds = counts_of(ctx, rack)
    if wilds >= 2:
        return {t: 0 for t in set(rack)}
    base, melds = search(counts, wilds + 1, ctx.ruleset, objective, ctx.ace_high)
    used = set(laid_tiles(ctx, melds))
    out = {}
    for t in set(rack):
        if t not in used:
            out[t] = 0
            continue
        c2, w2 = counts_of(ctx, remove(rack, [t]))
        out[t] = base - search(c2, w2 + 1, ctx.ruleset, objective, ctx.ace_high)[0]
    return out
