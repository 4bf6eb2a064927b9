"""More conformance vectors, written by hand from RULES.md (doubling chain, pairs openings,
pairs_only/melds_only, must_keep_tile, swaps, taken discards, every okey51 ending, the
false joker's value, okey17 meld values/direct finish/pairs threshold, rami's initial meld,
joker 50, double for one turn, D-22 ties, the §7 error order, penalty tiles for unopened players
and wilds, teams, D-12, D-14), run through the same command-line runner."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTORS = Path(__file__).resolve().parent / "vectors" / "rules_cases.jsonl"
MELD_CASES = Path(__file__).resolve().parent / "vectors" / "meld_cases.jsonl"
"""test_melds.py's meld cases as `meld` vectors, so the table client's reader runs them too
(tests/js/meld-verdicts.test.mjs reads every vector file here)."""


@pytest.mark.parametrize("vectors", [VECTORS, MELD_CASES], ids=["rules_cases", "meld_cases"])
def test_the_runner_passes_the_hand_written_rules_cases(vectors):
    out = subprocess.run([sys.executable, "-m", "games.engine.conformance", str(vectors)],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    count = sum(1 for line in vectors.read_text().splitlines() if line.strip())
    assert out.stdout.strip().splitlines()[-1] == f"{count} passed, 0 failed", out.stdout + out.stderr
    assert out.returncode == 0
