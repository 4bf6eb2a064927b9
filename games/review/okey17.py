"""The okey17 judge: one turn of one seat, from what that seat could know (RULES.md §4).

Same turn as okey51 (draw or take, table actions, discard) and the same shape of judge
(``games.review.okey51``), with okey17's rules and points:

- **opening** (the seat had not opened): could it open this turn, with melds at the
  meld threshold (17, then above the highest meld opening) or with pairs at the pairs
  threshold (⌈1.5 × the meld threshold⌉ pair points, D-11), after its draw or by taking
  the previous seat's discard into the opening?  The bots' exact partition search
  answers.  Not opening costs the base an unopened rack pays at a hand end (400/500/
  600/800 by the okey's colour) against what the rack pays opened: 10 per tile it
  cannot lay (20 for a pairs player);
- **finish**: could it lay all but one tile and go out, as an opened seat or by a
  direct finish (D-13)?  Not doing so costs the finisher's base ÷ 10 (× 2 for a pairs
  player) and what the seat's rack pays when another seat goes out instead: 10 per tile
  kept (20 with pairs), the base when it had not opened;
- **refused discards**: a playable tile (100, 200 for a pairs player, D-17) or a joker
  (the base, × 2 for a pairs player) offered as a discard is refused and its penalty
  stays (RULES.md §4); every refused discard of the turn costs its penalty.  When no
  rack tile was a legal discard (D-27) the accepted penalised discard is not counted:
  there was no other;
- **discard**: not an exact question, so the strong computer's choice
  (``games.bots.okey17.choose_discard``) is the best tile; the tile played and that
  one are weighed by what the rack left can still reach after a draw sampled from the
  unseen tiles: opened, 10 per tile no meld of the rack nor of the table takes (20 with
  pairs); unopened, half the base times the chance not to open on the next draw.  A
  taken discard costs its discarder nothing in okey17, so feeding the next seat is not
  charged;
- **take and swap passed up** (an opened seat): a take of the previous seat's discard
  into a new meld leaves the rack one tile lighter than the draw did (10 points, 20
  with pairs); a swap of a joker out of an opponent's meld charges its owner the
  represented number × 10 (× 2 for each pairs player of the two), shared over the
  opponents.

The one-tile-per-end rule (RULES.md §4) is not modelled in what a rack "can lay"
later: over later turns every end grows again.
"""
from __future__ import annotations

from games.bots.faces import WILD, face_str, number_of
from games.bots.okey_plan import laid_tiles, opening_melds, pair_opening, partition, remove, write
from games.bots.partition import OBJ_POINTS, OBJ_TILES, counts_of, meld_points, pairs_of, search
from games.bots.seen import Seen, decode
from games.engine.rulesets.okey17 import BASE_THRESHOLD, JOKER_FACTOR, PLAYABLE_DISCARD, base_of

from .knowledge import sample_draws

PER_TILE = 10
"""What an opened opponent pays per tile left at a hand end (RULES.md §4, × 2 with pairs)."""
SAMPLES = 8
"""Draws sampled from the unseen tiles to weigh a discard."""


def base(view: dict) -> int:
    """The round's base in points (400/500/600/800 by the okey's colour, RULES.md §4)."""
    return base_of(view["indicator"])


def _factor(opened: str) -> int:
    """× 2 on a pairs player's amounts (RULES.md §4 ending and penalties)."""
    return 2 if opened == "pairs" else 1


def threshold(view: dict) -> int:
    """Meld points a meld opening needs now: 17, then the highest meld opening + 1."""
    return view.get("threshold") or BASE_THRESHOLD


def pairs_threshold(view: dict) -> int:
    """Pair points a pairs opening needs now: ⌈1.5 × the meld threshold⌉ (D-11)."""
    return view.get("pairs_threshold") or (3 * threshold(view) + 1) // 2


def leftover(seen: Seen, rack: list[str], opened: str) -> list[str]:
    """The rack tiles no meld can take: outside the best partition of ``rack`` (pairs for
    a pairs player, who may also add single tiles to the table's melds, D-19) and that
    fit no table meld."""
    ctx = seen.ctx
    melds = pairs_of(ctx, rack) if opened == "pairs" else partition(ctx, rack, OBJ_TILES)
    left = remove(rack, laid_tiles(ctx, melds))
    return [t for t in left if not seen.fits(ctx.rack_code(t))]


def rack_liability(seen: Seen, rack: list[str], opened: str) -> int:
    """What ``rack`` pays if another seat went out now, after the seat laid what it can
    (RULES.md §4 ending): unopened the base; opened 10 per tile left (20 with pairs)."""
    if opened == "no":
        return base(seen.view)
    return PER_TILE * _factor(opened) * len(leftover(seen, rack, opened))


def best_opening(seen: Seen, rack: list[str], must: str | None = None):
    """The opening the seat can lay from ``rack`` now, keeping one tile to discard:
    ``(kind, melds as slot tuples)`` with kind ``melds`` (meld threshold) or ``pairs``
    (pairs threshold, D-11), the one whose rack pays least afterwards; None when there is
    none.  ``must``: a taken discard the opening has to hold (RULES.md §4 taken discard)."""
    found = []
    melds = opening_melds(seen.ctx, rack, threshold(seen.view), must=must)
    if melds is not None:
        found.append(("melds", melds))
    pairs = pair_opening(seen.ctx, rack, 1, pairs_threshold(seen.view), must=must)
    if pairs is not None:
        found.append(("pairs", pairs))
    if not found:
        return None
    return min(found, key=lambda kf: after_opening(seen, rack, *kf))


def after_opening(seen: Seen, rack: list[str], kind: str, melds) -> int:
    """What the rack pays once opened with ``melds``, its other melds laid and one tile
    discarded: 10 per tile left (20 with pairs)."""
    rest = remove(rack, laid_tiles(seen.ctx, melds))
    return PER_TILE * _factor(kind) * max(0, len(leftover(seen, rest, kind)) - 1)


def opening_cost(seen: Seen, rack: list[str], kind: str, melds) -> int:
    """Points an unopened rack gives away by not laying this opening: the base it pays
    against what it pays opened, at least 0."""
    return max(0, base(seen.view) - after_opening(seen, rack, kind, melds))


def can_finish(seen: Seen, rack: list[str], opened: str):
    """The melds going out with this turn's rack: every tile but one laid (in melds or
    pairs, or added to a table meld once opened, D-8), the last one discarded.  An
    unopened seat must reach a threshold with what it lays (a direct finish, D-13).
    Returns ``(kind, melds as slot tuples, last tile)`` or None."""
    ctx = seen.ctx
    options = []
    if opened in ("no", "pairs"):
        options.append(("pairs", pairs_of(ctx, rack)))
    if opened in ("no", "melds"):
        options.append(("melds", partition(ctx, rack, OBJ_TILES)))
    for kind, melds in options:
        if not melds and opened == "no":
            continue  # an opened seat may go out by adds alone
        if opened == "no":
            points = sum(meld_points(ctx.ruleset, m) for m in melds)
            if points < (pairs_threshold(seen.view) if kind == "pairs" else threshold(seen.view)):
                continue
        # one tile per end per turn (RULES.md §4): a second copy of a face that fits stays
        fitting, kept, faces = [], [], set()
        for t in remove(rack, laid_tiles(ctx, melds)):
            code = ctx.rack_code(t)
            if seen.fits(code) and code not in faces:
                faces.add(code)
                fitting.append(t)
            else:
                kept.append(t)
        left = kept or fitting[:1]
        if len(left) == 1:
            return (kind, melds, left[0])
        if not left and kind == "melds" and any(len(m) >= 4 for m in melds):
            longest = max(melds, key=len)
            return (kind, melds, laid_tiles(ctx, [longest])[-1])
    return None


def _opens(seen: Seen, rack: list[str]) -> bool:
    """True when ``rack`` holds a meld opening at the threshold (the most meld points of
    the exact search) or pairs at the pairs threshold (D-11)."""
    ctx = seen.ctx
    counts, wilds = counts_of(ctx, rack)
    _, melds = search(counts, wilds, ctx.ruleset, OBJ_POINTS, ctx.ace_high)
    if sum(meld_points(ctx.ruleset, m) for m in melds) >= threshold(seen.view):
        return True
    return sum(meld_points(ctx.ruleset, p) for p in pairs_of(ctx, rack)) >= pairs_threshold(seen.view)


def penalised(seen: Seen, tile: str) -> int:
    """The penalty of offering ``tile`` as a discard now, not as the round-ending discard
    (RULES.md §4): a joker the base, a tile that fits a table meld 100; × 2 for a pairs
    player; 0 for a legal discard."""
    code = seen.ctx.rack_code(tile)
    if code == WILD:
        return base(seen.view) * _factor(seen.opened)
    if seen.fits(code):
        return PLAYABLE_DISCARD * _factor(seen.opened)
    return 0


def _discard_score(seen: Seen, rack: list[str], tile: str, draws) -> float:
    """Points a discard of ``tile`` from ``rack`` leaves the seat facing: what the rest
    pays after each sampled draw (their mean; as it is without draws)."""
    rest = remove(rack, [tile])
    if seen.opened == "no":
        if not draws:
            return base(seen.view) / 2
        return base(seen.view) / 2 * (1 - sum(_opens(seen, rest + [d]) for d in draws) / len(draws))
    if not draws:
        return rack_liability(seen, rest, seen.opened)
    return sum(rack_liability(seen, rest + [d], seen.opened) for d in draws) / len(draws)


def judge_discard(seen: Seen, tile: str, rng) -> dict:
    """The accepted discard of ``tile`` against the strong computer's, from the view
    before it: both weighed by :func:`_discard_score` over the same :data:`SAMPLES`
    draws sampled from the unseen tiles.  Returns ``{"cost" (points >= 0), "best" (the
    better tile), "reasons"}``."""
    from games.bots.okey17 import choose_discard

    rack = seen.rack
    if seen.opened == "no" and not _opens(seen, rack + [seen.ctx.wild] * 2):
        draws = []  # two jokers open nothing: no single draw opens, every discard faces the same
    else:
        draws = sample_draws(seen.view, rng, SAMPLES)
    strong = choose_discard(seen, "strong", rng)
    legal = [t for t in dict.fromkeys([tile, strong]) if not penalised(seen, t)] or [strong]
    scores = {d: _discard_score(seen, rack, d, draws) for d in dict.fromkeys([tile, strong])}
    best = min(legal, key=lambda d: (scores[d], d != strong))
    cost = max(0, round(scores[tile] - scores[best]))
    code = "weaker_rack_17" if seen.opened != "no" else "weaker_opening_17"
    return {"cost": cost, "best": best, "reasons": [{"code": code, "tile": tile, "points": cost}] if cost else []}


def refused_discards(turn) -> list[dict]:
    """The turn's refused discards with their penalty (RULES.md §4, D-17): every discard
    that did not end the turn.  Each ``{"code" playable_discard/joker_discard, "tile",
    "points"}``."""
    out = []
    position = None
    for index, action in enumerate(turn.actions):
        if action.get("type") != "discard" or index == len(turn.actions) - 1:
            continue
        position = position or decode(turn.play or turn.start)
        tile = action.get("tile")
        joker = position.ctx.rack_code(tile) == WILD
        points = (base(position.view) if joker else PLAYABLE_DISCARD) * _factor(position.opened)
        out.append({"code": "joker_discard" if joker else "playable_discard", "tile": tile, "points": points})
    return out


def _opponents(seen: Seen) -> int:
    return max(1, seen.players - 1)


def missed_take(start: Seen, turn) -> dict | None:
    """A take of the previous seat's discard into a new meld that an opened seat passed
    up by drawing (RULES.md §4): the drawn tile stays, the taken one would have been laid,
    so the rack keeps one tile more (10 points, 20 with pairs)."""
    from games.bots.okey17 import take_plan

    if start.opened == "no" or start.view.get("phase") != "draw" or turn.first_type != "draw":
        return None
    then = take_plan(start, "strong")
    if then is None:
        return None
    return {"code": "missed_take_17", "tile": start.top_discard(), "points": PER_TILE * _factor(start.opened),
            "then": then}


def missed_swap(play: Seen, turn) -> dict | None:
    """A swap of a rack tile for a joker in an opponent's meld that an opened seat could
    make from the start of its play and did not (RULES.md §4, D-26: not from a group of
    fewer than four tiles or with another wild): the owner pays the represented number
    × 10, × 2 for each pairs player of the two; shared over the opponents."""
    if play.opened == "no" or any(a.get("type") == "swap" for a in turn.actions):
        return None
    have = {c: t for t, c in zip(play.rack, play.codes) if c != WILD and t != "F"}
    opened = play.view.get("opened") or []
    for raw, meld in zip(play.table, play.melds):
        if meld.kind == "pair" or not meld.wilds or meld.owner == play.seat:
            continue
        if meld.kind == "group" and (meld.size < 4 or len(meld.wilds) > 1):
            continue
        for face in meld.wilds:
            if face in have:
                owner = meld.owner if meld.owner is not None and meld.owner < len(opened) else None
                factor = _factor(play.opened) * (_factor(opened[owner]) if owner is not None else 1)
                charge = JOKER_FACTOR * number_of(face) * factor
                return {"code": "missed_swap_17", "tile": have[face], "meld": raw["id"], "face": face_str(face),
                        "points": round(charge / _opponents(play))}
    return None


def judge_turn(turn, rng) -> dict:
    """One okey17 turn of a seat (a :class:`games.review.turns.Turn`) against the best the
    seat could know: ``{"cost", "reasons" [{code, points, tile?}], "best" {open?, take?,
    swap?, melds, discard, finish?}}``; cost in RULES.md §4 points (>= 0)."""
    start = decode(turn.start)
    play = decode(turn.play) if turn.play is not None else None
    reasons: list[dict] = []
    best: dict = {}
    cost = 0
    opened_before = start.opened
    opened_after = turn.end["opened"][turn.seat]
    took = turn.first_type == "take_discard"
    the_base = base(turn.start)
    finish = None
    if play is not None and not turn.finished:
        finish = can_finish(play, play.rack, opened_before)
    # Finish: every tile but one laid, the last discarded (a direct finish when unopened).
    if finish is not None:
        kind, melds, last = finish
        kept = the_base if opened_before == "no" else PER_TILE * _factor(opened_before) * len(turn.end["rack"])
        gain = the_base // 10 * _factor(kind if opened_before == "no" else opened_before) + kept
        reasons.append({"code": "missed_finish_17", "points": gain, "base": the_base,
                        "direct": opened_before == "no"})
        cost += gain
        best.update({"finish": True, "melds": write(play.ctx, melds), "discard": last})
        if opened_before == "no":
            best["open"] = kind
    # Opening: after the draw, or by taking the previous seat's discard into it.
    elif opened_before == "no" and play is not None and opened_after == "no":
        now = best_opening(play, play.rack)
        top = start.top_discard() if start.view.get("phase") == "draw" else None
        with_take = None
        if now is None and top is not None and not took:
            with_take = best_opening(start, start.rack + [top], must=top)
        if now or with_take:
            kind, melds = now or with_take
            source = play if now else start
            rack = play.rack if now else start.rack + [top]
            missed = opening_cost(source, rack, kind, melds)
            reason = {"code": "missed_opening_17" if now else "missed_take_opening_17", "points": missed,
                      "kind": kind, "base": the_base}
            if not now:
                reason["tile"] = top
            reasons.append(reason)
            cost += missed
            best.update({"open": kind, "melds": write(source.ctx, melds), "take": not now})
    # What the seat could have gained from the table: a take, a swap.
    for found in (missed_take(start, turn), missed_swap(play, turn) if play is not None else None):
        if found is not None and found["points"]:
            reasons.append(found)
            cost += found["points"]
            key = "take" if found["code"] == "missed_take_17" else "swap"
            best[key] = found.get("then") or {"meld": found["meld"], "tile": found["tile"]}
    # Refused discards: their penalties stay (D-17).
    for refused in refused_discards(turn):
        reasons.append(refused)
        cost += refused["points"]
    # The accepted discard, judged from the view just before it.
    if turn.discard is not None and not turn.finished and "finish" not in best:
        before = decode(turn.before_discard)
        if penalised(before, turn.discard) and all(penalised(before, t) for t in before.rack):
            pass  # D-27: no legal discard was left, the penalty could not be avoided here
        else:
            judged = judge_discard(before, turn.discard, rng)
            cost += judged["cost"]
            reasons.extend(judged["reasons"])
            best.setdefault("discard", judged["best"])
            if "melds" not in best and before.opened == "melds":
                best["melds"] = write(before.ctx, partition(before.ctx, before.rack, OBJ_TILES))
    return {"cost": cost, "reasons": reasons, "best": best}
