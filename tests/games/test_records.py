"""Game records (docs/game-record.md) built from the stored rows: what they hold, that
they verify with the standalone checker and replay with the engine, that a running round
is never in one, the match page's download, `export_games` and the legacy rounds."""
import io
import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone as dt_timezone
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import records, replays
from games.engine import api, fairdeal
from games.models import LEGACY_SHUFFLE, Match, Move, Round, Seat
from games.play import tables
from tests.games.play.helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True)

CHECKER = Path(__file__).resolve().parents[2] / "games/engine/fairdeal.py"


def solo(user, ruleset="okey51", options=None, level="easy"):
    """A solo table of `user` whose seat a computer plays too (autoplay)."""
    table = tables.create_table(user, ruleset, options or {}, mode="solo", bot_level=level)
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    return table


def check(path, tmp_path):
    """Run the standalone checker as a player would: `python3 -I fairdeal.py FILE`."""
    proc = subprocess.run([sys.executable, "-I", str(CHECKER), str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    return proc.returncode, proc.stdout.splitlines()


def test_a_record_holds_the_finished_rounds_with_their_seeds_moves_and_results(alice, client, tmp_path):
    table = solo(alice, options={"rounds": 3})
    game = play_out(table, until=lambda g: g.round.index == 1)  # round 1 over, round 2 just dealt
    match = Match.objects.get(table=table)
    first, running = Round.objects.filter(match=match).order_by("index")
    record = records.match_record(match)

    assert record["format"] == "okeysite-record-1" and record["ruleset"] == "okey51"
    assert record["table_id"] == str(table.pk) and record["mode"] == "solo" and record["move_time"] == table.move_time
    assert record["options"] == {"doubling": True, "teams": False, "rounds": 3}
    assert record["players"] == [
        {"seat": 0, "kind": "human", "name": "alice", "level": None},
        *({"seat": s, "kind": "computer", "name": f"Computer {s + 1} · easy", "level": "easy"} for s in (1, 2, 3))]
    assert record["started"].endswith("Z") and record["finished"] is None and record["standings"] is None
    assert record["totals"] == match.totals == first.totals

    (entry,) = record["rounds"]  # the running round is not in the record
    assert entry["number"] == 1 and entry["shuffle"] == fairdeal.SHUFFLE_2 and entry["first"] == 0
    assert entry["chain_tip"] == table.chain_tip and fairdeal.chain_reaches(first.server_seed, 1, table.chain_tip)
    assert entry["server_seed"] == first.server_seed and entry["commitment"] == fairdeal.commitment(first.server_seed)
    assert entry["client_seeds"] == ["", "", "", ""] and entry["initial"] == first.initial_position
    moves = list(Move.objects.filter(round=first).order_by("number"))
    assert [(m["number"], m["seat"], m["actor"], m["action"], m["result"], m["penalties"]) for m in entry["moves"]] == [
        (m.number, m.seat, m.actor, m.action, m.result, m.events) for m in moves]
    assert {m["actor"] for m in entry["moves"]} <= {"computer", "timeout"}  # alice's seat was played for her
    assert entry["result"] == {"end": first.result, "scores": first.scores, "penalties": first.penalties,
                               "totals": first.totals}
    text = json.dumps(record)
    assert running.server_seed not in text and json.dumps(running.initial_position["pile"]) not in text

    # the engine replays it to the stored end; the standalone checker verifies the deal
    positions, problems = replays.replay_check(entry["initial"], entry["moves"], entry["result"])
    assert problems == [] and positions[-1] == first.final_position
    assert fairdeal.verify_record(record) == [(1, [])]
    response = client.get(f"/table/{table.pk}/record/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="okeysite-table-{table.pk}.json"'
    assert json.loads(response.content) == json.loads(json.dumps(record))
    path = tmp_path / "downloaded.json"
    path.write_bytes(response.content)
    assert check(path, tmp_path) == (0, ["round 1: verified"])
    assert game.round_id == running.pk


def test_there_is_no_record_to_download_before_a_round_is_over(alice, client):
    table = solo(alice)
    assert client.get(f"/table/{table.pk}/record/").status_code == 404
    assert records.match_record(Match.objects.get(table=table))["rounds"] == []
    assert client.get("/table/999999/record/").status_code == 404


def test_export_games_writes_the_matches_finished_in_the_period_one_per_line(alice, bob, tmp_path):
    okey, rami = solo(alice), solo(bob, "rami", {"rounds": 1})
    play_out(okey)
    play_out(rami)
    early = Match.objects.get(table=okey)
    Match.objects.filter(pk=early.pk).update(finished=datetime(2025, 3, 31, 23, 59, tzinfo=dt_timezone.utc))
    Match.objects.filter(table=rami).update(finished=datetime(2025, 4, 1, 0, 0, tzinfo=dt_timezone.utc))
    unfinished = solo(alice)  # a running match is never exported

    out = tmp_path / "march.jsonl"
    err = io.StringIO()
    call_command("export_games", "--since", "2025-03-01", "--until", "2025-03-31", str(out), stderr=err)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["table_id"] for line in lines] == [str(okey.pk)]
    assert "1 match(es)" in err.getvalue()

    both = tmp_path / "both.jsonl"
    call_command("export_games", "--since", "2025-03-31", "--until", "2025-04-01T00:00:01Z", str(both),
                 stderr=io.StringIO())
    exported = [json.loads(line) for line in both.read_text(encoding="utf-8").splitlines()]
    assert [r["table_id"] for r in exported] == [str(okey.pk), str(rami.pk)]
    assert str(unfinished.pk) not in [r["table_id"] for r in exported]
    assert all(r["finished"] for r in exported) and exported[1]["ruleset"] == "rami"
    code, said = check(both, tmp_path)
    assert (code, said) == (0, ["record 1: round 1: verified", "record 2: round 1: verified"])

    only = tmp_path / "rami.jsonl"
    call_command("export_games", "--since", "2025-01-01", "--until", "2025-12-31", "--ruleset", "rami", str(only),
                 stderr=io.StringIO())
    assert [json.loads(line)["ruleset"] for line in only.read_text(encoding="utf-8").splitlines()] == ["rami"]


@pytest.mark.parametrize("since, until, says", [
    ("March", "2025-03-31", "dates"), ("2025-03-31", "2025-03-01", "before --since"),
])
def test_export_games_refuses_a_bad_period(tmp_path, since, until, says):
    with pytest.raises(CommandError, match=says):
        call_command("export_games", "--since", since, "--until", until, str(tmp_path / "x.jsonl"))


def test_a_legacy_round_says_it_was_dealt_before_verifiable_deals(alice, tmp_path):
    table = solo(alice)
    play_out(table)
    rnd = Round.objects.get(match__table=table)
    Round.objects.filter(pk=rnd.pk).update(algorithm=LEGACY_SHUFFLE, client_seeds=[])
    record = records.match_record(Match.objects.get(table=table))
    assert record["rounds"][0]["shuffle"] == "okeysite-legacy"
    assert fairdeal.verify_record(record) == [(1, [{"code": "legacy"}])]
    out = io.StringIO()
    call_command("verify_round", rnd.pk, stdout=out)  # the moves still replay: nothing fails
    assert "dealt before verifiable deals" in out.getvalue() and "moves verified" in out.getvalue()
    path = tmp_path / "legacy.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    code, said = check(path, tmp_path)
    assert code == 1 and said == ["round 1: dealt before verifiable deals: this round has no commitment and seeds "
                                  "to check its deal against"]


def test_a_record_written_twice_is_the_same_whatever_the_language(alice, client):
    table = solo(alice)
    play_out(table)
    match = Match.objects.get(table=table)
    from django.utils import translation

    with translation.override("tr"):
        turkish = records.match_record(match)
    assert turkish == records.match_record(match)
    assert turkish["players"][1]["name"] == "Computer 2 · easy"
    assert api.round_totals(Round.objects.get(match=match).final_position) == turkish["rounds"][0]["result"]["totals"]


def test_move_events_logged_before_moves_kept_them_come_from_the_replay(alice):
    table = solo(alice)
    play_out(table)
    rnd = Round.objects.get(match__table=table)
    kept = [m["penalties"] for m in records.stored_moves(rnd)]
    Move.objects.filter(round=rnd).update(events=None)
    assert [m["penalties"] for m in records.stored_moves(rnd)] == kept


def test_the_record_dates_are_utc_with_a_z():
    moment = datetime(2025, 3, 14, 20, 2, 11, 999, tzinfo=dt_timezone(timedelta(hours=1)))
    assert records.iso(moment) == "2025-03-14T19:02:11Z" and records.iso(None) is None
