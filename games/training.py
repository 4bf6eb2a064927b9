""""Find the better move": puzzles made from a player's own reviewed mistakes (docs/review.md).

A puzzle is one judged turn of a stored review whose decision can be tried again on the
rack: okey51 and okey17 discards (which tile?), missed openings (which tiles open?),
missed finishes (which tiles go out?), takes passed up (take the discard, with which
tiles?) and swaps passed up (which tile takes the okey?), rami plays and missed wins
(which rack tiles go to the table?).  The position is rebuilt from the round's move log
as the seat saw it (`games.review.turns`: its own view only), and an answer is judged by
the review's own judges (`games.review.okey51`, `games.review.okey17` with the review's
seed, the exact rami solver), so the points it costs are the review's points.  Which
puzzles a player solved is stored (`SolvedPuzzle`), so it outlives the session.
"""
import importlib
from collections import Counter

from games.bots.faces import WILD
from games.bots.okey_plan import laid_tiles, remove
from games.bots.rami import CTX, THRESHOLD
from games.bots.seen import decode
from games.engine import api
from games.models import RoundReview, SolvedPuzzle
from games.records import stored_moves
from games.review.knowledge import sampler
from games.review.turns import seat_turns

PUZZLE_MARKS = ("mistake", "blunder")
TABLE_MARKS = ("inaccuracy", "mistake", "blunder")
"""Takes and swaps passed up are puzzles from an inaccuracy on: their charges are small by
rule (a discard's value × 10, 100 + value × 10, shared over the opponents)."""
DISCARD_REASONS = {"penalty_tile", "feeds_next", "may_feed_next", "weaker_rack", "weaker_opening",
                   "weaker_rack_17", "weaker_opening_17", "playable_discard", "joker_discard"}
OPEN_REASONS = {"missed_opening", "missed_opening_17"}
FINISH_REASONS = {"missed_finish", "missed_finish_17"}
TAKE_REASONS = {"missed_take", "missed_take_opening", "missed_take_17", "missed_take_opening_17"}
SWAP_REASONS = {"missed_swap", "missed_swap_17"}
LAY_REASONS = {"fewer_tiles", "drew_instead", "missed_initial_meld", "smaller_play", "missed_finish"}
JUDGES = {"okey51": "games.review.okey51", "okey17": "games.review.okey17"}
"""The okey judge of each ruleset whose okey turns become puzzles."""
REVIEWS_LOOKED_AT = 100
"""The player's latest reviews puzzles are taken from."""
INVALID = {"valid": False, "solved": False, "cost": None, "reasons": []}


def _judge(ruleset):
    return importlib.import_module(JUDGES[ruleset])


def _kind(ruleset, turn):
    """What a puzzle of this judged turn asks: `finish`, `open`, `take`, `swap`,
    `discard` (okey), `lay` (rami), or None."""
    mark = turn.get("mark")
    codes = {r.get("code") for r in turn.get("reasons", [])}
    best = turn.get("best") or {}
    if ruleset == "rami":
        return "lay" if mark in PUZZLE_MARKS and codes & LAY_REASONS and best.get("placed") else None
    if ruleset not in JUDGES or mark not in TABLE_MARKS:
        return None
    serious = mark in PUZZLE_MARKS
    if serious and codes & FINISH_REASONS and best.get("finish") and best.get("melds"):
        return "finish"
    if serious and codes & OPEN_REASONS and best.get("open") and best.get("melds"):
        return "open"
    if codes & TAKE_REASONS and best.get("take"):
        return "take"
    if codes & SWAP_REASONS and best.get("swap"):
        return "swap"
    if serious and codes & DISCARD_REASONS and best.get("discard"):
        return "discard"
    return None


def puzzle_ids(user):
    """The ids ("<review id>-<turn number>") of `user`'s puzzles, newest round first."""
    rows = (RoundReview.objects.filter(user=user).order_by("-round__finished", "-pk")
            .values_list("pk", "ruleset", "turns")[:REVIEWS_LOOKED_AT])
    return [f"{pk}-{turn['number']}" for pk, ruleset, turns in rows for turn in turns if _kind(ruleset, turn)]


def parse_id(puzzle_id, user):
    """(RoundReview, turn dict) of a puzzle id of `user`'s, or None (malformed, not
    theirs, or no puzzle)."""
    try:
        pk, number = (int(part) for part in str(puzzle_id).split("-"))
    except ValueError:
        return None
    row = RoundReview.objects.filter(pk=pk, user=user).select_related("round__match__table").first()
    turn = next((t for t in row.turns if t["number"] == number), None) if row else None
    if turn is None or not _kind(row.ruleset, turn):
        return None
    return row, turn


def kind_of(row, turn):
    """What the puzzle of `turn` asks: `discard`, `open`, `finish`, `take`, `swap` or `lay`
    (None: no puzzle)."""
    return _kind(row.ruleset, turn)


def solved_ids(user):
    """The ids of the puzzles `user` solved (a set of "<review id>-<turn number>")."""
    return {f"{review}-{turn}" for review, turn in
            SolvedPuzzle.objects.filter(user=user).values_list("review_id", "turn")}


def mark_solved(user, row, turn):
    """Store that `user` solved the puzzle of `turn` (a dict) of review `row`; solving it
    again changes nothing."""
    SolvedPuzzle.objects.get_or_create(user=user, review=row, turn=turn["number"])


def position(row, turn, kind=None):
    """The view the seat decided from (`api.view` of the seat: its rack, the table, the
    discards, never another rack): an okey discard before it; an okey opening, finish or
    swap after the turn's draw; a take at the turn's start, before the draw; a rami play at
    the turn's start. `kind`: the puzzle's kind (default: the turn's, `kind_of`); None when
    the turn has no such view (an okey turn without a discard)."""
    actions = [move["action"] for move in stored_moves(row.round)]
    judged = seat_turns(row.round.initial_position, actions, row.seat)[turn["number"] - 1]
    kind = kind or kind_of(row, turn)
    return {"discard": judged.before_discard, "open": judged.play, "finish": judged.play,
            "swap": judged.play}.get(kind, judged.start)


def _reason_points(turn, codes):
    """The points of the turn's reasons of these codes (what passing the move up cost)."""
    return sum(r.get("points", 0) for r in turn.get("reasons", []) if r.get("code") in codes)


def check(row, turn, view, answer, taken=None):
    """Judge `answer` (a list of rack tiles: one discard or swapped tile, the tiles of an
    opening, a finish or a take, the tiles to lay for rami) on the puzzle's `view`;
    `taken`: for a take puzzle, the previous seat's discard when the player takes it
    (None: they draw).

    Returns {"valid" (bool: the answer can be played), "solved" (it gives nothing away
    against the best), "cost" (points it gives away), "reasons" (review reasons of the
    answer), "best" (the better tiles)}.  An answer of tiles not in the rack is not valid."""
    rack = list(view["rack"])
    kind = kind_of(row, turn)
    if Counter(answer) - Counter(rack) or (not answer and kind != "take"):
        return dict(INVALID, best=_best_tiles(turn, kind))
    if kind == "open":
        return _check_open(row.ruleset, view, turn, answer)
    if kind == "finish":
        return _check_finish(row.ruleset, view, turn, answer)
    if kind == "take":
        return _check_take(row.ruleset, view, turn, answer, taken)
    if kind == "swap":
        return _check_swap(view, turn, answer)
    if kind == "discard":
        if len(answer) != 1:
            return dict(INVALID, best=[turn["best"]["discard"]])
        return _check_discard(row, turn, view, answer[0])
    return _check_lay(view, turn, answer)


def _best_tiles(turn, kind):
    """The better move's rack tiles, as the page draws them."""
    best = turn.get("best") or {}
    if kind in ("open", "finish"):
        return sorted(t.partition("=")[0] for meld in best.get("melds", []) for t in meld)
    if kind == "take":
        then = best.get("take") if isinstance(best.get("take"), dict) else {}
        tiles = [t for meld in then.get("melds", []) for t in meld] + list(then.get("tiles", [])) or \
            [t for meld in best.get("melds", []) for t in meld]
        return sorted(t.partition("=")[0] for t in tiles)
    if kind == "swap":
        return [best["swap"]["tile"]]
    if kind == "lay":
        return best.get("placed", [])
    return [best["discard"]] if best.get("discard") else []


def _check_discard(row, turn, view, tile):
    """An okey discard answer, judged as the review judged the turn; in okey17 a tile that
    is refused as a discard costs its penalty too (RULES.md §4, D-17) unless no rack tile
    was a legal discard (D-27)."""
    judge = _judge(row.ruleset)
    seen = decode(view)
    judged = judge.judge_discard(seen, tile, sampler(row.seed, row.seat, turn["number"]))
    cost, reasons = judged["cost"], list(judged["reasons"])
    if row.ruleset == "okey17":
        penalty = judge.penalised(seen, tile)
        if penalty and not all(judge.penalised(seen, t) for t in seen.rack):
            cost += penalty
            code = "joker_discard" if seen.ctx.rack_code(tile) == WILD else "playable_discard"
            reasons.insert(0, {"code": code, "tile": tile, "points": penalty})
    return {"valid": True, "solved": cost == 0, "cost": cost, "reasons": reasons, "best": [judged["best"]]}


def _lays(ruleset, view, tiles, opening):
    """How `tiles` (rack tiles, with a taken discard) go to the table: `(kind, melds)` with
    kind `melds` (runs and groups taking every tile, at the meld threshold when
    `opening`) or `pairs` (every tile in pairs: okey51 five or more, okey17 at the pairs
    threshold when `opening`, D-11; after the opening any pair), or None (RULES.md §3, §4)."""
    from games.bots.partition import OBJ_TILES, counts_of, meld_points, pairs_of, search

    seen = decode(view)
    ctx = seen.ctx
    judge = _judge(ruleset)
    counts, wilds = counts_of(ctx, list(tiles))
    melds = list(search(counts, wilds, ctx.ruleset, OBJ_TILES, ctx.ace_high)[1])
    if melds and len(laid_tiles(ctx, melds)) == len(tiles) and (
            not opening or sum(meld_points(ctx.ruleset, m) for m in melds) >= judge.threshold(view)):
        return "melds", melds
    pairs = pairs_of(ctx, list(tiles))
    if not pairs or remove(list(tiles), laid_tiles(ctx, pairs)):
        return None
    if ruleset == "okey51" and opening and len(pairs) < judge.PAIRS_TO_OPEN:
        return None
    if ruleset == "okey17" and opening and \
            sum(meld_points(ctx.ruleset, p) for p in pairs) < judge.pairs_threshold(view):
        return None
    return "pairs", pairs


def _check_open(ruleset, view, turn, answer):
    """An opening answer: the chosen tiles must all go into runs and groups reaching the
    threshold, or into pairs (okey51: five or more; okey17: at the pairs threshold), with
    a tile left to discard (RULES.md §3, §4); it costs what the rack pays opened this way
    beyond the solver's opening."""
    judge = _judge(ruleset)
    seen = decode(view)
    best_tiles = _best_tiles(turn, "open")
    if len(answer) >= len(view["rack"]):
        return dict(INVALID, best=best_tiles)  # a tile must stay to discard
    found = _lays(ruleset, view, answer, opening=True)
    if found is None:
        return dict(INVALID, best=best_tiles)
    rack = list(view["rack"])
    best = judge.best_opening(seen, rack)
    target = judge.opening_cost(seen, rack, *best) if best else 0
    cost = max(0, target - judge.opening_cost(seen, rack, *found))
    reasons = [{"code": "weaker_opening_lay", "points": cost}] if cost else []
    return {"valid": True, "solved": cost == 0, "cost": cost, "reasons": reasons, "best": best_tiles}


def _check_finish(ruleset, view, turn, answer):
    """A finish answer: the chosen tiles go to the table (as new melds or pairs, at the
    threshold for an unopened seat; once opened a tile may go to a table meld as an add)
    and exactly one rack tile is left, the last discard (RULES.md §3, §4 ending).  Tiles
    that can be laid but leave more than one cost the missed finish's points."""
    seen = decode(view)
    best_tiles = _best_tiles(turn, "finish")
    opened = seen.opened
    may_add = opened == "melds" or (opened == "pairs" and ruleset == "okey17")  # D-7, D-19
    adds = [t for t in answer if may_add and seen.fits(seen.ctx.rack_code(t))]
    own = list(answer)
    found = None
    for extra in range(len(adds) + 1):
        found = _lays(ruleset, view, own, opening=opened == "no") if own else ("melds", [])
        if found is not None or extra == len(adds):
            break
        own = remove(own, [adds[extra]])  # one more tile goes to a table meld as an add
    if found is None or (opened == "pairs" and found[0] != "pairs" and found[1]) or \
            (opened == "melds" and found[0] != "melds"):
        return dict(INVALID, best=best_tiles)
    left = len(view["rack"]) - len(answer)
    if left == 1:
        return {"valid": True, "solved": True, "cost": 0, "reasons": [], "best": best_tiles}
    if left < 1:
        return dict(INVALID, best=best_tiles)
    codes = FINISH_REASONS
    points = _reason_points(turn, codes)
    return {"valid": True, "solved": False, "cost": points,
            "reasons": [r for r in turn["reasons"] if r.get("code") in codes], "best": best_tiles}


def _check_take(ruleset, view, turn, answer, taken):
    """A take answer, from the view before the draw: drawing gives away the take's points
    (the review's reasons); taking the previous seat's discard must place it in the same
    action with the chosen rack tiles: an opening at the threshold (unopened), a new meld
    (pairs player: a new pair), or for an okey51 seat opened with melds an add to a table
    meld when no rack tile is chosen (RULES.md §3 D-18, §4), with a tile left."""
    seen = decode(view)
    top = seen.top_discard()
    best_tiles = _best_tiles(turn, "take")
    if taken is None:
        points = _reason_points(turn, TAKE_REASONS)
        return {"valid": True, "solved": False, "cost": points,
                "reasons": [r for r in turn["reasons"] if r.get("code") in TAKE_REASONS], "best": best_tiles}
    if taken != top or len(answer) >= len(view["rack"]):  # a tile must stay to discard
        return dict(INVALID, best=best_tiles)
    if not answer:
        ok = ruleset == "okey51" and seen.opened == "melds" and seen.fits(seen.ctx.rack_code(top))
    else:
        found = _lays(ruleset, view, list(answer) + [top], opening=seen.opened == "no")
        # an opened seat lays the kind it opened with (RULES.md §3 D-7, §4)
        ok = found is not None and (seen.opened == "no" or found[0] == seen.opened)
    if not ok:
        return dict(INVALID, best=best_tiles)
    return {"valid": True, "solved": True, "cost": 0, "reasons": [], "best": best_tiles}


def _check_swap(view, turn, answer):
    """A swap answer: the chosen rack tile must be the tile a wild stands for in an
    opponent's meld that may be swapped (RULES.md §3; §4 and D-26 for okey17); another
    tile gives away the swap's points."""
    seen = decode(view)
    if len(answer) != 1:
        return dict(INVALID, best=_best_tiles(turn, "swap"))
    code = seen.ctx.rack_code(answer[0])
    okey17 = view["ruleset"] == "okey17"
    for meld in seen.melds:
        if meld.kind == "pair" and okey17 or not meld.wilds or seen.friendly(meld.owner):
            continue
        if okey17 and meld.kind == "group" and (meld.size < 4 or len(meld.wilds) > 1):
            continue
        if code in meld.wilds and answer[0] != "F":
            return {"valid": True, "solved": True, "cost": 0, "reasons": [], "best": _best_tiles(turn, "swap")}
    points = _reason_points(turn, SWAP_REASONS)
    return {"valid": True, "solved": False, "cost": points,
            "reasons": [r for r in turn["reasons"] if r.get("code") in SWAP_REASONS], "best": _best_tiles(turn, "swap")}


def _rack_value(view, tiles):
    return api.ruleset("rami").rack_value(list(tiles), (view.get("options") or {}).get("joker_value", 30))


def _check_lay(view, turn, answer):
    """A rami answer: the tiles must all go to the table (after the initial meld, with the
    table rearranged, the exact solver; before it, as new melds worth 30 or more from the
    rack alone, RULES.md §5); it costs the points the best play lays beyond it."""
    from games.bots.partition import OBJ_TILES, counts_of, meld_points, search
    from games.bots.solver_rami import NoSolution, solve

    best = turn["best"]["placed"]
    seat = view["seat"]
    invalid = dict(INVALID, best=best)
    if (view.get("opened") or [])[seat] == "yes":
        try:
            count, _value, _table, _placed = solve([list(m) for m in view.get("table") or []], list(answer), "tiles")
        except (NoSolution, ValueError):
            return invalid
        if count != len(answer):
            return invalid
    else:
        counts, wilds = counts_of(CTX, list(answer))
        melds = list(search(counts, wilds, "rami", OBJ_TILES, False)[1])
        if len(laid_tiles(CTX, melds)) != len(answer) or sum(meld_points("rami", m) for m in melds) < THRESHOLD:
            return invalid
    cost = max(0, _rack_value(view, [t for t in best if t != "J"]) - _rack_value(view, [t for t in answer if t != "J"]))
    reasons = [{"code": "fewer_tiles", "points": cost, "tiles": max(0, len(best) - len(answer))}] if cost else []
    return {"valid": True, "solved": cost == 0, "cost": cost, "reasons": reasons, "best": best}
