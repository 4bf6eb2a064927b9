"""The rami solver against a brute force built on the engine's meld rules (RULES.md §2, §5).

The reference tries every sub-multiset of the rack and asks whether the old
table's tiles plus it split into melds the engine (``games.engine.melds.classify``)
accepts, trying every reading of the jokers.
"""
from collections import Counter
from functools import lru_cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings, strategies as st

from games.bots.solver_rami import OBJECTIVES, NoSolution, solve
from games.engine.api import meld_info
from games.engine.melds import classify
from games.engine.tiles import COLOURS
from tests.bots.helpers import compiled_rami_core


def _readings(reals, jokers):
    """Every way to write the jokers that could make a run or group: a run window
    of the right length holding the real numbers, or the missing colours."""
    colours = sorted({t[0] for t in reals})
    numbers = sorted({int(t[1:]) for t in reals})
    size = len(reals) + jokers
    if len(colours) == 1:
        for low in range(1, 15 - size):
            missing = [n for n in range(low, low + size) if n not in numbers]
            if len(missing) == jokers:
                yield reals + [f"J={colours[0]}{n}" for n in missing]
    if len(numbers) == 1:
        missing = [c for c in COLOURS if c not in colours]
        if len(missing) >= jokers:
            yield reals + [f"J={c}{numbers[0]}" for c in missing[:jokers]]


def _is_meld(tiles):
    reals = [t for t in tiles if t != "J"]
    if len(tiles) < 3 or not reals:
        return False
    for written in _readings(reals, len(tiles) - len(reals)):
        meld = classify(written, "rami")
        if meld is not None and meld.type in ("run", "group"):
            return True
    return False


@lru_cache(maxsize=None)
def partitionable(tiles):
    """Whether the sorted tuple ``tiles`` (jokers ``J`` last) splits into melds."""
    if not tiles:
        return True
    first, others = tiles[0], tiles[1:]
    if first == "J":
        return False  # only jokers left: no meld holds a real tile
    for size in range(2, min(len(others), 12) + 1):
        for combo in set(combinations(others, size)):
            if _is_meld((first,) + combo):
                left = list(others)
                for t in combo:
                    left.remove(t)
                if partitionable(tuple(left)):
                    return True
    return False


def _order(tiles):
    return tuple(sorted(tiles, key=lambda t: (t == "J", t)))


def brute(table, rack, objective):
    base = [t.split("=")[0] for m in table for t in m]
    counts = Counter(rack)
    kinds = sorted(counts)
    best = None
    for choice in product(*(range(counts[k] + 1) for k in kinds)):
        laid = [k for k, n in zip(kinds, choice) for _ in range(n)]
        tiles = len(laid)
        value = sum(int(t[1:]) for t in laid if t != "J")
        key = (tiles, value) if objective == "tiles" else (value, tiles)
        if best is not None and key <= best:
            continue
        if partitionable(_order(base + laid)):
            best = key
    return best


@st.composite
def positions(draw, copies=2, max_jokers=2):
    """A small valid table (0-2 melds) and a rack from a narrow window of faces."""
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=3, unique=True))
    low = draw(st.integers(1, 9))
    numbers = list(range(low, low + 5))
    supply = Counter({f"{c}{n}": copies for c in colours for n in numbers})
    supply["J"] = max_jokers
    table = []
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            c = draw(st.sampled_from(colours))
            start = draw(st.sampled_from(numbers[:3]))
            meld = [f"{c}{n}" for n in range(start, start + 3)]
        else:
            n = draw(st.sampled_from(numbers))
            meld = [f"{c}{n}" for c in colours[:3]]
            if len(meld) < 3:
                continue
        if supply["J"] and draw(st.booleans()):
            i = draw(st.integers(0, 2))
            meld[i] = f"J={meld[i]}"
        need = Counter(t.split("=")[0] for t in meld)
        if need - supply:
            continue
        supply -= need
        table.append(meld)
    pool = sorted(supply.elements())
    rack = draw(st.lists(st.sampled_from(pool), max_size=5)) if pool else []
    rack = list((Counter(rack) & supply).elements())
    return table, rack


def _check(table, rack, objective):
    tiles, value, new_table, placed = solve(table, rack, objective)
    assert not Counter(placed) - Counter(rack), "placed tiles come from the rack"
    assert tiles == len(placed)
    assert value == sum(int(t[1:]) for t in placed if t != "J")
    old = Counter(t.split("=")[0] for m in table for t in m)
    new = Counter(t.split("=")[0] for m in new_table for t in m)
    assert new == old + Counter(placed), "the new table holds the old tiles plus the laid ones"
    for meld in new_table:
        found = classify(meld, "rami")
        assert found is not None and found.type in ("run", "group"), meld
        assert list(found.tiles) == meld
        assert meld_info("rami", meld)["valid"]
    key = (tiles, value) if objective == "tiles" else (value, tiles)
    assert key == brute(table, rack, objective)


@settings(max_examples=60, deadline=None)
@given(positions(), st.sampled_from(["tiles", "value"]))
def test_solver_matches_brute_force(position, objective):
    table, rack = position
    _check(table, rack, objective)


@settings(max_examples=25, deadline=None)
@given(positions(copies=3, max_jokers=4), st.sampled_from(["tiles", "value"]))
def test_solver_matches_brute_force_with_the_160_tile_set(position, objective):
    table, rack = position
    _check(table, rack, objective)


def test_jokers_in_front_of_a_run_and_a_full_group():
    table = [["R4", "R5", "R6"]]
    rack = ["R7", "B4", "K4", "J", "J", "J"]
    tiles, value, new_table, placed = solve(table, rack)
    assert tiles == 6 and value == 15
    _check(table, rack, "tiles")


def test_objectives_trade_value_for_tiles():
    rack = ["J", "R1", "R2", "R4", "K13", "B13"]
    assert solve([], rack, "tiles")[:3] == (4, 7, [["R1", "R2", "J=R3", "R4"]])
    assert solve([], rack, "value")[:3] == (3, 26, [["J=R13", "B13", "K13"]])


def test_a_lone_joker_cannot_make_a_meld():
    assert solve([], ["J", "J", "J"])[0] == 0
    assert solve([], ["J", "J", "R5"])[:2] == (3, 5)


def test_an_invalid_table_is_reported():
    with pytest.raises(NoSolution):
        solve([["R4", "B5", "K6"]], [])


def test_jokers_before_the_first_real_tile():
    # Near 13 a joker can only go below the run.
    assert solve([["R11", "R12", "R13"]], ["J"])[:3] == (1, 0, [["J=R10", "R11", "R12", "R13"]])
    tiles, _, new_table, _ = solve([], ["K13", "J", "J"])
    assert tiles == 3 and len(new_table) == 1
    _check([], ["K13", "J", "J"], "tiles")


def test_jokers_complete_groups_of_three_and_four():
    assert solve([], ["B5", "K5", "J"])[:3] == (3, 10, [["J=R5", "B5", "K5"]])
    assert solve([], ["R5", "B5", "K5", "J"])[:3] == (4, 15, [["R5", "B5", "K5", "J=Y5"]])
    _check([["R9", "B9", "K9"], ["Y9", "J=R9", "K9"]], ["B9", "J"], "tiles")


# ---------------------------------------------------------------- the bound

def _bounds(table, rack, objective="tiles"):
    """The solver's per-colour bound for a position, built as ``solve`` builds it."""
    from games.bots import solver_rami as s
    from games.bots.solver_rami_bound import ColourBounds
    from games.bots.solver_rami_pass import options

    table_counts, rack_counts = [0] * 52, [0] * 52
    jokers = {"table": 0, "rack": 0}
    s._count((t for m in table for t in m), table_counts, "table", jokers)
    s._count(rack, rack_counts, "rack", jokers)
    total = jokers["table"] + jokers["rack"]
    if objective == "tiles":
        w_joker, w_num = s._BIG, [s._BIG + n for n in range(14)]
    else:
        w_joker, w_num = 1, [n * s._BIG + 1 for n in range(14)]
    s._drop_unplaceable(table_counts, rack_counts, total)
    bounds = ColourBounds(table_counts, rack_counts, total, w_num, options)
    return bounds.root(total), total, jokers["table"], w_joker, w_num


@settings(max_examples=40, deadline=None)
@given(positions(copies=3, max_jokers=4), st.sampled_from(["tiles", "value"]))
def test_the_colour_bound_never_cuts_below_the_optimum(position, objective):
    # The branch and bound drops states whose bound falls below the best
    # weight: the bound of the whole position must reach the brute force's optimum.
    from games.bots.solver_rami import _BIG
    table, rack = position
    root, total, jt, w_joker, w_num = _bounds(table, rack, objective)
    best = brute(table, rack, objective)
    tiles, value = best if objective == "tiles" else best[::-1]
    # The solver's weight of that optimum: each tile laid and each joker used
    # (the table's too) in the first place, the other objective in the second.
    if objective == "tiles":
        weight = (tiles + jt) * _BIG + value
    else:
        weight = value * _BIG + tiles + jt
    assert root + total * w_joker >= weight


def test_group_partners_count_once_per_colour():
    # R5 needs two partners of other colours; two K5 are one colour: no group
    # without a joker, so the bound gives nothing -- and with one joker R5 K5 J.
    assert _bounds([], ["R5", "K5", "K5"])[0] == 0
    assert solve([], ["R5", "K5", "K5"])[0] == 0
    root, *_ = _bounds([], ["R5", "K5", "K5", "J"])
    assert root > 0
    assert solve([], ["R5", "K5", "K5", "J"])[:2] == (3, 10)


def test_a_large_table_takes_the_whole_rack_or_the_best_part():
    # A table larger than the rack, laid whole or in part.
    table = [["R1", "R2", "R3"], ["B7", "K7", "Y7"], ["K9", "K10", "K11"]]
    assert solve(table, ["R4", "K12"])[:2] == (2, 16)
    _check(table, ["R4", "K12"], "tiles")
    _check(table, ["R4", "B9", "Y1"], "tiles")  # B9 and Y1 fit nowhere
    _check(table, ["R4", "B9", "Y1"], "value")


# ---------------------------------------------------------------- the compiled core

def _random_positions(count, seed):
    """``count`` random positions of the 160-tile set (3 copies, 4 jokers): a
    valid table (the solver's own arrangement of a random draw, 0-45 tiles)
    and a rack of 0-30 of the remaining tiles, jokers 0-4 in all."""
    import random

    from games.bots import solver_rami as s

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        jokers = rng.randint(0, 4)
        tiles = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] * 3 + ["J"] * jokers
        rng.shuffle(tiles)
        draw = tiles[:rng.randint(0, 45)]
        try:
            table = s.solve([], draw, "tiles")[2]
        except s.NoSolution:
            continue
        left = Counter(tiles) - Counter(t.split("=")[0] for m in table for t in m)
        rest = list(left.elements())
        rng.shuffle(rest)
        out.append((table, rest[:rng.randint(0, 30)]))
    return out


def _solve_with(core, table, rack, objective):
    from games.bots import solver_rami as s

    saved = s._core
    s._core = core
    try:
        return s.solve(table, rack, objective)
    finally:
        s._core = saved


def test_the_compiled_core_equals_the_pure_python_search():
    # The C port keeps the order of states and options, so not only the optimum
    # but the whole answer (table and laid tiles) is the same.
    core = compiled_rami_core()
    positions = _random_positions(150, seed=4)
    in_play = [sum(t.startswith("J") for m in table for t in m) + rack.count("J") for table, rack in positions]
    assert set(in_play) == {0, 1, 2, 3, 4}
    assert sum("J" in rack for _, rack in positions) >= 15
    checked = 0
    for table, rack in positions:
        for objective in OBJECTIVES:
            compiled = _solve_with(core, table, rack, objective)
            pure = _solve_with(None, table, rack, objective)
            assert compiled[:2] == pure[:2], (table, rack, objective)
            assert compiled == pure, (table, rack, objective)
            checked += 1
    assert checked == 300


def test_the_compiled_core_reports_an_invalid_table():
    core = compiled_rami_core()
    with pytest.raises(NoSolution):
        _solve_with(core, [["R4", "B5", "K6"]], ["R7"], "tiles")


def test_without_the_extension_the_pure_python_search_answers(monkeypatch):
    # OKEY_RAMI_PURE=1, or no compiled module: _load_core gives None and solve
    # runs the pure-Python search, which still matches the brute force.
    import builtins

    from games.bots import solver_rami as s, solver_rami_pass

    monkeypatch.setenv("OKEY_RAMI_PURE", "1")
    assert s._load_core() is None
    monkeypatch.delenv("OKEY_RAMI_PURE")
    real_import = builtins.__import__

    def no_core(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "games.bots" and fromlist and "_rami_core" in fromlist:
            raise ImportError("no compiled core")
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", no_core)
    assert s._load_core() is None
    monkeypatch.setattr(builtins, "__import__", real_import)
    monkeypatch.setattr(s, "_core", None)
    calls = []
    real_search = solver_rami_pass.search
    monkeypatch.setattr(solver_rami_pass, "search", lambda *a, **k: calls.append(1) or real_search(*a, **k))
    table, rack = [["R9", "B9", "K9"], ["Y9", "J=R9", "K9"]], ["B9", "J"]
    _check(table, rack, "tiles")
    assert calls, "the pure-Python search ran"
    _check([["R11", "R12", "R13"]], ["J", "R10", "B13", "K13"], "value")


def test_a_stale_build_is_not_used(monkeypatch):
    import sys
    import types

    import games.bots
    from games.bots import solver_rami as s

    stale = types.ModuleType("games.bots._rami_core")
    stale.VERSION = s._CORE_VERSION - 1
    monkeypatch.setitem(sys.modules, "games.bots._rami_core", stale)
    monkeypatch.setattr(games.bots, "_rami_core", stale, raising=False)
    monkeypatch.delenv("OKEY_RAMI_PURE", raising=False)
    assert s._load_core() is None
    stale.VERSION = s._CORE_VERSION
    assert s._load_core() is stale
