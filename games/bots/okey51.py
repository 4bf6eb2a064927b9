"""The okey51 computer player (RULES.md §3).

One call returns the next action of the seat's turn: draw or take the discard
(only with a ``then`` that places it, D-18), then table actions one at a time
(open, swap, meld, add), then the discard.  Each call re-plans from the view.

Levels (``games.bots.LEVELS``):
- ``easy``: opens with the melds it sees, never takes a discard, never swaps,
  adds only to its own melds, and discards carelessly one time in four
  (sometimes a penalty tile);
- ``normal``: opens as soon as it can (melds reaching the threshold, else five
  pairs), takes a discard only when it opens with it, lays its melds, adds to
  any meld (an opponent's first: the owner pays value × 10), avoids penalty
  tiles and keeps the tiles its best partition uses;
- ``strong``: as normal, plus: takes a discard whenever it can lay it (new meld
  or add: the discarder pays value × 10), swaps okeys out of opponents' melds
  (+100 + value × 10 for them) and, in team play, out of its own and the
  partner's melds (free), judges discards by how close the rack stays to
  more melds (two-tile near-melds whose completing tiles are still unseen), plans pairs only with
  four pairs or more, avoids feeding the next seat (tiles it discarded or
  passed on are safe), and goes out with an okey when it can (−1000).
Measured with ``manage.py selfplay`` (see the report in the bots' commit log).
"""
from __future__ import annotations

from games.bots.faces import WILD, colour_of, number_of
from games.bots.okey_plan import (
    closeness,
    keep_one,
    laid_tiles,
    near_value,
    opening_melds,
    pair_opening,
    partition,
    usefulness,
    value_of,
    write,
)
from games.bots.partition import OBJ_POINTS, OBJ_TILES, pairs_of
from games.bots.seen import Seen, meld_accepts

PAIRS_TO_OPEN = 5
"""At least five pairs open without a points threshold (RULES.md §3)."""

TEAM_SWAPS = True
"""Strong in team play: after the opponents' melds, also swap okeys out of our own and the
partner's melds (free, RULES.md §3), so the wild works in our rack instead of lying in a meld.
Measured (4,000 team rounds strong+strong vs normal+normal, same seeds): team difference
−249 → −266 points per round, paired −16.4 ± 9.0; solo it changes nothing (+0.3 ± 4.3)."""

def act(seen: Seen, level: str, rng) -> dict:
    """The next action for ``seen.seat`` (RULES.md §3, §7 action dicts with ``seat``)."""
    if seen.view.get("phase") == "draw":
        return _draw_phase(seen, level)
    return _play_phase(seen, level, rng)


# ----------------------------------------------------------------------------- draw

def _draw_phase(seen: Seen, level: str) -> dict:
    draw = {"seat": seen.seat, "type": "draw"}
    if level == "easy":
        return draw
    then = take_plan(seen, level)
    if then is None:
        return draw
    return {"seat": seen.seat, "type": "take_discard", "then": then}


def take_plan(seen: Seen, level: str) -> dict | None:
    """The ``then`` action placing the previous seat's last discard, or ``None`` (D-18)."""
    tile = seen.top_discard()
    if tile is None:
        return None
    ctx = seen.ctx
    rack2 = seen.rack + [tile]
    threshold = seen.view.get("threshold") or 51
    if seen.opened == "no":
        melds = opening_melds(ctx, rack2, threshold, must=tile)
        if melds is not None:
            return {"type": "open", "melds": write(ctx, melds)}
        pairs = pair_opening(ctx, rack2, PAIRS_TO_OPEN, must=tile)
        if pairs is not None:
            return {"type": "open", "melds": write(ctx, pairs)}
        return None
    if level != "strong":
        return None
    if seen.opened == "pairs":
        code = ctx.rack_code(tile)
        for t in seen.rack:
            if t == tile or (ctx.rack_code(t) == WILD and code != WILD):
                melds = [[tile, t if t == tile else ctx.wild_str(code)]]
                return {"type": "meld", "tiles": melds[0]}
        return None
    # opened with melds: a new meld with it, else an add
    for m in partition(ctx, rack2, OBJ_TILES):
        if tile in laid_tiles(ctx, [m]) and len(rack2) - len(m) >= 1:
            return {"type": "meld", "tiles": write(ctx, [m])[0]}
    code = ctx.rack_code(tile)
    if code != WILD:
        target = _add_target(seen, code, allow_others=True)
        if target is not None:
            return {"type": "add", "meld": target, "tile": tile}
    return None


# ----------------------------------------------------------------------------- play

def _play_phase(seen: Seen, level: str, rng) -> dict:
    ctx = seen.ctx
    rack = seen.rack
    me = seen.seat
    if len(rack) <= 1:
        return _discard(seen, rack[0] if rack else "")
    if seen.opened == "no":
        threshold = seen.view.get("threshold") or 51
        melds = opening_melds(ctx, rack, threshold)
        if melds is not None:
            return {"seat": me, "type": "open", "melds": write(ctx, melds)}
        if level != "easy":
            pairs = pair_opening(ctx, rack, PAIRS_TO_OPEN)
            if pairs is not None:
                return {"seat": me, "type": "open", "melds": write(ctx, pairs)}
        return _discard(seen, choose_discard(seen, level, rng))
    if seen.opened == "pairs":
        pairs = pair_opening(ctx, rack, 1)
        if pairs:
            return {"seat": me, "type": "meld", "tiles": write(ctx, pairs[:1])[0]}
        return _discard(seen, choose_discard(seen, level, rng))
    # opened with melds
    if level == "strong":
        swap = _swap(seen)
        if swap is not None:
            return swap
    melds = keep_one(ctx, partition(ctx, rack, OBJ_TILES), len(rack))
    if melds:
        return {"seat": me, "type": "meld", "tiles": write(ctx, melds[:1])[0]}
    # no meld left in the rack: add single tiles, highest first (they would cost value × 5)
    for t in sorted(dict.fromkeys(rack), key=lambda t: -value_of(seen, t)):
        code = ctx.rack_code(t)
        if code == WILD:
            continue
        target = _add_target(seen, code, allow_others=(level != "easy"))
        if target is not None:
            return {"seat": me, "type": "add", "meld": target, "tile": t}
    return _discard(seen, choose_discard(seen, level, rng))


def _swap(seen: Seen) -> dict | None:
    """Swap a real tile for an okey in an opponent's meld (owner +100 + value × 10, RULES.md §3);
    in team play then in our own or the partner's meld (free, :data:`TEAM_SWAPS`).

    Returns a ``swap`` action dict or ``None``."""
    have = {}
    for t, c in zip(seen.rack, seen.codes):
        if c != WILD and t != "F":
            have.setdefault(c, t)
    friendly_ok = TEAM_SWAPS and seen.partner() is not None
    for pass_friendly in (False, True):
        if pass_friendly and not friendly_ok:
            break
        for raw, m in zip(seen.table, seen.melds):
            if not m.wilds or m.kind == "pair" or seen.friendly(m.owner) != pass_friendly:
                continue
            for rep in m.wilds:
                if rep in have:
                    return {"seat": seen.seat, "type": "swap", "meld": raw["id"], "tile": have[rep]}
    return None


def _add_target(seen: Seen, code: int, allow_others: bool) -> int | None:
    """Id of a table meld a tile of ``code`` can be added to: an opponent's first
    (the owner pays value × 10), then our own or our partner's; ``None`` if none."""
    best = None
    for raw, m in zip(seen.table, seen.melds):
        if m.kind == "pair" or not meld_accepts(seen, m, code):
            continue
        friendly = seen.friendly(m.owner)
        if not friendly and not allow_others:
            continue
        rank = 0 if not friendly else 1
        if best is None or rank < best[0]:
            best = (rank, raw["id"])
    return None if best is None else best[1]


# ----------------------------------------------------------------------------- discard

def _discard(seen: Seen, tile: str) -> dict:
    return {"seat": seen.seat, "type": "discard", "tile": tile}


def choose_discard(seen: Seen, level: str, rng) -> str:
    """The rack tile to discard (RULES.md §3 penalty tile, taken discards).

    Cost per tile (lowest discarded): penalty tile +10000, a wild +20000 (it would
    cost 100 and it is the best tile), loss to the best partition, partial-meld
    neighbours, value (kept while unopened, shed once opened), and for ``strong``
    the risk the next seat takes it (value × 10 to us).
    """
    rack = seen.rack
    if len(rack) == 1:
        return rack[0]
    if level == "easy" and rng.random() < 0.25:
        plain = [t for t in rack if seen.ctx.rack_code(t) != WILD]
        return rng.choice(sorted(plain or rack))
    opened = seen.opened
    objective = OBJ_POINTS if opened == "no" else OBJ_TILES
    use = usefulness(seen, rack, objective)
    near = closeness(seen, rack)
    from collections import Counter
    dup = Counter(rack)
    pot = {}
    pairs_plan = True
    if level == "strong":
        pot = near_value(seen, rack, objective)
        pairs_plan = opened == "pairs" or len(pairs_of(seen.ctx, rack)) >= 4
    best = None
    for t in sorted(set(rack)):
        code = seen.ctx.rack_code(t)
        cost = 0.0
        if code == WILD:
            cost += 20000
        elif seen.fits(code):
            cost += 10000
        cost += use.get(t, 0) * 3
        cost += pot.get(t, 0) * 1
        cost += near.get(t, 0) * 25
        if pairs_plan and (opened == "pairs" or (opened == "no" and dup[t] >= 2)):
            cost += 400 if dup[t] >= 2 else 0
        v = number_of(code) if code != WILD else 0
        if opened == "no":
            cost += v * 2
        else:
            cost -= v * 6
        if level == "strong" and code != WILD:
            cost += _feed_risk(seen, code)
        key = (cost, t)
        if best is None or key < best:
            best = key
    return best[1]


def _feed_risk(seen: Seen, code: int) -> float:
    """Strong: how likely the next seat takes this tile (it pays us value × 10).

    Base risk grows with the tile's value; a tile the next seat discarded itself
    is safe, one next to or of the same number as their discards is safer, and
    the risk halves while they are unopened (they can only take it to open).
    """
    nxt = seen.next_seat()
    discards = seen.view.get("discards") or []
    theirs = discards[nxt] if nxt < len(discards) else []
    risk = number_of(code) * 4.0
    ctx = seen.ctx
    for t in theirs:
        c2 = ctx.rack_code(t)
        if c2 == WILD:
            continue
        if c2 == code:
            risk -= number_of(code) * 4
        elif number_of(c2) == number_of(code) or (colour_of(c2) == colour_of(code)
                                                   and abs(number_of(c2) - number_of(code)) <= 1):
            risk -= number_of(code) * 1.5
    opened = seen.view.get("opened") or []
    if nxt < len(opened) and opened[nxt] == "no":
        risk *= 0.5
    return max(risk, 0.0)
