"""The okey hand solver against a brute-force search built on the engine's meld rules.

The reference enumerates every sub-multiset of the rack, asks the engine
(``games.engine.melds.classify``) whether it is a run or group under every
reading of its wilds, and takes the best partition.  RULES.md §2.
"""
from collections import Counter
from functools import lru_cache
from itertools import combinations

from hypothesis import given, settings, strategies as st

from games.bots.solver_okey import best_melds, best_pairs
from games.engine.api import meld_info
from games.engine.melds import classify
from games.engine.tiles import COLOURS, okey_of

ALL_FACES = [f"{c}{n}" for c in COLOURS for n in range(1, 14)]


def _meld_options(ruleset, tiles, indicator):
    """Best points of the sub-rack ``tiles`` read as one run or group, or None."""
    okey = okey_of(indicator)
    reals = [t for t in tiles if t != okey]
    wilds = len(tiles) - len(reals)
    if len(tiles) < 3 or not reals:
        return None
    real_faces = [okey if t == "F" else t for t in reals]
    colours = {f[0] for f in real_faces}
    numbers = {f[1:] for f in real_faces}
    # A wild in a run shares the colour of the real tiles, in a group the number.
    pool = [f for f in ALL_FACES if f[0] in colours or f[1:] in numbers]
    best = None
    for faces in combinations(pool, wilds):
        written = reals + [okey if f == okey else f"{okey}={f}" for f in faces]
        meld = classify(written, ruleset, indicator)
        if meld is not None and meld.type in ("run", "group"):
            best = meld.points if best is None else max(best, meld.points)
    return best


def brute_best(rack, ruleset, indicator, objective):
    """Best (primary, secondary) over all partitions of ``rack`` into melds + leftovers."""

    @lru_cache(maxsize=None)
    def go(rest):
        if not rest:
            return (0, 0)
        first, others = rest[0], rest[1:]
        result = go(others)
        for size in range(2, len(others) + 1):
            for combo in set(combinations(others, size)):
                points = _meld_options(ruleset, (first,) + combo, indicator)
                if points is None:
                    continue
                left = list(others)
                for t in combo:
                    left.remove(t)
                a, b = go(tuple(left))
                gain = (points, size + 1) if objective == "points" else (size + 1, points)
                result = max(result, (a + gain[0], b + gain[1]))
        return result

    return go(tuple(sorted(rack)))


def brute_pairs(rack, ruleset, indicator, objective):
    """Best (primary, secondary) over all sets of pairs the engine accepts."""
    okey = okey_of(indicator)

    def pair_points(a, b):
        options = []
        if a == okey and b == okey:
            options = [[okey if f == okey else f"{okey}={f}"] * 2 for f in ALL_FACES]
        elif a == okey or b == okey:
            other = b if a == okey else a
            face = okey if other == "F" else other
            options = [[other, okey if face == okey else f"{okey}={face}"]]
        else:
            options = [[a, b]]
        pts = [m.points for m in (classify(o, ruleset, indicator) for o in options) if m and m.type == "pair"]
        return max(pts) if pts else None

    @lru_cache(maxsize=None)
    def go(rest):
        if not rest:
            return (0, 0)
        first, others = rest[0], rest[1:]
        result = go(others)
        for i, t in enumerate(others):
            pts = pair_points(first, t)
            if pts is None:
                continue
            a, b = go(others[:i] + others[i + 1:])
            gain = (1, pts) if objective == "pairs" else (pts, 1)
            result = max(result, (a + gain[0], b + gain[1]))
        return result

    return go(tuple(sorted(rack)))


@st.composite
def small_racks(draw, max_real=6):
    """A small rack dense in melds: 2 colours, a window of 5 numbers, 0-2 okeys, maybe F."""
    indicator = draw(st.sampled_from(ALL_FACES))
    okey = okey_of(indicator)
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=3, unique=True))
    low = draw(st.integers(1, 10))
    faces = [f"{c}{n}" for c in colours for n in list(range(low, low + 4)) + [1, 13] if f"{c}{n}" != okey]
    reals = draw(st.lists(st.sampled_from(faces), min_size=1, max_size=max_real))
    reals = [t for t, n in Counter(reals).items() for _ in range(min(n, 2))]
    extra = ["F"] * draw(st.integers(0, 1)) + [okey] * draw(st.integers(0, 2))
    return reals + extra, indicator


def _check_melds(rack, ruleset, indicator, objective):
    points, tiles, melds = best_melds(rack, ruleset, indicator, objective)
    used = Counter(t.split("=")[0] for m in melds for t in m)
    assert not used - Counter(rack), "melds use tiles not in the rack"
    assert tiles == sum(len(m) for m in melds)
    total = 0
    for m in melds:
        meld = classify(m, ruleset, indicator)
        assert meld is not None and meld.type in ("run", "group"), m
        assert list(meld.tiles) == m, "runs are written lowest first"
        assert meld_info(ruleset, m, indicator) == {"valid": True, "type": meld.type, "points": meld.points}
        total += meld.points
    assert total == points
    key = (points, tiles) if objective == "points" else (tiles, points)
    assert key == brute_best(rack, ruleset, indicator, objective)


@settings(max_examples=40, deadline=None)
@given(small_racks(), st.sampled_from(["okey51", "okey17"]), st.sampled_from(["points", "tiles"]))
def test_best_melds_matches_brute_force(case, ruleset, objective):
    rack, indicator = case
    _check_melds(rack, ruleset, indicator, objective)


@settings(max_examples=40, deadline=None)
@given(small_racks(max_real=8), st.sampled_from(["okey51", "okey17"]), st.sampled_from(["pairs", "points"]))
def test_best_pairs_matches_brute_force(case, ruleset, objective):
    rack, indicator = case
    pairs = best_pairs(rack, indicator, ruleset, objective)
    used = Counter(t.split("=")[0] for p in pairs for t in p)
    assert not used - Counter(rack)
    points = 0
    for p in pairs:
        meld = classify(p, ruleset, indicator)
        assert meld is not None and meld.type == "pair", p
        assert meld_info(ruleset, p, indicator) == {"valid": True, "type": "pair", "points": meld.points}
        points += meld.points
    key = (len(pairs), points) if objective == "pairs" else (points, len(pairs))
    assert key == brute_pairs(rack, ruleset, indicator, objective)


def test_okey51_takes_the_ace_after_thirteen():
    assert best_melds(["B12", "B13", "B1", "B2", "B3"], "okey51", "R5") == (26, 3, [["B12", "B13", "B1"]])


def test_okey17_never_wraps_and_uses_meld_values():
    points, tiles, melds = best_melds(["B12", "B13", "B1", "B2", "B3"], "okey17", "R5")
    assert (points, tiles, melds) == (2, 3, [["B1", "B2", "B3"]])


def test_false_joker_plays_as_the_okey_identity_and_wild_is_annotated():
    points, tiles, melds = best_melds(["B4", "F", "B7", "R6"], "okey51", "R5")
    # F is R6, not wild; the okey R6 fills B5 or B6.
    assert melds == [] and points == 0
    points, tiles, melds = best_melds(["B4", "B6", "R6", "R5", "F", "R7"], "okey51", "R5")
    assert points == 15 + 18 and tiles == 6
    assert sorted(map(tuple, melds)) == [("B4", "R6=B5", "B6"), ("R5", "F", "R7")]


def test_objectives_trade_points_for_tiles():
    rack = ["B13", "R13", "R1", "R2", "R4", "Y6"]  # Y6 is the okey
    assert best_melds(rack, "okey51", "Y5", "points") == (39, 3, [["R13", "B13", "Y6=K13"]])
    assert best_melds(rack, "okey51", "Y5", "tiles") == (10, 4, [["R1", "R2", "Y6=R3", "R4"]])


def test_two_okeys_pair_as_thirteens_and_false_joker_pairs_with_an_okey():
    pairs = best_pairs(["Y6", "Y6", "F", "K2", "K2"], "Y5", "okey51", "points")
    assert pairs == [["Y6=Y13", "Y6=Y13"], ["K2", "K2"]]
    pairs = best_pairs(["Y6", "F", "K2", "K2"], "Y5", "okey17")
    assert pairs == [["F", "Y6"], ["K2", "K2"]]


def test_long_runs_score_in_full():
    assert best_melds([f"B{n}" for n in range(1, 14)], "okey51", "R5")[:2] == (91, 13)
    # okey17: 1..6 is worth 5 + 3 = 8, more than 1-2-3 (2) + 4-5-6 (5).
    assert best_melds([f"K{n}" for n in range(1, 7)], "okey17", "R5")[:2] == (8, 6)
    # 1..7 is worth 10, as is 1..4 (4) + 5..7 (6).
    assert best_melds([f"K{n}" for n in range(1, 8)], "okey17", "R5")[:2] == (10, 7)
    # 5..13 is worth 12 + 6 = 18; 5-6-7 + 8-9-10 + 11-12-13 = 6 + 9 + 12 = 27.
    assert best_melds([f"Y{n}" for n in range(5, 14)], "okey17", "R5")[:2] == (27, 9)
