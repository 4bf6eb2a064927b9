"""One grammar for game records (docs/fair-deals.md §6a): the malformed records of
tests/fixtures/malformed_records.json are refused by the Python checker with the reason
the file names (tests/js/record-grammar.test.mjs holds the browser's checker to the same
file), the kept ones are read, and the command line refuses them too."""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import fairdeal

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = json.loads((ROOT / "tests/fixtures/malformed_records.json").read_text(encoding="utf-8"))
PLACEHOLDER = "@@raw@@"


def case_text(case):
    """The record text of a fixture case: its whole `text`, or its base with one change."""
    if "text" in case:
        return case["text"]
    record = copy.deepcopy(FIXTURE["bases"][case["base"]])
    how = next((k for k in ("set", "delete", "upper") if k in case), None)
    if how is None:
        return json.dumps(record)
    *path, last = case[how]
    container = record
    for key in path:
        container = container[key]
    if how == "set":
        container[last] = PLACEHOLDER
    elif how == "delete":
        del container[last]
    else:
        container[last] = container[last].upper()
    text = json.dumps(record)
    return text.replace(json.dumps(PLACEHOLDER), case["raw"], 1) if how == "set" else text


def test_the_bases_verify_so_each_case_fails_by_its_change_alone():
    for name, base in FIXTURE["bases"].items():
        assert fairdeal.verify_record(fairdeal.parse_record_text(json.dumps(base))) == \
            [(base["rounds"][0]["number"], [])], name
    assert {c["base"] for c in FIXTURE["cases"]} == set(FIXTURE["bases"])


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["name"])
def test_a_malformed_record_is_refused_with_its_reason(case):
    assert fairdeal.record_fault(case_text(case)) == case["expect"]


@pytest.mark.parametrize("case", FIXTURE["kept"], ids=lambda c: c["name"])
def test_a_well_formed_record_is_read(case):
    assert fairdeal.record_fault(case_text(case)) is None


def test_every_reason_of_the_grammar_has_a_case():
    reasons = {c["expect"] for c in FIXTURE["cases"]}
    assert reasons >= {"not_json", "too_deep", "not_integer", "integer_range", "duplicate_key", "not_record",
                       "missing_key", "bad_kind", "bad_ruleset", "bad_players", "bad_table_id", "bad_number",
                       "bad_first", "not_object", "bad_hex", "seed_text", "client_seed_count"}


def test_python_reads_1_0_as_a_float_so_the_hooks_are_what_refuse_it():
    # the default reader would take 1.0 == 1 and verify the round: the grammar must say no
    case = next(c for c in FIXTURE["cases"] if c["name"] == "a round number written 1.0")
    record = json.loads(case_text(case))
    assert record["rounds"][0]["number"] == 1 and isinstance(record["rounds"][0]["number"], float)
    with pytest.raises(fairdeal.RecordError) as caught:
        fairdeal.parse_record_text(case_text(case))
    assert caught.value.reason == "not_integer"


@pytest.mark.parametrize("name,status,reason", [
    ("a round number written 1.0", 2, "not_integer"),
    ("format twice", 2, "duplicate_key"),
    ("objects nested 65 deep", 2, "too_deep"),
    ("the commitment in upper case", 1, "bad_hex"),
    ("a chained seed with a letter outside ASCII", 1, "seed_text"),
])
def test_the_command_line_refuses_a_malformed_record(tmp_path, name, status, reason):
    case = next(c for c in FIXTURE["cases"] if c["name"] == name)
    path = tmp_path / "record.json"
    path.write_text(case_text(case), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-I", str(ROOT / "games/engine/fairdeal.py"), str(path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == status
    assert f"({reason})" in proc.stdout + proc.stderr


def test_json_lines_are_read_with_the_same_grammar():
    base = json.dumps(FIXTURE["bases"]["shuffle-2"])
    assert len(fairdeal.read_records(base + "\n" + base + "\n")) == 2
    with pytest.raises(fairdeal.RecordError) as caught:
        fairdeal.read_records(base + "\n" + base.replace('"first": 1', '"first": 1.0') + "\n")
    assert caught.value.reason == "not_integer"


def test_the_checker_and_the_sites_text_rule_refuse_the_same_code_points():
    from games.engine import text_rules
    refused = [c for c in range(0x110000) if fairdeal._refused_code_point(c)]
    assert refused == [c for c in range(0x110000) if text_rules.refused_code_point(c)]
    assert {0x00, 0x1F, 0x7F, 0x9F, 0xD800, 0xDFFF, 0xFDD0, 0xFFFE, 0xFFFF, 0x10FFFF} <= set(refused)
    assert 0x20 not in refused and 0xA0 not in refused and 0xFFFD not in refused
