"""The okey17 computer player (RULES.md §4).

Same turn shape as okey51 (draw or take, table actions one at a time, discard),
with okey17's rules: a taken discard goes into a *new* meld in the same action;
ordinary adds are free but a meld grows by one tile per end per turn
(``turn_state["grown"]``); a playable tile or a joker can never be discarded
(refused, and the penalty stays) except as the round-ending discard.  Scores
count tiles left (10 each once opened) and the base (400-800) when unopened, so
the bot opens as early as it can and then sheds tiles.

Before every add the bot checks that the turn can still end: afterwards either
one tile is left (the exempt final discard) or some tile is neither a joker nor
playable on the grown table.

Levels: ``easy`` never takes discards, never swaps, lays only its own melds and
adds to its own melds, and discards carelessly one time in four among the tiles
the rules allow; ``normal`` opens as soon as it can (melds, else pairs), takes a
discard only to open with it, lays and adds everything it can; ``strong`` also
takes discards into new melds, lays pairs in a pairs player's area (D-12: they
pay number × 20), swaps jokers out of opponents' melds, keeps near-melds whose
completing tiles are unseen, and avoids feeding the next seat.
"""
from __future__ import annotations

from dataclasses import replace

from games.bots.faces import WILD, colour_of, face_str, fitting_faces, number_of, run_ends
from games.bots.okey51 import _feed_risk
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
from games.bots.seen import Seen

PAIRS_PLAN = 4
"""Strong keeps identical pairs only with this many pairs in the rack (measured: 0, 3, 4 play alike)."""


def act(seen: Seen, level: str, rng) -> dict:
    """The next action for ``seen.seat`` (RULES.md §4, §7 action dicts with ``seat``)."""
    if seen.view.get("phase") == "draw":
        if level == "easy":
            return {"seat": seen.seat, "type": "draw"}
        then = take_plan(seen, level)
        if then is None:
            return {"seat": seen.seat, "type": "draw"}
        return {"seat": seen.seat, "type": "take_discard", "then": then}
    return _play_phase(seen, level, rng)


def _pairs_threshold(seen: Seen) -> int:
    v = seen.view
    pt = v.get("pairs_threshold")
    if pt:
        return pt
    return (3 * (v.get("threshold") or 17) + 1) // 2


def take_plan(seen: Seen, level: str) -> dict | None:
    """The ``then`` laying the previous seat's last discard in a new meld, or ``None``
    (RULES.md §4: a taken discard goes into a new meld laid in the same action)."""
    tile = seen.top_discard()
    if tile is None:
        return None
    ctx = seen.ctx
    rack2 = seen.rack + [tile]
    if seen.opened == "no":
        melds = opening_melds(ctx, rack2, seen.view.get("threshold") or 17, must=tile)
        if melds is not None:
            return {"type": "open", "melds": write(ctx, melds)}
        pairs = pair_opening(ctx, rack2, 1, _pairs_threshold(seen), must=tile)
        if pairs is not None and level != "easy":
            return {"type": "open", "melds": write(ctx, pairs)}
        return None
    if level != "strong":
        return None
    if seen.opened == "pairs":
        if rack2.count(tile) >= 2 and len(rack2) >= 3 and ctx.rack_code(tile) != WILD:
            return {"type": "meld", "tiles": [tile, tile]}
        return None
    for m in partition(ctx, rack2, OBJ_TILES):
        if tile in laid_tiles(ctx, [m]) and len(rack2) - len(m) >= 1:
            return {"type": "meld", "tiles": write(ctx, [m])[0]}
    return None


def _play_phase(seen: Seen, level: str, rng) -> dict:
    ctx = seen.ctx
    rack = seen.rack
    me = seen.seat
    if len(rack) <= 1:
        return _discard(seen, rack[0] if rack else "")
    if seen.opened == "no":
        melds = opening_melds(ctx, rack, seen.view.get("threshold") or 17)
        if melds is not None:
            return {"seat": me, "type": "open", "melds": write(ctx, melds)}
        if level != "easy":
            pairs = pair_opening(ctx, rack, 1, _pairs_threshold(seen))
            if pairs is not None:
                return {"seat": me, "type": "open", "melds": write(ctx, pairs)}
        return _discard(seen, choose_discard(seen, level, rng))
    if seen.opened == "pairs":
        pairs = pair_opening(ctx, rack, 1)
        if pairs:
            return {"seat": me, "type": "meld", "tiles": write(ctx, pairs[:1])[0]}
    else:
        melds = keep_one(ctx, partition(ctx, rack, OBJ_TILES), len(rack))
        if melds:
            return {"seat": me, "type": "meld", "tiles": write(ctx, melds[:1])[0]}
        if level == "strong":
            pair = _pair_in_area(seen)
            if pair is not None:
                return pair
    if level == "strong":
        swap = _swap(seen)
        if swap is not None:
            return swap
    add = _add(seen, level)
    if add is not None:
        return add
    return _discard(seen, choose_discard(seen, level, rng))


def _pair_in_area(seen: Seen) -> dict | None:
    """D-12: lay an identical pair in an opponent pairs player's area (they pay number × 20)."""
    targets = [s for s, o in enumerate(seen.view.get("opened") or []) if o == "pairs" and s != seen.seat]
    if not targets or len(seen.rack) < 3:
        return None
    for t in sorted(dict.fromkeys(seen.rack), key=lambda t: -value_of(seen, t)):
        if seen.rack.count(t) >= 2 and seen.ctx.rack_code(t) != WILD:
            return {"seat": seen.seat, "type": "meld", "tiles": [t, t], "owner": targets[0]}
    return None


def _grown_this_turn(seen: Seen) -> set:
    ts = seen.view.get("turn_state") or {}
    return {(g[0], g[1]) for g in ts.get("grown") or []}


def _add(seen: Seen, level: str) -> dict | None:
    """An add that respects one-tile-per-end and leaves the turn able to end
    (RULES.md §4).  Real tiles first (highest first); a joker only when the turn
    could not end otherwise.  ``easy`` adds to its own melds unless it is stuck."""
    if len(seen.rack) < 2:
        return None
    grown = _grown_this_turn(seen)
    melds = list(seen.melds)
    ids = [raw["id"] for raw in seen.table]
    stuck = not _finishable(seen, seen.rack, melds, ids, grown, 0)
    for own_only in ((True, False) if level == "easy" else (False,)):
        for t, i, end, written in _adds(seen, seen.rack, melds, ids, grown, jokers=stuck):
            if own_only and not stuck and melds[i].owner != seen.seat:
                continue
            rest = list(seen.rack)
            rest.remove(t)
            new = list(melds)
            new[i] = _grow(melds[i], seen.ctx.rack_code(written.partition("=")[2] or t)
                           if "=" in written else seen.ctx.rack_code(t), end)
            if _finishable(seen, rest, new, ids, grown | {(ids[i], end)}, 2):
                return {"seat": seen.seat, "type": "add", "meld": ids[i], "tile": written}
        if not stuck:
            break
    if stuck:
        # no discard is allowed now: any add shrinks the rack towards the exempt last tile
        for _tile, i, _end, written in _adds(seen, seen.rack, melds, ids, grown, jokers=True):
            return {"seat": seen.seat, "type": "add", "meld": ids[i], "tile": written}
    return None


def _adds(seen: Seen, rack, melds, ids, grown, jokers: bool):
    """Possible adds ``(rack tile, meld index, end, written tile)``: real tiles by
    value, then (when ``jokers``) a joker at any open end."""
    ctx = seen.ctx
    out = []
    for t in sorted(dict.fromkeys(rack), key=lambda t: -value_of(seen, t)):
        code = ctx.rack_code(t)
        if code == WILD:
            continue
        for i, m in enumerate(melds):
            if m.kind == "pair":
                continue
            end = _end_for(ctx, m, code)
            if end is not None and (ids[i], end) not in grown:
                out.append((t, i, end, t))
    if jokers and ctx.wild in rack:
        for i, m in enumerate(melds):
            if m.kind == "pair":
                continue
            for f in fitting_faces(ctx, m):
                end = _end_for(ctx, m, f)
                if end is not None and (ids[i], end) not in grown:
                    out.append((ctx.wild, i, end, ctx.wild_str(f)))
    return out


def _finishable(seen: Seen, rack, melds, ids, grown, depth: int) -> bool:
    """True when the turn can end from here: one tile left (the exempt final
    discard), a tile that is neither a joker nor playable, or (up to ``depth``
    more adds) an add leading to such a state."""
    if len(rack) <= 1:
        return True
    fit = set()
    for m in melds:
        fit.update(fitting_faces(seen.ctx, m))
    for t in rack:
        c = seen.ctx.rack_code(t)
        if c != WILD and c not in fit:
            return True
    if depth <= 0:
        return False
    for t, i, end, written in _adds(seen, rack, melds, ids, grown, jokers=True):
        rest = list(rack)
        rest.remove(t)
        code = seen.ctx.rack_code(written.partition("=")[2]) if "=" in written else seen.ctx.rack_code(t)
        new = list(melds)
        new[i] = _grow(melds[i], code, end)
        if _finishable(seen, rest, new, ids, grown | {(ids[i], end)}, depth - 1):
            return True
    return False


def _end_for(ctx, m, code) -> str | None:
    """The end (``low``/``high``/``group``) where a tile of face ``code`` joins ``m``."""
    if m.kind == "run":
        for f, end in run_ends(ctx, m):
            if f == code:
                return "low" if end == "lo" else "high"
        return None
    if code in fitting_faces(ctx, m):
        return "group"
    return None


def _grow(m, code, end):
    if end == "low":
        return replace(m, lo=m.lo - 1, size=m.size + 1)
    if end == "high":
        return replace(m, hi=m.hi + 1, size=m.size + 1)
    return replace(m, colours=m.colours | {colour_of(code)}, size=m.size + 1)


def _swap(seen: Seen) -> dict | None:
    """Swap a real tile for a joker in an opponent's meld (owner pays represented × 10,
    RULES.md §4), not a joker laid this turn, from a group only with four tiles."""
    have = {}
    for t, c in zip(seen.rack, seen.codes):
        if c != WILD and t != "F":
            have.setdefault(c, t)
    fresh = {(j[0], j[1]) for j in (seen.view.get("turn_state") or {}).get("jokers") or []}
    for raw, m in zip(seen.table, seen.melds):
        if not m.wilds or m.owner == seen.seat or m.kind == "pair":
            continue
        if m.kind == "group" and m.size < 4:
            continue
        for rep in m.wilds:
            if rep in have and (raw["id"], face_str(rep)) not in fresh:
                return {"seat": seen.seat, "type": "swap", "meld": raw["id"], "tile": have[rep]}
    return None


def _discard(seen: Seen, tile: str) -> dict:
    return {"seat": seen.seat, "type": "discard", "tile": tile}


def choose_discard(seen: Seen, level: str, rng) -> str:
    """The rack tile to discard: never a joker nor a playable tile when another tile
    is allowed (RULES.md §4 refused discards); then the least useful tile."""
    rack = seen.rack
    if len(rack) == 1:
        return rack[0]
    allowed = [t for t in rack if seen.ctx.rack_code(t) != WILD and not seen.fits(seen.ctx.rack_code(t))]
    if not allowed:
        allowed = [t for t in rack if seen.ctx.rack_code(t) != WILD] or list(rack)
    if level == "easy" and rng.random() < 0.25:
        return rng.choice(sorted(allowed))
    objective = OBJ_POINTS if seen.opened == "no" else OBJ_TILES
    use = usefulness(seen, rack, objective)
    near = closeness(seen, rack)
    pot = near_value(seen, rack, objective) if level == "strong" else {}
    pairs_plan = level != "strong" or seen.opened == "pairs" or len(pairs_of(seen.ctx, rack)) >= PAIRS_PLAN
    best = None
    for t in sorted(set(allowed)):
        code = seen.ctx.rack_code(t)
        cost = use.get(t, 0) * 3 + near.get(t, 0) * 25 + pot.get(t, 0)
        if rack.count(t) >= 2 and pairs_plan:
            cost += 150
        if seen.opened == "no":
            cost += number_of(code) * 3
        if level == "strong":
            cost += _feed_risk(seen, code)
        key = (cost, t)
        if best is None or key < best:
            best = key
    return best[1]
