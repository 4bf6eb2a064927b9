"""Decision time of the computer players (prints figures; never run as a test).

Usage: python bench/bot_speed.py [rounds per ruleset and level, default 20]

Plays computer-only rounds on the pure engine, every seat at one level, and
prints per ruleset and level the decision CPU-time percentiles in milliseconds
against the budget (p99 ≤ 5 ms okey, ≤ 50 ms rami).  The partition memo is
cleared before each block so the figures include cold searches.  The first line
names the rami solver's path: the compiled core, or pure Python (not built, or
``OKEY_RAMI_PURE=1``; the same decisions, slower).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.bots import LEVELS  # noqa: E402
from games.bots.partition import _search  # noqa: E402
from games.bots.selfplay import LevelStats, play_round  # noqa: E402
from games.engine.api import RULESETS  # noqa: E402

BUDGET_MS = {"okey51": 5.0, "okey17": 5.0, "rami": 50.0}


def main(rounds: int) -> None:
    """Print the decision-time table for ``rounds`` rounds per ruleset and level."""
    from games.bots import solver_rami

    print("rami solver:", "compiled core" if solver_rami._core is not None else "pure Python")
    print(f"{'ruleset':<8}{'level':<8}{'decisions':>10}{'p50':>8}{'p90':>8}{'p99':>8}{'max':>9}  budget p99")
    for ruleset in RULESETS:
        for level in LEVELS:
            _search.cache_clear()
            st = LevelStats()
            for i in range(rounds):
                r = play_round(ruleset, f"bench-{ruleset}-{level}-{i}", [level] * 4, first=i % 4, check=False)
                for seat_times in r.times:
                    st.times.extend(seat_times)
            p99 = st.percentile_ms(99)
            ok = "ok" if p99 <= BUDGET_MS[ruleset] else "OVER"
            print(f"{ruleset:<8}{level:<8}{len(st.times):>10}{st.percentile_ms(50):>8.2f}{st.percentile_ms(90):>8.2f}"
                  f"{p99:>8.2f}{st.percentile_ms(100):>9.2f}  {BUDGET_MS[ruleset]:.0f} ms {ok}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
