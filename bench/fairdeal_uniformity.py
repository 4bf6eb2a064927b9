"""How uniform the okeysite-shuffle-1 deal is, and how fast (docs/fair-deals.md).

    .venv/bin/python -m bench.fairdeal_uniformity                 # okey set, 20,000 shuffles
    .venv/bin/python -m bench.fairdeal_uniformity --ruleset rami --players 6 --count 20000

Each shuffle comes from its own deal seed (a fresh server seed per deal, derived from
``--seed`` so runs repeat).  For every tile of the set before the shuffle it counts how
often the tile lands at each position, and prints the chi-square of that row against the
uniform expectation (count / tiles per cell, tiles - 1 degrees of freedom): the mean
(a fair shuffle gives about the degrees of freedom), the extremes, how many tiles fall
below p = 0.01 and 0.001 (a fair shuffle: about 1% and 0.1% of the tiles), and the whole
table: the sum of the rows times (tiles - 1) / tiles, which for a sum of uniform random
permutation matrices is a chi-square on (tiles - 1)^2 degrees of freedom (rows and columns
each sum to the count, and the permutations spread evenly over what is left).  p-values use
the Wilson-Hilferty normal approximation (within 0.001 at these degrees of freedom).  Then
the time per deal (deal seed + shuffle + layout) in CPU milliseconds.

    --runs R      repeat with R seeds and print the R whole-table p-values, how many fall
                  below 0.05 and their Kolmogorov-Smirnov distance to uniform: one p-value
                  alone says little, a fair shuffle gives uniform p-values over many runs
    --control     the same figures for Python's random.shuffle (Mersenne Twister), as a
                  reference
"""
from __future__ import annotations

import argparse
import hashlib
import math
import random
import time

from games.engine import fairdeal


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def measure(ruleset: str, players: int, count: int, seed: str, control: bool = False) -> tuple[list[list[int]], float]:
    """``count`` deals: ``(counts[tile][position], CPU seconds spent dealing)``.  With
    ``control`` the order comes from Python's ``random.shuffle`` instead (a reference)."""
    n = len(fairdeal.tile_set(ruleset, players))
    counts = [[0] * n for _ in range(n)]
    seeds = ["" for _ in range(players)]
    rng = random.Random(seed)
    spent = 0.0
    for k in range(count):
        server = hashlib.sha256(f"{seed} {k}".encode()).hexdigest()
        started = time.process_time()
        deal_seed = fairdeal.deal_seed(server, k % 7 + 1, "bench", seeds)
        fairdeal.layout(ruleset, players, k % players, deal_seed)
        spent += time.process_time() - started
        if control:
            order = list(range(n))
            rng.shuffle(order)
        else:
            order = fairdeal.shuffle(range(n), deal_seed)
        for position, tile in enumerate(order):
            counts[tile][position] += 1
    return counts, spent


def figures(counts: list[list[int]], count: int) -> tuple[list[float], float, float]:
    """``(chi-square per tile, whole-table chi-square, its p)`` of a position table."""
    n = len(counts)
    expected = count / n
    chi = [sum((c - expected) ** 2 for c in row) / expected for row in counts]
    whole = sum(chi) * (n - 1) / n
    return chi, whole, chi2_sf(whole, (n - 1) ** 2)


def main(argv: list[str] | None = None) -> None:
    """Print the uniformity figures and the time per deal."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="okey51", choices=sorted(fairdeal.DEALS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--runs", type=int, default=1, help="repeat with other seeds; print each whole-table p")
    parser.add_argument("--control", action="store_true", help="measure Python's random.shuffle instead")
    args = parser.parse_args(argv)
    name = "random.shuffle (control)" if args.control else fairdeal.ALGORITHM
    if args.runs > 1:
        ps = sorted(figures(measure(args.ruleset, args.players, args.count, f"{args.seed}-{r}", args.control)[0],
                            args.count)[2] for r in range(args.runs))
        ks = max(max((i + 1) / len(ps) - p, p - i / len(ps)) for i, p in enumerate(ps))
        print(f"{name}, {args.ruleset}, {args.players} seats, {args.runs} runs of {args.count}: whole-table p "
              + " ".join(f"{p:.3f}" for p in ps))
        print(f"below 0.05: {sum(p < 0.05 for p in ps)} (fair: about {0.05 * args.runs:.1f}); "
              f"Kolmogorov-Smirnov distance to uniform {ks:.3f} (5% critical value {1.36 / math.sqrt(args.runs):.3f})")
        return
    counts, spent = measure(args.ruleset, args.players, args.count, args.seed, args.control)
    n, df = len(counts), len(counts) - 1
    chi, whole, p_whole = figures(counts, args.count)
    p = [chi2_sf(x, df) for x in chi]
    print(f"{name}, {args.ruleset}, {args.players} seats: {n} tiles, {args.count} shuffles, "
          f"{args.count / n:.1f} expected per tile and position")
    print(f"chi-square per tile (df {df}): mean {sum(chi) / n:.1f}, min {min(chi):.1f}, max {max(chi):.1f}")
    print(f"tiles below p=0.01: {sum(x < 0.01 for x in p)} (fair: about {n * 0.01:.1f}); "
          f"below p=0.001: {sum(x < 0.001 for x in p)} (fair: about {n * 0.001:.2f}); smallest p {min(p):.4f}")
    print(f"whole table: chi-square {whole:.0f} on df {df * df}, p {p_whole:.3f}")
    print(f"time per deal (deal seed + shuffle + layout): {1000 * spent / args.count:.3f} ms CPU")


if __name__ == "__main__":
    main()
