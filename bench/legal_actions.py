"""Time of ``api.legal_actions`` on random mid-round positions (prints figures; never
run as a test).

Usage: python bench/legal_actions.py [rounds per ruleset, default 60]

Each round is dealt with ``api.deal`` (the deal seed from the text ``bench-<ruleset>-<r>``
through ``fairdeal.seed_from_text``) and played with random legal actions, a table
action preferred over a discard (70 %) and a taken discard half of the time, so that
tables fill up and seats open.  Every position met before the round ends is timed
(CPU time of listing all legal actions of the seat to move) and the percentiles are
printed per ruleset, in milliseconds, with the number of actions listed.
"""
from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import api, fairdeal  # noqa: E402


def _percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def measure(ruleset: str, rounds: int) -> tuple[list[float], list[int]]:
    """Milliseconds per ``legal_actions`` call and the number of actions, per position."""
    times, counts = [], []
    for r in range(rounds):
        rng = random.Random(f"bench-{ruleset}-{r}")
        deal_seed = fairdeal.deal_seed(fairdeal.seed_from_text(f"bench-{ruleset}-{r}"), 1, "bench", [""] * 4)
        position = api.deal(ruleset, {}, deal_seed, 4, r % 4)
        for _ in range(400):
            if api.is_over(position):
                break
            start = time.process_time()
            actions = list(api.legal_actions(position, position["turn"]))
            times.append((time.process_time() - start) * 1000)
            counts.append(len(actions))
            lays = [a for a in actions if a["type"] not in ("draw", "discard")]
            ends = [a for a in actions if a["type"] in ("draw", "discard")] or actions
            chance = 0.7 if position.get("phase", "play") == "play" else 0.5
            action = rng.choice(lays) if lays and rng.random() < chance else rng.choice(ends)
            position = api.step(position, action).position
    return times, counts


def main(rounds: int) -> None:
    print(f"{'ruleset':<8}{'positions':>10}{'p50':>8}{'p90':>8}{'p99':>8}{'max':>9}{'actions p50':>13}{'max':>6}")
    for ruleset in api.RULESETS:
        times, counts = measure(ruleset, rounds)
        print(f"{ruleset:<8}{len(times):>10}{_percentile(times, 50):>8.2f}{_percentile(times, 90):>8.2f}"
              f"{_percentile(times, 99):>8.2f}{max(times):>9.2f}{_percentile(counts, 50):>13}{max(counts):>6}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
