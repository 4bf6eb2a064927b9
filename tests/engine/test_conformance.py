"""The conformance runner (RULES.md §8) on the shared vectors and on bad input."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"


def run(*files):
    proc = subprocess.run([sys.executable, "-m", "games.engine.conformance", *map(str, files)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout.strip().splitlines()


def test_the_shared_vectors_all_pass():
    files = sorted((SHARED / "conformance").glob("*.jsonl"))
    if not files:
        pytest.fail(f"no conformance vectors in {SHARED / 'conformance'}")
    code, lines = run(*files)
    assert code == 0, "\n".join(lines)
    assert lines[-1].split(",")[1].strip() == "0 failed"
    assert not any(line.startswith("FAIL") for line in lines)


def test_it_reports_malformed_and_failing_vectors_without_crashing(tmp_path):
    good = {"id": "ok-pair", "kind": "meld", "ruleset": "okey51", "indicator": "R5", "tiles": ["B9", "B9"],
            "expect": {"valid": True, "type": "pair", "points": 18}}
    wrong = dict(good, id="wrong-points", expect={"valid": True, "type": "pair", "points": 9})
    crash = {"id": "bad-position", "kind": "game", "position": {"ruleset": "okey51", "seats": []},
             "actions": [{"seat": 0, "type": "draw"}], "expect": {"results": ["ok"]}}
    lines = [json.dumps(good), "{not json", json.dumps({"id": "no-kind"}), json.dumps(wrong),
             json.dumps([1, 2]), json.dumps(crash), ""]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(lines))
    code, out = run(path)
    assert code == 1
    assert out[-1] == "1 passed, 5 failed"
    failing = [line for line in out if line.startswith("FAIL")]
    assert len(failing) == 5
    assert any("wrong-points" in line and "expected" in line for line in failing)
    assert any("not JSON" in line for line in failing)


def test_it_checks_game_vector_scores(tmp_path):
    vector = {"id": "end", "kind": "game", "position": {
        "ruleset": "okey51", "options": {}, "indicator": "R5", "turn": 0, "phase": "play", "pile": ["K3"],
        "discards": [[], []], "seats": [{"rack": ["B4"], "opened": "melds", "penalty": 0},
                                        {"rack": ["K1", "K2"], "opened": "melds", "penalty": 0}],
        "table": [], "highest_opening": None},
        "actions": [{"seat": 0, "type": "discard", "tile": "B4"}],
        "expect": {"results": ["ok"], "penalty": [0, 0], "scores": [-500, 15]}}
    path = tmp_path / "end.jsonl"
    path.write_text(json.dumps(vector) + "\n" + json.dumps(dict(vector, id="end-wrong", expect=dict(
        vector["expect"], scores=[-500, 14]))))
    code, out = run(path)
    assert code == 1 and out[-1] == "1 passed, 1 failed" and "end-wrong" in out[0]


def test_a_missing_file_is_a_failure(tmp_path):
    code, out = run(tmp_path / "absent.jsonl")
    assert code == 1 and out[-1] == "0 passed, 1 failed"


def test_a_game_vector_ending_the_round_without_scores_is_malformed(tmp_path):
    vector = {"id": "ends-unscored", "kind": "game", "position": {
        "ruleset": "okey51", "options": {}, "indicator": "R5", "turn": 0, "phase": "play", "pile": ["K3"],
        "discards": [[], []], "seats": [{"rack": ["B4"], "opened": "melds", "penalty": 0},
                                        {"rack": ["K1", "K2"], "opened": "melds", "penalty": 0}],
        "table": [], "highest_opening": None},
        "actions": [{"seat": 0, "type": "discard", "tile": "B4"}], "expect": {"results": ["ok"], "penalty": [0, 0]}}
    running = dict(vector, id="still-running", position=dict(vector["position"], seats=[
        {"rack": ["B4", "B9"], "opened": "melds", "penalty": 0}, {"rack": ["K1"], "opened": "melds", "penalty": 0}]),
        actions=[{"seat": 0, "type": "discard", "tile": "B4"}])
    path = tmp_path / "unscored.jsonl"
    path.write_text(json.dumps(vector) + "\n" + json.dumps(running) + "\n")
    code, out = run(path)
    assert code == 1 and out[-1] == "1 passed, 1 failed"
    assert out[0].startswith("FAIL ends-unscored: malformed vector:") and "scores" in out[0]
