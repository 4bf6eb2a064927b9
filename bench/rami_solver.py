"""Benchmark: our exact rami solver against the public anchor ``rummikub-solver``.

Run ``python -m bench.rami_solver`` (see bench/README.md).  It generates, with a
fixed seed, positions at three sizes (empty table + 14-tile rack; 20 table
tiles + 20-tile rack; 40 table tiles + 30-tile rack; 106-tile set), solves each
with both solvers and prints per size the median and p99 solve times and how
many optima agree.

* "Most rack tiles placed" (tile mode): the anchor's TILE_COUNT mode is an
  exact integer programme, compared directly.
* "Most face value placed" (value mode): the anchor's TOTAL_VALUE objective is
  ``sum(tiles) * sum(tile values)`` (an outer product summed), i.e. the tile
  count times a constant, so it is not a value optimum.  Values are compared
  with an exact reference instead: the anchor's own constraint model solved
  with the true objective ``sum(value * tiles)``.

``--positions FILE`` reads positions (JSON: ``{"positions": [{"id", "table",
"rack", "expected": {"max_tiles_placed", "max_value_placed"}, "anchor_ms"}]}``),
checks both optima on every position, times our solver and ends with
``optimum equal N/N, median speedup X`` (against the anchor run side by side
when it is installed, else against ``anchor_ms``).  ``--write FILE`` saves the
generated positions in that format.  Times are the process's CPU time (both
solvers run in this process, so other jobs on a busy machine do not inflate
them); ``--wall`` uses the wall clock instead.  The first line names the
solver path: the compiled core (``games/bots/_rami_core.c``) or pure Python
(``OKEY_RAMI_PURE=1``, or the extension not built).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from games.bots import solver_rami
from games.bots.solver_rami import solve
from games.engine.tiles import COLOURS, JOKER, full_set, split_wild

SIZES = ((0, 14), (20, 20), (40, 30))


# ---------------------------------------------------------------- positions

def _random_meld(rng: random.Random, supply: list[str], length: int) -> list[str] | None:
    """A run or group of ``length`` tiles drawn from ``supply`` (maybe with a joker)."""
    have = set(supply)
    for _ in range(50):
        if length <= 4 and rng.random() < 0.4:
            n = rng.randint(1, 13)
            colours = rng.sample(COLOURS, length)
            meld = [f"{c}{n}" for c in colours]
        else:
            c = rng.choice(COLOURS)
            start = rng.randint(1, 14 - length)
            meld = [f"{c}{n}" for n in range(start, start + length)]
        if JOKER in have and rng.random() < 0.15:
            i = rng.randrange(length)
            meld[i] = f"{JOKER}={meld[i]}"
        need = [split_wild(t)[0] for t in meld]
        if all(need.count(t) <= supply.count(t) for t in set(need)):
            for t in need:
                supply.remove(t)
            return meld
    return None


def generate(seed: int, table_tiles: int, rack_tiles: int) -> dict:
    """One position: a valid table of exactly ``table_tiles`` tiles and a rack."""
    rng = random.Random(seed)
    while True:
        supply = full_set("rami")
        rng.shuffle(supply)
        table: list[list[str]] = []
        left = table_tiles
        ok = True
        while left:
            length = left if left <= 5 else rng.choice([3, 3, 4, 4, 5])
            if left - length in (1, 2):
                length = 3
            meld = _random_meld(rng, supply, length)
            if meld is None:
                ok = False
                break
            table.append(meld)
            left -= length
        if ok:
            rng.shuffle(supply)
            return {"table": table, "rack": sorted(supply[:rack_tiles])}


def generate_all(seed: int, count: int) -> list[dict]:
    """``count`` positions per size of :data:`SIZES`, each with ``id`` and ``size``."""
    positions = []
    for size, (t, r) in enumerate(SIZES):
        for i in range(count):
            pos = generate(seed * 1_000_003 + size * 10_007 + i, t, r)
            pos["id"] = f"t{t}-r{r}-{i:03d}"
            pos["size"] = f"table {t} + rack {r}"
            positions.append(pos)
    return positions


# ---------------------------------------------------------------- the anchor

class Anchor:
    """``rummikub-solver`` (MIT), a cvxpy integer programme (Den Hertog & Hulshof 2006)."""

    def __init__(self, backend: str | None = None):
        """``backend``: a ``rummikub_solver.MILPSolver`` name (``HIGHS``, ``SCIPY``, ...);
        None for the package's default (HiGHS when ``highspy`` is installed)."""
        import cvxpy as cp
        import numpy as np
        from rummikub_solver import MILPSolver, RuleSet, SolverMode

        chosen = MILPSolver[backend.upper()] if backend else None
        self.rs = RuleSet(solver_backend=chosen)  # 13 numbers, 2 copies, 4 colours, 2 jokers
        self.mode = SolverMode
        self.backend = self.rs.backend
        # Exact value reference: the anchor's constraints with the true objective.
        solver = self.rs._solver
        values = np.append(np.tile(np.arange(1, 14), 4), 0)
        constraints = solver._problems[SolverMode.TILE_COUNT].constraints
        self.value_problem = cp.Problem(cp.Maximize(values @ solver.tiles), constraints)
        self.solver = solver
        self.cp = cp

    @staticmethod
    def _id(tile: str) -> int:
        physical, _ = split_wild(tile)
        if physical == JOKER:
            return 53
        return COLOURS.index(physical[0]) * 13 + int(physical[1:])

    def _state(self, pos):
        state = self.rs.new_game()
        state.add_table(*(self._id(t) for m in pos["table"] for t in m))
        state.add_rack(*(self._id(t) for t in pos["rack"]))
        state.initial = False
        return state

    def tiles(self, pos) -> int:
        sol = self.rs.solve(self._state(pos), self.mode.TILE_COUNT)
        return len(sol.tiles) if sol else 0

    def value_mode(self, pos) -> int:
        """Face value the anchor's own value mode lays (not an optimum)."""
        sol = self.rs.solve(self._state(pos), self.mode.TOTAL_VALUE)
        return sum(getattr(t, "value", 0) for t in sol.tiles) if sol else 0

    def exact_value(self, pos) -> int:
        state = self._state(pos)
        self.solver.rack.value = state.rack_array
        self.solver.table.value = state.table_array
        value = self.value_problem.solve(solver=self.backend)
        return int(round(value))


# ---------------------------------------------------------------- reporting

def _ms(seconds: float) -> float:
    return seconds * 1000.0


def _p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]


_CLOCK = time.process_time  # CPU seconds of this process (both solvers run in it)


def _timed(fn, *args):
    """``(fn(*args), seconds)``: CPU time by default (other jobs on a busy
    machine do not inflate it), wall-clock time with ``--wall``."""
    start = _CLOCK()
    result = fn(*args)
    return result, _CLOCK() - start


def solver_path() -> str:
    """Which search :func:`solve` runs: the compiled core or pure Python."""
    if solver_rami._core is not None:
        return "ours: compiled core (games/bots/_rami_core.c)"
    return "ours: pure Python (OKEY_RAMI_PURE=1 or the extension not built)"


def run_generated(seed: int, count: int, write: str | None, backend: str | None = None) -> int:
    """Solve generated positions with both solvers and print the table; exit status
    (0 all optima equal, 1 a difference, 2 the anchor is not installed)."""
    try:
        anchor = Anchor(backend)
    except ImportError:
        print("rummikub-solver is not installed: see bench/README.md", file=sys.stderr)
        return 2
    positions = generate_all(seed, count)
    print(solver_path())
    clock = "wall-clock" if _CLOCK is time.perf_counter else "CPU"
    print(f"{len(positions)} positions, seed {seed}; anchor rummikub-solver backend {anchor.backend}; {clock} times")
    print("value mode: the anchor's TOTAL_VALUE objective is tile count x a constant, so values are")
    print("checked against an exact reference (the anchor's model with the objective sum(value x tile)).")
    failures = 0
    by_size: dict[str, list] = {}
    for pos in positions:
        (ours_t, _, _, _), t_ours = _timed(solve, pos["table"], pos["rack"], "tiles")
        (_, ours_v, _, _), t_ours_v = _timed(solve, pos["table"], pos["rack"], "value")
        anchor_t, t_anchor = _timed(anchor.tiles, pos)
        anchor_v, _ = _timed(anchor.value_mode, pos)
        exact_v = anchor.exact_value(pos)
        pos["expected"] = {"max_tiles_placed": anchor_t, "max_value_placed": exact_v}
        pos["anchor_ms"] = round(_ms(t_anchor), 3)
        by_size.setdefault(pos["size"], []).append(
            (t_ours, t_ours_v, t_anchor, ours_t == anchor_t, ours_v == exact_v, anchor_v == exact_v))
        if ours_t != anchor_t or ours_v != exact_v:
            failures += 1
            print(f"  DIFFERENT {pos['id']}: tiles ours {ours_t} anchor {anchor_t}; "
                  f"value ours {ours_v} exact {exact_v}")
    print()
    header = (f"{'size':<20} {'n':>4} {'ours med':>9} {'ours p99':>9} {'value med':>9} "
              f"{'anchor med':>10} {'anchor p99':>10} {'speedup':>8} {'tiles =':>8} "
              f"{'value =':>8} {'anchor value =':>14}")
    print(header)
    for size, rows in by_size.items():
        ours = [_ms(r[0]) for r in rows]
        ours_v = [_ms(r[1]) for r in rows]
        anch = [_ms(r[2]) for r in rows]
        n = len(rows)
        print(f"{size:<20} {n:>4} {statistics.median(ours):>8.2f}m {_p99(ours):>8.2f}m "
              f"{statistics.median(ours_v):>8.2f}m {statistics.median(anch):>9.2f}m {_p99(anch):>9.2f}m "
              f"{statistics.median(anch) / statistics.median(ours):>7.1f}x "
              f"{sum(r[3] for r in rows):>4}/{n:<3} {sum(r[4] for r in rows):>4}/{n:<3} "
              f"{sum(r[5] for r in rows):>9}/{n:<4}")
    print("(times in ms; 'tiles =': our tile optimum equals the anchor's; 'value =': our value optimum")
    print(" equals the exact reference; 'anchor value =': the anchor's value mode reaches it)")
    if write:
        out = [{k: p[k] for k in ("id", "table", "rack", "expected", "anchor_ms")} for p in positions]
        with open(write, "w") as fh:
            json.dump({"positions": out}, fh)
        print(f"wrote {len(out)} positions to {write}")
    return 1 if failures else 0


def run_file(path: str, backend: str | None = None) -> int:
    """Check and time the positions of a JSON file; exit status 1 on a wrong optimum."""
    with open(path) as fh:
        positions = json.load(fh)["positions"]
    print(solver_path())
    try:
        anchor = Anchor(backend)
    except ImportError:
        anchor = None
    equal = 0
    ours_ms, anchor_ms = [], []
    for pos in positions:
        (tiles, _, _, _), t_ours = _timed(solve, pos["table"], pos["rack"], "tiles")
        (_, value, _, _), _ = _timed(solve, pos["table"], pos["rack"], "value")
        expected = pos["expected"]
        if tiles == expected["max_tiles_placed"] and value == expected["max_value_placed"]:
            equal += 1
        else:
            print(f"  DIFFERENT {pos.get('id')}: tiles {tiles} (expected {expected['max_tiles_placed']}), "
                  f"value {value} (expected {expected['max_value_placed']})")
        ours_ms.append(_ms(t_ours))
        if anchor is not None:
            _, t_anchor = _timed(anchor.tiles, pos)
            anchor_ms.append(_ms(t_anchor))
        else:
            anchor_ms.append(float(pos["anchor_ms"]))
    against = "anchor run side by side" if anchor is not None else "anchor_ms from the file"
    med_ours, med_anchor = statistics.median(ours_ms), statistics.median(anchor_ms)
    print(f"ours: median {med_ours:.2f} ms, p99 {_p99(ours_ms):.2f} ms; "
          f"anchor ({against}): median {med_anchor:.2f} ms, p99 {_p99(anchor_ms):.2f} ms")
    print(f"optimum equal {equal}/{len(positions)}, median speedup {med_anchor / med_ours:.1f}")
    return 0 if equal == len(positions) else 1


def main(argv=None) -> int:
    """Command line entry point (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", help="JSON file of positions to check and time")
    parser.add_argument("--count", type=int, default=200, help="positions per size (default 200)")
    parser.add_argument("--seed", type=int, default=2016)
    parser.add_argument("--write", help="save the generated positions (with optima) to this file")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock instead of CPU time")
    parser.add_argument("--backend", help="the anchor's MILP backend (HIGHS, SCIPY; default: the package's choice)")
    args = parser.parse_args(argv)
    global _CLOCK
    if args.wall:
        _CLOCK = time.perf_counter
    if args.positions:
        return run_file(args.positions, args.backend)
    return run_generated(args.seed, args.count, args.write, args.backend)


if __name__ == "__main__":
    sys.exit(main())
