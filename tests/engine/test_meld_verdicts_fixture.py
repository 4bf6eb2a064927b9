"""The table client's meld fixtures (tests/js/fixtures/meld_verdicts_<ruleset>.json) are
what the engine says now: tools/meld_verdicts.py writes them and the Node tests run the
client's reader on every case, so a rule changed in the engine must reach the fixtures
(run the tool) before the client can be checked against it."""
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import api
from games.engine.melds import classify, resolve

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("meld_verdicts", ROOT / "tools" / "meld_verdicts.py")
meld_verdicts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(meld_verdicts)

RULESETS = sorted(api.RULESETS)


def _fixture(ruleset):
    return json.loads(meld_verdicts.fixture_path(ruleset).read_text())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_fixture_is_what_the_generator_writes_from_the_engine_now(ruleset):
    written = meld_verdicts.fixture_path(ruleset).read_text()
    assert written == meld_verdicts.render(ruleset), "stale: run .venv/bin/python tools/meld_verdicts.py"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_sample_of_the_stored_cases_still_gets_the_engines_verdicts(ruleset):
    # judged here straight by classify and resolve, not through the generator's code
    data = _fixture(ruleset)
    rules = api.ruleset(ruleset).meld_rules
    for tiles, indicator, meld, rack in random.Random(ruleset).sample(data["cases"], 1000):
        m = classify(tiles, rules, indicator)
        assert meld == (None if m is None else [m.type, m.points]), (tiles, indicator)
        written = resolve(tiles, rules, indicator)
        r = classify(written, rules, indicator) if written else None
        assert rack == (None if r is None else [r.type, r.points, written]), (tiles, indicator)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_fixture_holds_ten_thousand_selections_of_2_to_13_tiles_valid_and_not(ruleset):
    data = _fixture(ruleset)
    cases = data["cases"]
    assert data["count"] == len(cases) >= 10_000
    assert {len(c[0]) for c in cases} == set(range(2, 14))
    valid_written = sum(1 for c in cases if c[2])
    valid_rack = sum(1 for c in cases if c[3])
    assert 1000 < valid_written < valid_rack < 9000
    # the cases the client once got wrong are in it: free and written wilds, and tiles
    # foreign to the set (rami's F, the okey rulesets' J)
    foreign = "F" if ruleset == "rami" else "J"
    assert any(foreign in c[0] for c in cases)
    assert any(any("=" in t for t in c[0]) for c in cases)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_fixture_carries_the_rules_the_table_page_sends(ruleset):
    assert _fixture(ruleset)["rules"] == api.client_rules(ruleset)


def test_the_client_rules_are_the_ruleset_objects_facts():
    """RULES.md §2-§5: the thresholds and rules the client reads, from one place."""
    okey51, okey17, rami = (api.client_rules(r) for r in ("okey51", "okey17", "rami"))
    assert okey51["opening"] == {"threshold": 51, "pairs": {"count": 5}}
    assert okey17["opening"] == {"threshold": 17, "pairs": {"points": 26}}  # D-11
    assert rami["opening"] == {"threshold": 30, "pairs": None}
    assert okey51["meld"] == {"ace_high": True, "pairs": True, "descending": False, "joker_wild": False,
                              "points": "sum"}
    assert okey17["meld"]["descending"] and okey17["meld"]["points"] == "values"  # D-5, D-6
    assert rami["meld"]["joker_wild"] and not rami["meld"]["pairs"] and rami["wild"] == "J"
    assert (okey51["pairs_in_area"], okey17["pairs_in_area"]) == (False, True)  # D-12
    assert (okey51["round_penalties"], rami["round_penalties"]) == (True, False)
    for rules in (okey51, okey17, rami):
        assert json.loads(json.dumps(rules)) == rules
        assert rules == {**rules, "meld": {k: getattr(api.ruleset(rules["ruleset"]).meld_rules, k)
                                           for k in rules["meld"]}}


def test_the_generator_and_the_engine_import_no_django():
    code = ("import sys, runpy; runpy.run_path('tools/meld_verdicts.py', run_name='x'); "
            "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
