"""A tampered game record fails verification (no database: the records come from
self-play, `selfplay --records`): any changed tile of a deal or any changed seed fails the
standalone checker (`fairdeal.verify_record`, the code of `python3 fairdeal.py`), any
changed move fails the replay check (`replays.replay_check`) and the record loader of the
replay page; honest records pass both."""
import copy
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from games import records, replays
from games.bots.selfplay import play_round
from games.engine import fairdeal

CHECKER = Path(__file__).resolve().parents[2] / "games/engine/fairdeal.py"
RULESETS = ("okey51", "okey17", "rami")
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def honest(ruleset):
    """A self-played round's record (JSON text: each test loads its own copy)."""
    levels = ["normal", "easy", "strong", "normal"]
    result = play_round(ruleset, f"tamper-{ruleset}", levels, first=1, check=False, record=True)
    return json.dumps(records.selfplay_record(result, ruleset))


def fresh(ruleset):
    return json.loads(honest(ruleset))


def deal_fails(record):
    return any(differences for _, differences in fairdeal.verify_record(record))


def replay_fails(record):
    """True when both the replay check and the replay page's loader refuse the record."""
    (entry,) = record["rounds"]
    _positions, problems = replays.replay_check(entry["initial"], entry["moves"], entry["result"])
    try:
        replays.record_replay(replays.load_record(json.dumps(record)))
    except replays.RecordError:
        return bool(problems)
    return False


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_honest_self_played_record_verifies_and_replays(ruleset):
    record = fresh(ruleset)
    assert fairdeal.verify_record(record) == [(1, [])]
    (entry,) = record["rounds"]
    positions, problems = replays.replay_check(entry["initial"], entry["moves"], entry["result"])
    assert problems == [] and len(positions) == len(entry["moves"]) + 1
    replay = replays.record_replay(replays.load_record(honest(ruleset)))
    assert replay["rounds"][0]["verification"] == [] and len(replay["rounds"][0]["frames"]) == len(positions)
    assert all(p["computer"] for p in replay["players"])


def _places(initial):
    """Every tile place of a deal: ("rack", seat, i), ("pile", i), ("indicator",)."""
    out = [("rack", s, i) for s, seat in enumerate(initial["seats"]) for i in range(len(seat["rack"]))]
    out += [("pile", i) for i in range(len(initial["pile"]))]
    return out + ([("indicator",)] if initial.get("indicator") else [])


def _get(initial, place):
    if place[0] == "rack":
        return initial["seats"][place[1]]["rack"][place[2]]
    return initial["pile"][place[1]] if place[0] == "pile" else initial["indicator"]


def _set(initial, place, tile):
    if place[0] == "rack":
        initial["seats"][place[1]]["rack"][place[2]] = tile
    elif place[0] == "pile":
        initial["pile"][place[1]] = tile
    else:
        initial["indicator"] = tile


@FAST
@given(ruleset=st.sampled_from(RULESETS), data=st.data())
def test_any_changed_tile_of_the_deal_fails_the_checker(ruleset, data):
    record = fresh(ruleset)
    initial = record["rounds"][0]["initial"]
    places = _places(initial)
    a = data.draw(st.sampled_from(places))
    if data.draw(st.booleans()):  # another tile in its place
        tiles = sorted(set(fairdeal.tile_set(ruleset, 4)) - {_get(initial, a)})
        _set(initial, a, data.draw(st.sampled_from(tiles)))
    else:  # two tiles exchanged (within one rack the order is the player's own: not part of the deal)
        b = data.draw(st.sampled_from([p for p in places if _get(initial, p) != _get(initial, a)
                                       and not (p[0] == a[0] == "rack" and p[1] == a[1])]))
        ta, tb = _get(initial, a), _get(initial, b)
        _set(initial, a, tb)
        _set(initial, b, ta)
    assert deal_fails(record)


SEED_CHANGES = {
    "server seed": lambda r: r.update(server_seed=fairdeal.server_seed()),
    "server seed and its commitment": lambda r: r.update(server_seed=(s := fairdeal.server_seed()),
                                                         commitment=fairdeal.commitment(s)),
    "commitment": lambda r: r.update(commitment=fairdeal.commitment(fairdeal.server_seed())),
    "a computer's client seed": lambda r: r["client_seeds"].__setitem__(2, "mine"),
    "a client seed not in canonical form": lambda r: r["client_seeds"].__setitem__(0, " x"),
    "round number": lambda r: r.update(number=2),
    "first seat": lambda r: r.update(first=(r["first"] + 1) % 4),
}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("change", sorted(SEED_CHANGES))
def test_any_changed_seed_fails_the_checker(ruleset, change):
    record = fresh(ruleset)
    SEED_CHANGES[change](record["rounds"][0])
    assert deal_fails(record)
    other = fresh(ruleset)
    other["table_id"] = "selfplay2"  # the table id is part of every deal seed
    assert deal_fails(other)
    human = fresh(ruleset)
    human["players"][2]["kind"] = "human"
    human["rounds"][0]["client_seeds"][2] = "mine"  # a player's seed changes the deal
    assert deal_fails(human)


def _tile_actions(moves):
    return [k for k, m in enumerate(moves) if "tile" in m["action"]]


@FAST
@given(ruleset=st.sampled_from(("okey51", "okey17")), data=st.data())
def test_any_changed_move_fails_the_replay_check_and_the_loader(ruleset, data):
    record = fresh(ruleset)
    moves = record["rounds"][0]["moves"]
    kind = data.draw(st.sampled_from(["tile", "seat", "result", "penalty", "drop", "order"]))
    k = data.draw(st.integers(0, len(moves) - 2))
    move = moves[k]
    if kind == "tile":
        k = data.draw(st.sampled_from(_tile_actions(moves)))
        tiles = sorted(set(fairdeal.tile_set(ruleset, 4)) - {moves[k]["action"]["tile"]})
        moves[k]["action"]["tile"] = data.draw(st.sampled_from(tiles))
    elif kind == "seat":
        move["action"]["seat"] = (move["action"]["seat"] + data.draw(st.integers(1, 3))) % 4
    elif kind == "result":
        move["result"] = "playable_discard" if move["result"] == "ok" else "ok"
    elif kind == "penalty":
        if move["penalties"]:
            move["penalties"][0]["amount"] += data.draw(st.integers(1, 500))
        else:
            move["penalties"].append({"seat": move["seat"], "amount": 100, "reason": "penalty_tile",
                                      "tile": None, "by": None})
    elif kind == "drop":
        del moves[k]
    else:
        moves[k], moves[k + 1] = moves[k + 1], moves[k]
        if moves[k]["action"]["seat"] == moves[k + 1]["action"]["seat"] and moves[k] == moves[k + 1]:
            return  # two identical moves exchanged: nothing changed
    assert replay_fails(record)


def test_the_command_line_checker_names_a_tampered_tile(tmp_path):
    record = fresh("okey51")
    initial = record["rounds"][0]["initial"]
    rack, top = initial["seats"][0]["rack"], initial["pile"][0]
    i = next(i for i, tile in enumerate(rack) if tile != top)
    initial["pile"][0], rack[i] = rack[i], top  # the deal a cheating server might have preferred
    path = tmp_path / "tampered.jsonl"
    path.write_text(honest("okey51") + "\n" + json.dumps(record) + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-I", str(CHECKER), str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1 and lines[0] == "record 1: round 1: verified"
    assert lines[1].startswith("record 2: round 1: seat 0 rack differs: ")
    assert "pile differs from position 0" in lines[1]


@pytest.mark.parametrize("change, says", [
    (lambda r: r.update(format="okeysite-record-0"), "not an okeysite-record-1 game record"),
    (lambda r: r.update(ruleset="chess"), "is not one this site plays"),
    (lambda r: r.update(players=r["players"][:1]), "one player per seat"),
    (lambda r: r["players"][1].update(kind="robot"), "player 2 of the record is malformed"),
    (lambda r: r.update(rounds=[]), "has no rounds"),
    (lambda r: r["rounds"][0].update(first="0"), "no number or first seat"),
    (lambda r: r["rounds"][0].update(moves={}), "the moves are not a list"),
    (lambda r: r["rounds"][0]["moves"][0].update(action="draw"), "a move is malformed"),
    (lambda r: r["rounds"][0]["initial"]["seats"][0]["rack"].append("R1"), "not a fresh deal of the whole set"),
    (lambda r: r["rounds"][0]["initial"]["seats"][0]["rack"].__setitem__(0, "X9"), "not a fresh deal"),
    (lambda r: r["rounds"][0]["initial"].update(ruleset="rami"), "not a position of this game"),
    (lambda r: r["rounds"][0]["initial"].update(seats="none"), "no rack per seat"),
    (lambda r: r["rounds"][0]["initial"].update(options={"rounds": 2}), "options this game does not have"),
    (lambda r: r["rounds"][0].update(moves=r["rounds"][0]["moves"] * 80), "more than 5000 moves"),
])
def test_the_loader_refuses_a_malformed_record_with_the_reason(change, says):
    record = fresh("okey51")
    change(record)
    with pytest.raises(replays.RecordError, match=says):
        replays.load_record(json.dumps(record))


@pytest.mark.parametrize("data, says", [
    (b"{oops", "not JSON"), (b"\xff\xfe", "not JSON"), (b"[1, 2]", "not an okeysite-record-1"),
    (b" " * (replays.MAX_RECORD_BYTES + 1), "larger than 4 MB"),
])
def test_the_loader_refuses_what_is_not_a_record(data, says):
    with pytest.raises(replays.RecordError, match=says):
        replays.load_record(data)


def test_a_move_that_does_not_replay_is_named():
    record = fresh("okey51")
    moves = record["rounds"][0]["moves"]
    moves[5] = copy.deepcopy(moves[5])
    moves[5]["action"]["seat"] = (moves[5]["action"]["seat"] + 1) % 4
    with pytest.raises(replays.RecordError, match=r"round 1: move 6 does not replay: the engine answers "
                                                  r"not_your_turn, the record says ok"):
        replays.record_replay(replays.load_record(json.dumps(record)))


def test_a_deal_missing_what_the_engine_needs_is_refused_not_a_crash():
    record = fresh("okey51")
    del record["rounds"][0]["initial"]["phase"]  # a whole set, but no phase: the engine cannot play it
    with pytest.raises(replays.RecordError, match="round 1: "):
        replays.record_replay(replays.load_record(json.dumps(record)))
    assert replays.replay_check(record["rounds"][0]["initial"], ["draw"])[1] == [
        "move 1 does not replay: a move is a JSON object"]
