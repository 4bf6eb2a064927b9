"""Review speed and what the marks mean (prints figures; never run as a test).

Usage: python -m bench.review [--rounds N (default 200)] [--timing N (default 100)]
                              [--rulesets okey51,okey17,rami] [--seed TEXT]

Plays computer-only rounds on the pure engine (``games.bots.selfplay``), the levels
turning round the seats, and reviews every seat of every round (``games.review``):

- review CPU time per round (``time.process_time``, one core: other processes on a busy
  host do not inflate it), p50/p95 over the first ``--timing`` rounds, against the
  budget (okey51 and okey17 4 seats <= 1.0 s, rami 6 seats <= 2.0 s), beside the same rounds'
  self-play CPU time (the bots' decisions), this run's baseline;
- the mean round accuracy of each computer level with its 95 % interval (normal
  approximation) over every round, and whether strong > normal > easy with intervals
  that do not overlap.
The table it prints is the one docs/review.md keeps.
"""
from __future__ import annotations

import argparse
import math
import time

from games.bots.selfplay import play_round
from games.review import review_round

SEATS = {"okey51": 4, "okey17": 4, "rami": 6}
BUDGET = {"okey51": 1.0, "okey17": 1.0, "rami": 2.0}
LEVEL_CYCLE = ("strong", "normal", "easy")


def levels_of(ruleset: str, i: int) -> list[str]:
    """Round ``i``'s level per seat: strong, normal, easy over and over from seat
    ``i % seats`` on, so each level sits in every seat and before every other level."""
    n = SEATS[ruleset]
    base = [LEVEL_CYCLE[(k + i // n) % 3] for k in range(n)]
    shift = i % n
    return base[shift:] + base[:shift]


def percentile(values: list[float], p: float) -> float:
    """The ``p`` (0..100) percentile, nearest rank."""
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[k]


def mean_ci(values: list[float]) -> tuple[float, float]:
    """(mean, half-width of its 95 % interval)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else float("inf")
    return mean, 1.96 * math.sqrt(var / n)


def run(ruleset: str, rounds: int, timing: int, seed: str) -> bool:
    """Play and review ``rounds`` rounds of ``ruleset``; print its figures. Returns True when
    the levels are ordered with intervals apart."""
    review_times, play_times = [], []
    accuracy: dict[str, list[float]] = {lv: [] for lv in LEVEL_CYCLE}
    for i in range(rounds):
        levels = levels_of(ruleset, i)
        t0 = time.process_time()
        played = play_round(ruleset, f"{seed}-{ruleset}-{i}", levels, first=i % len(levels), check=False, record=True)
        t1 = time.process_time()
        reviews = review_round(played.initial, [m["action"] for m in played.moves], range(len(levels)),
                               f"{seed}-review-{i}")
        t2 = time.process_time()
        if i < timing:
            play_times.append(t1 - t0)
            review_times.append(t2 - t1)
        for level, review in zip(levels, reviews):
            if review["accuracy"] is not None:
                accuracy[level].append(review["accuracy"])
    n = len(review_times)
    p50, p95 = percentile(review_times, 50), percentile(review_times, 95)
    verdict = "ok" if p95 <= BUDGET[ruleset] else "OVER"
    print(f"{ruleset} ({SEATS[ruleset]} seats): review of a round over {n} rounds: p50 {p50:.3f} s, p95 {p95:.3f} s "
          f"CPU (budget p95 {BUDGET[ruleset]:.1f} s: {verdict}); baseline, the same rounds' self-play: "
          f"p50 {percentile(play_times, 50):.3f} s, p95 {percentile(play_times, 95):.3f} s")
    print(f"  {'level':<8}{'seat-rounds':>12}{'accuracy':>10}{'95% CI':>18}")
    rows = {}
    for level in LEVEL_CYCLE:
        mean, half = mean_ci(accuracy[level])
        rows[level] = (mean, half)
        print(f"  {level:<8}{len(accuracy[level]):>12}{mean:>10.1f}   [{mean - half:6.1f}, {mean + half:6.1f}]")
    (s, sh), (m, mh), (e, eh) = rows["strong"], rows["normal"], rows["easy"]
    ordered = s - sh > m + mh and m - mh > e + eh
    print(f"  strong > normal > easy with intervals apart: {'yes' if ordered else 'NO'} ({rounds} rounds)")
    return ordered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--timing", type=int, default=100)
    parser.add_argument("--rulesets", default="okey51,okey17,rami")
    parser.add_argument("--seed", default="bench-review")
    args = parser.parse_args()
    from games.bots import solver_rami

    print("rami solver:", "compiled core" if solver_rami._core is not None else "pure Python")
    for ruleset in args.rulesets.split(","):
        run(ruleset, args.rounds, min(args.timing, args.rounds), args.seed)


if __name__ == "__main__":
    main()
