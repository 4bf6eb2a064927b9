"""The ``selfplay`` command runs computer-only rounds on the engine without the
database and reports zero invariant violations (tile conservation, valid melds)."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from games.bots.invariants import violations
from games.engine import api
from tests.deals import text_deal


@pytest.mark.parametrize("ruleset", api.RULESETS)
def test_selfplay_smoke_has_no_violations(ruleset):
    out, err = io.StringIO(), io.StringIO()
    call_command("selfplay", ruleset=ruleset, rounds=20, seats="strong,normal,normal,easy",
                 seed="smoke", stdout=out, stderr=err)
    text = out.getvalue()
    assert re.search(r"^rounds run: 20$", text, re.M), text
    assert re.search(r"^invariant violations: 0$", text, re.M), text
    assert re.search(r"^illegal bot actions: 0$", text, re.M), text
    for level in ("strong", "normal", "easy"):
        assert re.search(rf"^{level}\s+\d+\s+-?\d", text, re.M), text
    assert "20/20 rounds" in err.getvalue()


def test_invariants_catch_a_lost_tile_and_an_invalid_meld():
    pos = text_deal("okey51", "inv")
    assert violations(pos) == []
    lost = {**pos, "pile": pos["pile"][1:]}
    assert any("conservation" in v for v in violations(lost))
    moved = {**pos, "seats": [dict(s) for s in pos["seats"]]}
    bad = moved["seats"][0]["rack"][:3]
    moved["seats"][0]["rack"] = moved["seats"][0]["rack"][3:]
    moved["table"] = [{"id": 1, "owner": 0, "tiles": bad}]
    if not api.meld_info("okey51", bad, pos["indicator"])["valid"]:
        assert any("invalid meld" in v for v in violations(moved))
    rami = text_deal("rami", "inv")
    assert violations(rami) == []
    broken = {**rami, "table": [["R1", "B2", "K3"]]}
    assert any("invalid meld" in v for v in violations(broken))


def test_selfplay_passes_table_options_and_refuses_bad_ones():
    from django.core.management.base import CommandError
    out = io.StringIO()
    call_command("selfplay", ruleset="rami", rounds=4, seats="strong,normal,normal,easy", seed="opts",
                 options='{"joker_value": 50, "double_one_turn": true}', stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert 'options {"double_one_turn": true, "joker_value": 50}' in text, text
    assert re.search(r"^invariant violations: 0$", text, re.M), text
    for bad, says in (('{"joker_value": 7}', "joker_value"), ("[1]", "JSON object"), ("{oops", "not JSON")):
        with pytest.raises(CommandError, match=says):
            call_command("selfplay", ruleset="rami", rounds=1, seats="strong,normal,normal,easy",
                         options=bad, stdout=io.StringIO(), stderr=io.StringIO())


def test_selfplay_records_verify_with_the_standalone_checker_and_replay(tmp_path):
    from games.replays import replay_check

    path = tmp_path / "selfplay.jsonl"
    call_command("selfplay", ruleset="okey17", rounds=3, seats="strong,normal,normal,easy", seed="records",
                 records=str(path), stdout=io.StringIO(), stderr=io.StringIO())
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 3 and [r["rounds"][0]["first"] for r in records] == [0, 1, 2]
    assert [p["level"] for p in records[0]["players"]] == ["strong", "normal", "normal", "easy"]
    checker = Path(__file__).resolve().parents[2] / "games/engine/fairdeal.py"
    proc = subprocess.run([sys.executable, "-I", str(checker), str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == [f"record {k}: round 1: verified" for k in (1, 2, 3)]
    for record in records:
        (entry,) = record["rounds"]
        assert replay_check(entry["initial"], entry["moves"], entry["result"])[1] == []
