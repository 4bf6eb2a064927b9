""""Find the better move": puzzles made from a player's own reviewed mistakes (docs/review.md).

A puzzle is one turn of a stored review marked a mistake or a blunder whose decision can
be tried again on the rack: an okey51 discard (which tile?), a missed okey51 opening
(which tiles open?), or a rami play (which rack tiles go to the table?).  The position is
rebuilt from the round's move log as the seat saw it (`games.review.turns`: its own view
only), and an answer is judged by the review's own judges (`games.review.okey` with the
review's seed, the exact rami solver), so the points it costs are the review's points.
Nothing is stored: which puzzles a player solved lives in their session.
"""
from collections import Counter

from games.bots.okey_plan import laid_tiles
from games.bots.rami import CTX, THRESHOLD
from games.bots.seen import decode
from games.engine import api
from games.models import RoundReview
from games.records import stored_moves
from games.review import okey as okey_judge
from games.review.knowledge import sampler
from games.review.turns import seat_turns

PUZZLE_MARKS = ("mistake", "blunder")
DISCARD_REASONS = {"penalty_tile", "feeds_next", "may_feed_next", "weaker_rack", "weaker_opening"}
LAY_REASONS = {"fewer_tiles", "drew_instead", "missed_initial_meld", "smaller_play"}
REVIEWS_LOOKED_AT = 100
"""The player's latest reviews puzzles are taken from."""


def _kind(ruleset, turn):
    """`discard`, `lay` or None: what a puzzle of this judged turn asks."""
    if turn.get("mark") not in PUZZLE_MARKS:
        return None
    codes = {r.get("code") for r in turn.get("reasons", [])}
    best = turn.get("best") or {}
    if ruleset == "okey51" and "missed_opening" in codes and best.get("open") and best.get("melds"):
        return "open"
    if ruleset == "okey51" and codes & DISCARD_REASONS and best.get("discard"):
        return "discard"
    if ruleset == "rami" and codes & LAY_REASONS and (turn.get("best") or {}).get("placed"):
        return "lay"
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
    """What the puzzle of `turn` asks: `discard`, `open` or `lay` (None: no puzzle)."""
    return _kind(row.ruleset, turn)


def position(row, turn, kind=None):
    """The view the seat decided from (`api.view` of the seat: its rack, the table, the
    discards, never another rack): an okey51 discard before it, an okey51 opening after the
    turn's draw, a rami play at the turn's start. `kind`: the puzzle's kind (default: the
    turn's, `kind_of`); None when the turn has no such view (an okey turn without a discard)."""
    actions = [move["action"] for move in stored_moves(row.round)]
    judged = seat_turns(row.round.initial_position, actions, row.seat)[turn["number"] - 1]
    kind = kind or kind_of(row, turn)
    return {"discard": judged.before_discard, "open": judged.play}.get(kind, judged.start)


def check(row, turn, view, answer):
    """Judge `answer` (a list of rack tiles: one discard for okey51, the tiles to lay for
    rami) on the puzzle's `view`.

    Returns {"valid" (bool: the answer can be played), "solved" (it gives nothing away
    against the best), "cost" (points it gives away), "reasons" (review reasons of the
    answer), "best" (the better tiles)}.  An answer of tiles not in the rack is not valid."""
    rack = list(view["rack"])
    if Counter(answer) - Counter(rack) or not answer:
        return {"valid": False, "solved": False, "cost": None, "reasons": [], "best": []}
    if kind_of(row, turn) == "open":
        return _check_open(view, turn, answer)
    if row.ruleset == "okey51":
        if len(answer) != 1:
            return {"valid": False, "solved": False, "cost": None, "reasons": [], "best": []}
        judged = okey_judge.judge_discard(decode(view), answer[0], sampler(row.seed, row.seat, turn["number"]))
        return {"valid": True, "solved": judged["cost"] == 0, "cost": judged["cost"],
                "reasons": judged["reasons"], "best": [judged["best"]]}
    return _check_lay(view, turn, answer)


def _check_open(view, turn, answer):
    """An okey51 opening answer: the chosen tiles must all go into runs and groups reaching
    the threshold, or into five pairs or more, with a tile left to discard (RULES.md §3);
    it costs what the rack pays opened this way beyond the solver's opening."""
    from games.bots.okey_plan import remove
    from games.bots.partition import OBJ_TILES, counts_of, meld_points, pairs_of, search

    seen = decode(view)
    ctx = seen.ctx
    best_tiles = sorted(t.partition("=")[0] for meld in turn["best"]["melds"] for t in meld)
    invalid = {"valid": False, "solved": False, "cost": None, "reasons": [], "best": best_tiles}
    if len(answer) >= len(view["rack"]):
        return invalid  # a tile must stay to discard
    counts, wilds = counts_of(ctx, list(answer))
    melds = list(search(counts, wilds, ctx.ruleset, OBJ_TILES, ctx.ace_high)[1])
    pairs = pairs_of(ctx, list(answer))
    if len(laid_tiles(ctx, melds)) == len(answer) and \
            sum(meld_points(ctx.ruleset, m) for m in melds) >= okey_judge.threshold(view):
        kind, chosen = "melds", melds
    elif len(pairs) >= okey_judge.PAIRS_TO_OPEN and not remove(list(answer), laid_tiles(ctx, pairs)):
        kind, chosen = "pairs", pairs
    else:
        return invalid
    rack = list(view["rack"])
    best = okey_judge.best_opening(seen, rack)
    target = okey_judge.opening_cost(seen, rack, *best) if best else 0
    cost = max(0, target - okey_judge.opening_cost(seen, rack, kind, chosen))
    reasons = [{"code": "weaker_opening_lay", "points": cost}] if cost else []
    return {"valid": True, "solved": cost == 0, "cost": cost, "reasons": reasons, "best": best_tiles}


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
    invalid = {"valid": False, "solved": False, "cost": None, "reasons": [], "best": best}
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
