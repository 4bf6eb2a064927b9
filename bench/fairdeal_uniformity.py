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
"""
from __future__ import annotations

import argparse
import hashlib
import math
import time

from games.engine import fairdeal


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square with ``df`` degrees of freedom (Wilson-Hilferty)."""
    z = ((x / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def main(argv: list[str] | None = None) -> None:
    """Print the uniformity figures and the time per deal."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="okey51", choices=sorted(fairdeal.DEALS))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args(argv)
    n = len(fairdeal.tile_set(args.ruleset, args.players))
    counts = [[0] * n for _ in range(n)]
    seeds = ["" for _ in range(args.players)]
    spent = 0.0
    for k in range(args.count):
        server = hashlib.sha256(f"{args.seed} {k}".encode()).hexdigest()
        started = time.process_time()
        deal_seed = fairdeal.deal_seed(server, k % 7 + 1, "bench", seeds)
        fairdeal.layout(args.ruleset, args.players, k % args.players, deal_seed)
        spent += time.process_time() - started
        for position, tile in enumerate(fairdeal.shuffle(range(n), deal_seed)):
            counts[tile][position] += 1
    expected = args.count / n
    chi = [sum((c - expected) ** 2 for c in row) / expected for row in counts]
    df = n - 1
    p = [chi2_sf(x, df) for x in chi]
    total = sum(chi)
    print(f"{args.ruleset}, {args.players} seats: {n} tiles, {args.count} shuffles, {expected:.1f} expected per tile and position")
    print(f"chi-square per tile (df {df}): mean {total / n:.1f}, min {min(chi):.1f}, max {max(chi):.1f}")
    print(f"tiles below p=0.01: {sum(x < 0.01 for x in p)} (fair: about {n * 0.01:.1f}); "
          f"below p=0.001: {sum(x < 0.001 for x in p)} (fair: about {n * 0.001:.2f}); smallest p {min(p):.4f}")
    whole = total * df / n
    print(f"whole table: chi-square {whole:.0f} on df {df * df}, p {chi2_sf(whole, df * df):.3f}")
    print(f"time per deal (deal seed + shuffle + layout): {1000 * spent / args.count:.3f} ms CPU")


if __name__ == "__main__":
    main()
