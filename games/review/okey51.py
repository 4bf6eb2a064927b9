"""The okey51 judge: one turn of one seat, from what that seat could know (RULES.md §3).

A turn is draw or take, table actions, discard.  It is judged on four questions, each
answered from the seat's own views (``games.review.knowledge``):

- **opening** (the seat had not opened): could it open this turn, at the threshold with
  runs and groups or with five pairs, after its draw, or by taking the previous seat's
  discard into the opening (D-18)?  The bots' exact partition search answers.  Not
  opening costs the 500 an unopened rack pays at a hand end against what the rack would
  pay opened (5 × the values left, 10 × for pairs);
- **finish**: could it lay all but one tile and go out?  Not doing so costs the
  finisher's 500 (1000 for a pairs player, RULES.md §3 table);
- **discard**: not an exact question, so the strong computer's choice is the best tile;
  the tile played and that one are weighed in points by the penalty tile rule (100,
  RULES.md §3), by what each hands the next seat (value × 10 to the discarder: for sure
  when it fits a table meld and that seat has opened with melds, else by the chance that
  its rack, sampled from the unseen tiles, lays it in a new meld), and by what the rack
  left can still reach after a draw sampled from the unseen tiles: opened, the values of
  the tiles no meld of the rack nor of the table takes (× 5, or × 10 for pairs);
  unopened, the chance to open (:data:`SAMPLES` samples, seeded);
- **charges** (a seat opened with melds): a take of the previous seat's discard into a
  new meld or an add (the discarder pays value × 10, D-18) passed up by drawing, or a
  swap of a wild out of an opponent's meld (100 + value × 10) not made; each counts its
  charge shared over the opponents, since the standing is against each of them;
- the cost of the turn is the sum of what each question's answer gave away.
"""
from __future__ import annotations

from collections import Counter

from games.bots.faces import WILD, number_of
from games.bots.okey_plan import laid_tiles, opening_melds, pair_opening, partition, remove, write
from games.bots.partition import OBJ_POINTS, OBJ_TILES, counts_of, meld_points, pairs_of, search
from games.bots.seen import Seen, decode
from games.engine import api

from .knowledge import sample_draws

UNOPENED = 500
"""What an unopened rack pays at a hand end (RULES.md §3 table)."""
FINISH = {"melds": 500, "pairs": 1000}
"""The finisher's amount by opening kind (RULES.md §3 table), the gain of going out."""
PENALTY_TILE = 100
"""A discard that could be added to a table meld (RULES.md §3 penalty tile)."""
PAIRS_TO_OPEN = 5
SAMPLES = 8
"""Draws sampled from the unseen tiles to weigh an unopened seat's discards."""
NEXT_DRAW_WEIGHT = 250
"""Points an opening on the next draw is worth to an unopened seat: half the
:data:`UNOPENED` 500, since the opened rack still pays its values and the seat has
later draws to open with."""


def _value(seen: Seen, tile: str) -> int:
    code = seen.ctx.rack_code(tile)
    return 0 if code == WILD else number_of(code)


def threshold(view: dict) -> int:
    """The meld points an opening of this seat needs now (RULES.md §3, D-21)."""
    return view.get("threshold") or api.ruleset(view["ruleset"]).threshold(view)


def leftover(seen: Seen, rack: list[str], opened: str) -> list[str]:
    """The rack tiles no meld can take: those outside the best partition of ``rack``
    (most tiles, then points) and, for a seat opened with melds, that fit no table meld.
    A pairs player keeps the tiles outside its pairs (RULES.md §3, D-7)."""
    ctx = seen.ctx
    if opened == "pairs":
        return remove(rack, laid_tiles(ctx, pairs_of(ctx, rack)))
    left = remove(rack, laid_tiles(ctx, partition(ctx, rack, OBJ_TILES)))
    return [t for t in left if not seen.fits(ctx.rack_code(t))]


def rack_liability(seen: Seen, rack: list[str], opened: str) -> int:
    """What ``rack`` would pay if the round ended by a hand now, after the seat laid what
    it can (RULES.md §3 table): unopened 500; opened with melds 5 × the values left
    (a wild left out: 500 flat); with pairs 10 × (a wild: 1000)."""
    if opened == "no":
        return UNOPENED
    factor, wild = (10, 1000) if opened == "pairs" else (5, 500)
    return sum(wild if seen.ctx.rack_code(t) == WILD else factor * _value(seen, t)
               for t in leftover(seen, rack, opened))


def best_opening(seen: Seen, rack: list[str], must: str | None = None):
    """The opening the seat can lay from ``rack`` now: ``(kind, melds as slot tuples)``
    with kind ``melds`` (runs and groups at the threshold) or ``pairs`` (five pairs or
    more), keeping one tile to discard; the one leaving the rack that pays least; None
    when there is none.  ``must``: a taken discard the opening has to hold (D-18)."""
    found = []
    melds = opening_melds(seen.ctx, rack, threshold(seen.view), must=must)
    if melds is not None:
        found.append(("melds", melds))
    pairs = pair_opening(seen.ctx, rack, PAIRS_TO_OPEN, must=must)
    if pairs is not None:
        found.append(("pairs", pairs))
    if not found:
        return None
    return min(found, key=lambda kf: _after_opening(seen, rack, *kf))


def _after_opening(seen: Seen, rack: list[str], kind: str, melds) -> int:
    """What the rack pays once opened with ``melds`` and its best discard made."""
    rest = remove(rack, laid_tiles(seen.ctx, melds))
    return round(min(_discard_score(seen, rest, d, kind, None)[0] for d in set(rest))) if rest else 0


def opening_cost(seen: Seen, rack: list[str], kind: str, melds) -> int:
    """Points an unopened rack gives away by not laying this opening: the 500 it pays
    against what it pays opened, at least 0."""
    return max(0, UNOPENED - _after_opening(seen, rack, kind, melds))


def can_finish(seen: Seen, rack: list[str], opened: str):
    """The melds going out with this turn's rack: every tile but one laid (in the best
    partition or added to a table meld once opened, D-8), the last one discarded
    (RULES.md §3 ending).  Returns ``(kind, melds as slot tuples, last tile)`` or None."""
    ctx = seen.ctx
    if opened == "pairs":
        pairs = pairs_of(ctx, rack)
        left = remove(rack, laid_tiles(ctx, pairs))
        return ("pairs", pairs, left[0]) if len(left) == 1 else None
    melds = partition(ctx, rack, OBJ_TILES)
    left = remove(rack, laid_tiles(ctx, melds))
    if opened == "no":
        pairs = pairs_of(ctx, rack)
        if len(pairs) >= PAIRS_TO_OPEN and len(remove(rack, laid_tiles(ctx, pairs))) == 1:
            return ("pairs", pairs, remove(rack, laid_tiles(ctx, pairs))[0])
        if sum(meld_points(ctx.ruleset, m) for m in melds) < threshold(seen.view):
            return None
    # once opened (in this turn too, D-8) the tiles that fit a table meld are added;
    # one of them may stay to be the last discard (the round-ending discard is exempt)
    fitting = [t for t in left if seen.fits(ctx.rack_code(t))]
    left = [t for t in left if not seen.fits(ctx.rack_code(t))] or fitting[:1]
    if len(left) == 1:
        return ("melds", melds, left[0])
    if not left and any(len(m) >= 4 for m in melds):
        longest = max(melds, key=len)
        return ("melds", melds, laid_tiles(ctx, [longest])[-1])
    return None


def _next_seat_takes(seen: Seen, code: int) -> bool:
    """True when the next seat has opened with melds and ``code`` fits a table meld: it
    may take the discard into an add, and the discarder pays value × 10 (RULES.md §3)."""
    nxt = seen.next_seat()
    opened = seen.view.get("opened") or []
    return code != WILD and nxt < len(opened) and opened[nxt] == "melds" and code in seen.fit_faces


def _melds_with(ctx, code: int, codes: Counter, wilds: int) -> bool:
    """True when the face ``code`` and two tiles of ``codes`` (face counts; ``wilds`` wild
    tiles standing in) make a run or a group (RULES.md §2), as a new meld laid with a
    taken discard needs (D-18)."""
    colour, number = divmod(code, 13)
    number += 1
    top = 14 if ctx.ace_high else 13  # position 14: a 1 after 13 (12-13-1, okey51)
    for own in [number] + ([14] if ctx.ace_high and number == 1 else []):
        for a, b in ((own - 2, own - 1), (own - 1, own + 1), (own + 1, own + 2)):
            if a < 1 or b > top or (own == 1 and b == 14):
                continue
            have = sum(codes[colour * 13 + (p if p < 14 else 1) - 1] > 0 for p in (a, b))
            if have + min(wilds, 2 - have) >= 2:
                return True
    others = sum(codes[c * 13 + number - 1] > 0 for c in range(4) if c != colour)
    return others + min(wilds, 2) >= 2


def _take_chance(seen: Seen, code: int, racks) -> float:
    """Share of the next seat's racks sampled from the unseen tiles (``racks``: a list of
    (face counts, wilds)) with which it could take a discard of ``code`` into a new meld:
    only a seat opened with melds lays one (RULES.md §3, D-18); 0 otherwise."""
    nxt = seen.next_seat()
    opened = seen.view.get("opened") or []
    if code == WILD or not racks or nxt >= len(opened) or opened[nxt] != "melds":
        return 0.0
    return sum(_melds_with(seen.ctx, code, codes, wilds) for codes, wilds in racks) / len(racks)


def _next_racks(seen: Seen, rng) -> list:
    """The next seat's rack sampled :data:`SAMPLES` times from the unseen tiles, each as
    (Counter of face codes, wild count): the seat cannot see it, only its size."""
    from .knowledge import unseen_tiles

    counts = seen.view.get("rack_counts") or []
    size = counts[seen.next_seat()] if seen.next_seat() < len(counts) else 0
    pool = unseen_tiles(seen.view)
    out = []
    for _ in range(SAMPLES if size else 0):
        rack = rng.sample(pool, min(size, len(pool)))
        codes = [seen.ctx.rack_code(t) for t in rack]
        out.append((Counter(c for c in codes if c != WILD), codes.count(WILD)))
    return out


def _discard_score(seen: Seen, rack: list[str], tile: str, opened: str, draws, racks=None) -> tuple[float, list]:
    """(points, reasons) a discard of ``tile`` from ``rack`` leaves the seat facing: the
    penalty tile and the next seat's take into an add (exact) or, over the next seat's
    sampled ``racks``, into a new meld (its chance × value × 10), then what the rack left pays, after
    each of the sampled ``draws`` when there are some (their mean), else as it is."""
    code = seen.ctx.rack_code(tile)
    reasons = []
    points = 0.0
    if seen.fits(code):
        points += PENALTY_TILE
        reasons.append({"code": "penalty_tile", "tile": tile, "points": PENALTY_TILE})
    if _next_seat_takes(seen, code):
        fed = 10 * _value(seen, tile)
        points += fed
        reasons.append({"code": "feeds_next", "tile": tile, "points": fed})
    elif racks:
        risk = 10 * _value(seen, tile) * _take_chance(seen, code, racks)
        points += risk
        if risk >= 10:
            reasons.append({"code": "may_feed_next", "tile": tile, "points": round(risk)})
    rest = remove(rack, [tile])
    if opened == "no":
        points += NEXT_DRAW_WEIGHT * (1 - _open_chance(seen, rest, draws))
    elif draws:
        points += sum(rack_liability(seen, rest + [d], opened) for d in draws) / len(draws)
    else:
        points += rack_liability(seen, rest, opened)
    return points, reasons


def _opens(seen: Seen, rack: list[str]) -> bool:
    """True when ``rack`` holds an opening at the threshold (the most meld points of the
    exact partition search) or five pairs (RULES.md §3); one tile kept is not checked."""
    ctx = seen.ctx
    counts, wilds = counts_of(ctx, rack)
    _, melds = search(counts, wilds, ctx.ruleset, OBJ_POINTS, ctx.ace_high)
    if sum(meld_points(ctx.ruleset, m) for m in melds) >= threshold(seen.view):
        return True
    doubles = sum(k // 2 for k in counts)
    singles = sum(k % 2 for k in counts)
    with_wild = min(wilds, singles)
    return doubles + with_wild + (wilds - with_wild) // 2 >= PAIRS_TO_OPEN


def _open_chance(seen: Seen, rack: list[str], draws) -> float:
    """Share of the sampled ``draws`` after which ``rack`` plus the draw opens."""
    if not draws:
        return 0.0
    return sum(_opens(seen, rack + [d]) for d in draws) / len(draws)


def judge_discard(seen: Seen, tile: str, rng) -> dict:
    """The discard of ``tile`` against the strong computer's, from the view before the discard.

    Which tile to discard is not an exact question: the strong computer's evaluation
    (``games.bots.okey51.choose_discard``) names the best tile, and both tiles are weighed
    in points by :func:`_discard_score` over the same draws and next-seat racks sampled
    from the unseen tiles (:data:`SAMPLES`, seeded).  The tile played costs what it faces
    beyond the strong computer's tile, at least 0 (a tile facing less is as good).
    Returns ``{"cost", "best", "reasons"}``: points given away (>= 0), the best tile, and
    the reasons of the tile played (penalty tile, feeds the next seat, weaker rack)."""
    from games.bots.okey51 import choose_discard

    rack = seen.rack
    opened = seen.opened
    if opened == "no":
        # a wild is the best possible draw: when two of them open nothing, no draw does
        draws = sample_draws(seen.view, rng, SAMPLES) if _opens(seen, rack + [seen.ctx.wild] * 2) else []
    else:
        draws = sample_draws(seen.view, rng, SAMPLES)
    strong = choose_discard(seen, "strong", rng)
    racks = _next_racks(seen, rng)
    scores = {d: _discard_score(seen, rack, d, opened, draws, racks) for d in dict.fromkeys([tile, strong])}
    best = min(scores, key=lambda d: (scores[d][0], d != strong))
    played, reasons = scores[tile]
    cost = max(0, round(played - scores[best][0]))
    if cost and not reasons:
        reasons = [{"code": "weaker_rack" if opened != "no" else "weaker_opening", "tile": tile, "points": cost}]
    return {"cost": cost, "best": best, "reasons": reasons if cost else []}


def _opponents(seen: Seen) -> int:
    """How many seats the seat plays against (a partner is not one, RULES.md §3 teams)."""
    return max(1, seen.players - 1 - (seen.partner() is not None))


def missed_take(start: Seen, turn) -> dict | None:
    """A take of the previous seat's discard into a new meld or an add that a seat opened
    with melds passed up by drawing (RULES.md §3, D-18): the discarder would have paid
    value × 10.  Counted as that charge shared over the opponents (the standing is
    against each of them).  Returns a reason with the ``then`` action, or None."""
    from games.bots.okey51 import take_plan

    if start.opened != "melds" or start.view.get("phase") != "draw" or turn.first_type != "draw":
        return None
    then = take_plan(start, "strong")
    if then is None:
        return None
    tile = start.top_discard()
    points = round(10 * _value(start, tile) / _opponents(start))
    return {"code": "missed_take", "tile": tile, "points": points, "then": then} if points else None


def missed_swap(play: Seen, turn) -> dict | None:
    """A swap of a rack tile for a wild in an opponent's meld that a seat opened with melds
    had from the start of its play and did not make (RULES.md §3: the owner pays 100 +
    value × 10, and the wild comes to the rack).  Counted as that charge shared over the
    opponents.  Returns a reason with the meld id and tile, or None."""
    if play.opened != "melds" or any(a.get("type") == "swap" for a in turn.actions):
        return None
    have = {c: t for t, c in zip(play.rack, play.codes) if c != WILD}
    for raw, meld in zip(play.table, play.melds):
        if meld.kind == "pair" or not meld.wilds or play.friendly(meld.owner):
            continue
        for face in meld.wilds:
            if face in have:
                charge = 100 + 10 * number_of(face)
                return {"code": "missed_swap", "tile": have[face], "meld": raw["id"],
                        "points": round(charge / _opponents(play))}
    return None


def judge_turn(turn, rng) -> dict:
    """One okey51 turn of a seat (a :class:`games.review.turns.Turn`) against the best the
    seat could know: ``{"cost", "reasons" [{code, points, tile?}], "best" {open?, take?,
    melds, discard, finish?}}``; cost in RULES.md points (>= 0)."""
    start = decode(turn.start)
    play = decode(turn.play) if turn.play is not None else None
    reasons: list[dict] = []
    best: dict = {}
    cost = 0
    opened_before = start.opened
    opened_after = turn.end["opened"][turn.seat]
    took = turn.first_type == "take_discard"
    # Opening: after the draw, or by taking the previous seat's discard into it.
    if opened_before == "no" and play is not None:
        now = best_opening(play, play.rack)
        top = start.top_discard() if start.view.get("phase") == "draw" else None
        with_take = None
        if now is None and top is not None and not took:
            with_take = best_opening(start, start.rack + [top], must=top)
        if opened_after == "no" and (now or with_take):
            kind, melds = now or with_take
            source = play if now else start
            rack = play.rack if now else start.rack + [top]
            missed = opening_cost(source, rack, kind, melds)
            code = "missed_opening" if now else "missed_take_opening"
            reason = {"code": code, "points": missed, "kind": kind}
            if with_take and not now:
                reason["tile"] = top
            reasons.append(reason)
            cost += missed
            best.update({"open": kind, "melds": write(source.ctx, melds), "take": bool(with_take and not now)})
    # Charges the seat could have made its opponents pay: a take, a swap.
    for found in (missed_take(start, turn), missed_swap(play, turn) if play is not None else None):
        if found is not None:
            reasons.append(found)
            cost += found["points"]
            key = "take" if found["code"] == "missed_take" else "swap"
            best[key] = found.get("then") or {"meld": found["meld"], "tile": found["tile"]}
    # Finish: every tile but one laid, the last discarded.
    if play is not None and not turn.finished:
        out = can_finish(play, play.rack, opened_before)
        if out is not None:
            kind, melds, last = out
            gain = FINISH[kind if opened_before != "pairs" else "pairs"]
            reasons.append({"code": "missed_finish", "points": gain})
            cost += gain
            best.update({"finish": True, "melds": write(play.ctx, melds), "discard": last})
    # Discard: judged from the view just before it.
    if turn.discard is not None and not turn.finished and "finish" not in best:
        before = decode(turn.before_discard)
        judged = judge_discard(before, turn.discard, rng)
        cost += judged["cost"]
        reasons.extend(judged["reasons"])
        best.setdefault("discard", judged["best"])
        if "melds" not in best and before.opened != "no":
            best["melds"] = write(before.ctx, partition(before.ctx, before.rack, OBJ_TILES))
    return {"cost": cost, "reasons": reasons, "best": best}

