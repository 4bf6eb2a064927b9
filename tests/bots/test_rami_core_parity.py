"""The strong rami bot plays the same with and without the solver's compiled core
(RULES.md §5): the pure-Python search may be slower, never different.  Late-round
views (some opponent near going out, so the solver's value objective is asked too)
from seeded self-play go through both paths; a missing core fails the suite where
a C compiler could have built it."""
from __future__ import annotations

import random
import sys
from collections import Counter

import pytest

import games.bots
from games.bots import choose_action, rami, solver_rami
from games.bots.selfplay import play_round
from games.engine.tiles import COLOURS
from tests.bots import helpers
from tests.bots.helpers import compiled_rami_core


def _with_core(core, fn, *args, **kwargs):
    """``fn(*args)`` with the solver on the compiled ``core`` (None: pure Python)."""
    saved = solver_rami._core
    solver_rami._core = core
    try:
        return fn(*args, **kwargs)
    finally:
        solver_rami._core = saved


def _late_views(core):
    """Views of opened strong seats where some opponent holds at most ``rami.VALUE_RACK``
    tiles, from seeded all-strong rounds (4 and 6 seats), one round after the other."""
    i = 0
    while True:
        views: list[dict] = []
        seats = 6 if i % 3 == 2 else 4
        _with_core(core, play_round, "rami", f"parity-{i}", ["strong"] * seats, first=i % seats, check=False,
                   on_decision=lambda view, action, views=views: views.append(view)
                   if view["opened"][view["seat"]] == "yes" and rami._race_lost(view) else None)
        yield from views
        i += 1


def test_strong_rami_plays_the_same_with_and_without_the_compiled_core(monkeypatch):
    core = compiled_rami_core()
    compared = changed_by_value = 0
    for k, view in enumerate(_late_views(core)):
        compiled = _with_core(core, choose_action, view, "strong", seed=k)
        with monkeypatch.context() as m:  # the same seat playing the most tiles, as before the race is lost
            m.setattr(rami, "VALUE_RACK", -1)
            tiles_only = _with_core(core, choose_action, view, "strong", seed=k)
        matters = tiles_only != compiled
        if compared < 300 or matters:  # 300 views, then more where the value objective changes the play
            pure = _with_core(None, choose_action, view, "strong", seed=k)
            assert pure == compiled, (k, view["rack"], view["table"])
            compared += 1
            changed_by_value += matters
        if (compared >= 300 and changed_by_value >= 5) or k >= 5000:
            break
    # in a few of these views (about 1 in 50) the value objective changes the play, so the value
    # search's two paths were compared where it matters, not only its "no better" answers
    assert changed_by_value >= 5, changed_by_value


def _random_position(rng: random.Random):
    """A valid table (the solver's arrangement of a random draw) and a rack of the rest."""
    while True:
        jokers = rng.randint(0, 4)
        tiles = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] * 3 + ["J"] * jokers
        rng.shuffle(tiles)
        draw = tiles[:rng.randint(0, 60)]
        try:
            table = _with_core(None, solver_rami.solve, [], draw, "tiles")[2]
        except solver_rami.NoSolution:
            continue
        left = list((Counter(tiles) - Counter(t.split("=")[0] for m in table for t in m)).elements())
        rng.shuffle(left)
        return table, left[:rng.randint(1, 16)]


def test_hints_and_value_floors_never_change_the_pure_answer():
    # A hint (right, poor or impossible) only picks the first bounded pass to try;
    # solve_above only skips a value search that cannot beat its floor.
    core = compiled_rami_core()
    rng = random.Random(11)
    above_found = 0
    for _ in range(80):
        table, rack = _random_position(rng)
        for objective in ("tiles", "value"):
            expected = _with_core(core, solver_rami.solve, table, rack, objective)
            other = "value" if objective == "tiles" else "tiles"
            hints = [expected[3], _with_core(core, solver_rami.solve, table, rack, other)[3],
                     rack[: len(rack) // 2], rack]
            for hint in hints:
                assert _with_core(None, solver_rami.solve, table, rack, objective, hint=hint) == expected
        best = _with_core(core, solver_rami.solve, table, rack, "value")
        for points in (0, best[1] - 1, best[1], best[1] + 5):
            compiled = _with_core(core, solver_rami.solve_above, table, rack, points)
            pure = _with_core(None, solver_rami.solve_above, table, rack, points, hint=rack[:3])
            assert pure == compiled == (best if best[1] > points else None), (table, rack, points)
            above_found += pure is not None
    assert above_found >= 80


def test_a_missing_core_fails_where_a_compiler_could_build_it(monkeypatch):
    monkeypatch.delattr(games.bots, "_rami_core", raising=False)
    monkeypatch.setitem(sys.modules, "games.bots._rami_core", None)  # the import now fails
    monkeypatch.setattr(helpers, "c_compiler", lambda: "/usr/bin/cc")
    with pytest.raises(pytest.fail.Exception, match=r"pip install -e \."):
        compiled_rami_core()
    monkeypatch.setattr(helpers, "c_compiler", lambda: None)
    with pytest.raises(pytest.skip.Exception, match="no C compiler"):
        compiled_rami_core()
