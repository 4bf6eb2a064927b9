"""The okeysite-shuffle-1 deal (docs/fair-deals.md): the spec's vectors, the deal's shape
against the engine's, tampered rounds, the standalone checker and the browser module."""
import ast
import copy
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from games.engine import api, fairdeal
from games.engine.tiles import full_set

ROOT = Path(__file__).resolve().parents[2]
VECTORS = Path(__file__).with_name("vectors")
SPEC = json.loads((VECTORS / "fairdeal.json").read_text(encoding="utf-8"))
SEATS = {"okey51": (2, 3, 4), "okey17": (2, 3, 4), "rami": (2, 3, 4, 5, 6)}


def make_round(ruleset, players, first, server, number, table_id, seeds, kinds=None):
    """A round record and its header as the export writes them (docs/game-record.md)."""
    kinds = kinds or ["human" if seed else "computer" for seed in seeds]
    deal = fairdeal.layout(ruleset, players, first, fairdeal.deal_seed(server, number, table_id, seeds))
    initial = {"ruleset": ruleset, "turn": first, "pile": deal["pile"],
               "seats": [{"rack": rack, "opened": "no", "penalty": 0} for rack in deal["racks"]]}
    if deal["indicator"] is not None:
        initial["indicator"] = deal["indicator"]
    header = {"format": fairdeal.RECORD_FORMAT, "ruleset": ruleset, "table_id": table_id,
              "players": [{"seat": s, "kind": k, "name": f"p{s}", "level": None if k == "human" else "normal"}
                          for s, k in enumerate(kinds)]}
    round_record = {"number": number, "shuffle": fairdeal.ALGORITHM, "first": first,
                    "commitment": fairdeal.commitment(server), "server_seed": server,
                    "client_seeds": list(seeds), "initial": initial, "moves": [], "result": None}
    return round_record, header


# ------------------------------------------------------------------ the vectors

def test_the_commitment_vectors():
    for v in SPEC["commitments"]:
        assert fairdeal.commitment(v["server_seed"]) == v["commitment"]


def test_the_client_seed_vectors():
    for v in SPEC["client_seeds"]:
        if "error" in v:
            with pytest.raises(ValueError):
                fairdeal.normalise_client_seed(v["input"])
        else:
            assert fairdeal.normalise_client_seed(v["input"]) == v["output"]


@pytest.mark.parametrize("v", SPEC["deals"], ids=lambda v: v["name"])
def test_the_deal_vectors(v):
    assert fairdeal.commitment(v["server_seed"]) == v["commitment"]
    assert fairdeal.deal_message(v["round"], v["table_id"], v["client_seeds"]).hex() == v["message_hex"]
    seed = fairdeal.deal_seed(v["server_seed"], v["round"], v["table_id"], v["client_seeds"])
    assert seed == v["deal_seed"]
    assert fairdeal.stream_bytes(seed, 64).hex() == v["stream_hex"]
    tiles = fairdeal.tile_set(v["ruleset"], v["players"])
    js, rejected = fairdeal.swap_indices(len(tiles), seed)
    assert js == v["swaps"] and [list(r) for r in rejected] == v["rejected"]
    assert fairdeal.shuffle(tiles, seed) == v["shuffled"]
    assert fairdeal.layout(v["ruleset"], v["players"], v["first"], seed) == v["layout"]


def test_the_vectors_pin_a_rejected_draw_and_an_indicator_redraw():
    assert any(v["rejected"] for v in SPEC["deals"])
    okey = [v for v in SPEC["deals"] if v["ruleset"] != "rami"]
    assert any(v["layout"]["pile"][0] == "F" for v in okey)
    for v in SPEC["deals"]:
        assert sorted(v["shuffled"]) == sorted(fairdeal.tile_set(v["ruleset"], v["players"]))


def test_the_spec_page_shows_the_same_vectors():
    page = (ROOT / "docs/fair-deals.md").read_text(encoding="utf-8")
    words, packed = " ".join(page.split()), "".join(page.split())
    for v in SPEC["deals"]:
        for value in (v["commitment"], v["deal_seed"], v["server_seed"]):
            assert f"`{value}`" in page, v["name"]
        assert v["message_hex"] in packed and v["stream_hex"] in packed
        assert " ".join(v["shuffled"]) in words and " ".join(v["layout"]["pile"]) in words
        assert all(" ".join(rack) in words for rack in v["layout"]["racks"])


# ------------------------------------------------------- the deal's shape and limits

@pytest.mark.parametrize("ruleset", sorted(SEATS))
def test_the_set_before_the_shuffle_is_the_engines_full_set(ruleset):
    for players in SEATS[ruleset]:
        assert fairdeal.tile_set(ruleset, players) == full_set(ruleset, players)


@pytest.mark.parametrize("ruleset", sorted(SEATS))
def test_the_engine_deals_the_layout_of_the_deal_seed(ruleset):
    # the round a checker recomputes is the position the engine starts from, for every table size and first seat
    for players in SEATS[ruleset]:
        for first in range(players):
            seed = fairdeal.deal_seed(fairdeal.seed_from_text(f"{ruleset}-{players}-{first}"), 1, "7", [""] * players)
            dealt = api.deal(ruleset, {}, seed, players=players, first=first)
            mine = fairdeal.layout(ruleset, players, first, seed)
            assert mine["racks"] == [s["rack"] for s in dealt["seats"]]
            assert mine["pile"] == dealt["pile"]
            assert mine["indicator"] == dealt.get("indicator")
            assert dealt["turn"] == first and dealt["ruleset"] == ruleset


@pytest.mark.parametrize("seed", ["", "x" * 63, "X" * 64, "g" * 64, 42, None])
def test_the_engine_refuses_a_deal_seed_that_is_not_64_lowercase_hex(seed):
    with pytest.raises(ValueError, match="deal seed"):
        api.deal("okey51", {}, seed)


def test_nothing_in_the_engine_draws_from_random():
    # every tile order comes from the round's deal seed (ARCHITECTURE.md invariant 4)
    for path in sorted((ROOT / "games/engine").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module]
        assert not [name for name in names if name.split(".")[0] == "random"], path


def test_a_text_seed_always_gives_the_same_server_seed_and_two_texts_differ():
    assert fairdeal.seed_from_text("selfplay-1") == fairdeal.seed_from_text("selfplay-1")
    assert fairdeal.seed_from_text("selfplay-1") != fairdeal.seed_from_text("selfplay-2")
    assert fairdeal.commitment(fairdeal.seed_from_text("é")) == fairdeal.commitment(fairdeal.seed_from_text("é"))
    with pytest.raises(ValueError):
        fairdeal.seed_from_text(7)


def test_a_shuffle_is_a_permutation_and_leaves_its_input_alone():
    seed = SPEC["deals"][0]["deal_seed"]
    tiles = fairdeal.tile_set("rami", 6)
    before = list(tiles)
    shuffled = fairdeal.shuffle(tiles, seed)
    assert tiles == before and shuffled != before and sorted(shuffled) == sorted(before)


def test_the_deal_seed_depends_on_every_input():
    v = SPEC["deals"][0]
    base = (v["server_seed"], v["round"], v["table_id"], v["client_seeds"])
    seeds = {fairdeal.deal_seed(*base)}
    seeds.add(fairdeal.deal_seed(fairdeal.server_seed(), *base[1:]))
    seeds.add(fairdeal.deal_seed(base[0], base[1] + 1, *base[2:]))
    seeds.add(fairdeal.deal_seed(base[0], base[1], base[2] + "0", base[3]))
    seeds.add(fairdeal.deal_seed(*base[:3], base[3][1:] + base[3][:1]))  # same seeds, other seats
    seeds.add(fairdeal.deal_seed(*base[:3], ["", "", "", ""]))
    assert len(seeds) == 6


@pytest.mark.parametrize("args, message", [
    (("X" * 64, 1, "1", ["", ""]), "server seed"),
    (("ab" * 31, 1, "1", ["", ""]), "server seed"),
    (("a" * 64, 0, "1", ["", ""]), "round number"),
    (("a" * 64, 2 ** 32, "1", ["", ""]), "round number"),
    (("a" * 64, True, "1", ["", ""]), "round number"),
    (("a" * 64, 1, "", ["", ""]), "table id"),
    (("a" * 64, 1, 42, ["", ""]), "table id"),
    (("a" * 64, 1, "t/1", ["", ""]), "table id"),
    (("a" * 64, 1, "1", [""]), "2 to 6 client seeds"),
    (("a" * 64, 1, "1", ["a\u0007", ""]), "seat 0 is refused"),
    (("a" * 64, 1, "1", ["", " x"]), "seat 1 is refused"),
    (("a" * 64, 1, "1", ["", "a\tb"]), r"seat 1 is refused \(a client seed may not hold U\+0009\)"),
])
def test_a_deal_seed_refuses_bad_inputs_with_a_clear_error(args, message):
    with pytest.raises(ValueError, match=message):
        fairdeal.deal_seed(*args)


@pytest.mark.parametrize("call", [
    lambda: fairdeal.tile_set("chess", 4), lambda: fairdeal.tile_set("okey51", 5),
    lambda: fairdeal.tile_set("rami", 7), lambda: fairdeal.arrange("okey17", 4, 4, full_set("okey17")),
    lambda: fairdeal.arrange("rami", 6, 0, full_set("rami", 4)), lambda: fairdeal.shuffle(["R1"], "00"),
])
def test_bad_deal_arguments_are_refused(call):
    with pytest.raises(ValueError):
        call()


def test_fresh_seeds_have_the_documented_shape():
    servers = {fairdeal.server_seed() for _ in range(50)}
    clients = {fairdeal.client_seed() for _ in range(50)}
    assert len(servers) == len(clients) == 50
    assert all(len(s) == 64 and int(s, 16) >= 0 and s == s.lower() for s in servers)
    assert all(len(s) == 32 and fairdeal.normalise_client_seed(s) == s for s in clients)


# ------------------------------------------------------------------ verification

def test_an_honest_round_is_verified():
    v = SPEC["deals"][0]
    round_record, header = make_round(v["ruleset"], v["players"], v["first"], v["server_seed"], v["round"],
                                      v["table_id"], v["client_seeds"])
    assert fairdeal.verify_round(round_record, header) == []


def test_a_rack_in_another_order_is_still_the_dealt_rack():
    round_record, header = make_round("rami", 4, 1, "b" * 64, 2, "9", ["x", "", "y", "z"])
    round_record["initial"]["seats"][2]["rack"].sort()
    assert fairdeal.verify_round(round_record, header) == []


def test_it_names_the_seat_and_tiles_of_a_changed_rack():
    round_record, header = make_round("okey51", 4, 0, "c" * 64, 1, "7", ["me", "", "", ""])
    seats, pile = round_record["initial"]["seats"], round_record["initial"]["pile"]
    i = next(k for k, t in enumerate(seats[1]["rack"]) if t != pile[0])
    dealt, taken = seats[1]["rack"][i], pile[0]
    seats[1]["rack"][i], pile[0] = pile[0], seats[1]["rack"][i]
    differences = fairdeal.verify_round(round_record, header)
    assert differences == [
        {"code": "rack", "seat": 1, "missing": [dealt], "extra": [taken]},
        {"code": "pile", "index": 0, "expected": taken, "recorded": dealt, "expected_count": 48, "recorded_count": 48},
    ]
    assert fairdeal.describe(differences[0]) == (
        f"seat 1 rack differs: dealt {dealt} not recorded, recorded {taken} not dealt")


def test_a_computer_seat_with_a_client_seed_fails():
    # the server picks a computer's seed: it could try seeds until the deal suits it
    round_record, header = make_round("okey17", 4, 0, "d" * 64, 1, "3", ["me", "", "mine", ""],
                                      kinds=["human", "computer", "computer", "computer"])
    assert fairdeal.verify_round(round_record, header) == [{"code": "computer_seed", "seat": 2, "recorded": "mine"}]


def test_a_browser_checks_the_commitment_it_was_shown_and_the_seed_it_sent():
    round_record, header = make_round("okey51", 4, 3, "a" * 64, 2, "88", ["mine", "", "theirs", ""])
    seen = {"seat": 0, "commitment": round_record["commitment"], "client_seed": "mine"}
    assert fairdeal.verify_round(round_record, header, seen) == []
    # a server that showed one commitment and dealt with another seed, or replaced a player's seed
    other = fairdeal.server_seed()
    swapped = dict(round_record, server_seed=other, commitment=fairdeal.commitment(other))
    assert fairdeal.verify_round(swapped, header, seen)[0] == {
        "code": "shown_commitment", "expected": seen["commitment"], "recorded": swapped["commitment"]}
    assert fairdeal.verify_round(round_record, header, dict(seen, client_seed="mine too")) == [
        {"code": "own_client_seed", "seat": 0, "expected": "mine too", "recorded": "mine"}]
    assert [d["code"] for d in fairdeal.verify_round(round_record, header, dict(seen, seat=4))] == ["bad_record"]


def test_an_unknown_algorithm_or_unrevealed_seed_is_not_verified():
    round_record, header = make_round("okey51", 2, 1, "e" * 64, 1, "3", ["a", "b"])
    later = dict(round_record, shuffle="okeysite-shuffle-3")
    assert [d["code"] for d in fairdeal.verify_round(later, header)] == ["unknown_shuffle"]
    hidden = dict(round_record, server_seed=None)
    assert [d["code"] for d in fairdeal.verify_round(hidden, header)] == ["not_revealed"]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(key=st.sampled_from(["number", "shuffle", "first", "commitment", "server_seed", "client_seeds", "initial"]),
       value=JSON, header_key=st.sampled_from([None, "ruleset", "players", "table_id"]), header_value=JSON)
def test_a_malformed_round_is_a_difference_never_a_crash(key, value, header_key, header_value):
    round_record, header = make_round("okey51", 3, 2, "f" * 64, 4, "ab", ["a", "", "é"])
    round_record[key] = value
    if header_key:
        header[header_key] = header_value
    differences = fairdeal.verify_round(round_record, header)
    assert all(isinstance(fairdeal.describe(d), str) for d in differences)


SEED_TEXT = st.text(st.characters(categories=("L", "M", "N", "P", "S")), max_size=12).map(
    lambda text: text.strip(" ")).filter(lambda text: fairdeal.legacy_seed_fault(text) is None)
"""Seeds a shuffle-1 round may hold: any text players typed then, the letters of every script included."""
HEX64 = st.text("0123456789abcdef", min_size=64, max_size=64)


@st.composite
def tampered_rounds(draw):
    ruleset = draw(st.sampled_from(sorted(SEATS)))
    players = draw(st.sampled_from(SEATS[ruleset]))
    first = draw(st.integers(0, players - 1))
    seeds = draw(st.lists(SEED_TEXT, min_size=players, max_size=players))
    round_record, header = make_round(ruleset, players, first, draw(HEX64), draw(st.integers(1, 2 ** 32 - 1)),
                                      draw(st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True)), seeds,
                                      kinds=["human"] * players)
    tiles = sorted(set(fairdeal.tile_set(ruleset, players)))
    initial = round_record["initial"]
    what = draw(st.sampled_from(["rack", "pile", "indicator", "server_seed", "reseeded", "client_seed",
                                 "commitment", "racks"]))
    if what == "indicator" and "indicator" not in initial:
        what = "pile"
    if what == "rack":
        rack = initial["seats"][draw(st.integers(0, players - 1))]["rack"]
        i = draw(st.integers(0, len(rack) - 1))
        rack[i] = draw(st.sampled_from([t for t in tiles if t != rack[i]]))
    elif what == "pile":
        i = draw(st.integers(0, len(initial["pile"]) - 1))
        initial["pile"][i] = draw(st.sampled_from([t for t in tiles if t != initial["pile"][i]]))
    elif what == "indicator":
        initial["indicator"] = draw(st.sampled_from([t for t in tiles if t not in (initial["indicator"], "F")]))
    elif what in ("server_seed", "reseeded"):
        round_record["server_seed"] = draw(HEX64.filter(lambda s: s != round_record["server_seed"]))
        if what == "reseeded":  # a new seed with a matching commitment: the deal itself gives it away
            round_record["commitment"] = fairdeal.commitment(round_record["server_seed"])
    elif what == "client_seed":
        seat = draw(st.integers(0, players - 1))
        seeds[seat] = draw(SEED_TEXT.filter(lambda s: s != seeds[seat]))
        round_record["client_seeds"] = seeds
    elif what == "commitment":
        round_record["commitment"] = draw(HEX64.filter(lambda s: s != round_record["commitment"]))
    else:  # two seats exchange one tile each
        a, b = draw(st.lists(st.integers(0, players - 1), min_size=2, max_size=2, unique=True))
        ra, rb = initial["seats"][a]["rack"], initial["seats"][b]["rack"]
        i = next((k for k, t in enumerate(ra) if t != rb[0]), None)
        if i is None:  # every tile equal: change one instead
            ra[0] = next(t for t in tiles if t != ra[0])
        else:
            ra[i], rb[0] = rb[0], ra[i]
    return what, round_record, header


@settings(max_examples=300, deadline=None)
@given(tampered_rounds())
def test_any_tampered_round_fails_verification(case):
    what, round_record, header = case
    differences = fairdeal.verify_round(round_record, header)
    assert differences, what
    expected = {"rack": "rack", "racks": "rack", "pile": "pile", "indicator": "indicator",
                "server_seed": "commitment", "commitment": "commitment"}.get(what)
    if expected:
        assert expected in {d["code"] for d in differences}


# ------------------------------------------------------------ the standalone command

def run_checker(path, cwd):
    # -I: no project on the path, no site packages: the checker must stand alone
    proc = subprocess.run([sys.executable, "-I", str(ROOT / "games/engine/fairdeal.py"), str(path)],
                          cwd=cwd, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout.splitlines(), proc.stderr


def test_both_modules_stand_alone():
    tree = ast.parse((ROOT / "games/engine/fairdeal.py").read_text(encoding="utf-8"))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module}
    assert imported <= set(sys.stdlib_module_names) and not any(
        isinstance(node, ast.ImportFrom) and node.level for node in ast.walk(tree))
    script = (ROOT / "static/js/fairdeal.js").read_text(encoding="utf-8")
    assert not re.search(r"^\s*import\b|\bimport\(|\brequire\(", script, re.M)


def test_the_command_verifies_the_example_record(tmp_path):
    code, lines, _ = run_checker(VECTORS / "record-verified.json", tmp_path)
    assert (code, lines) == (0, ["round 1: verified"])


def test_the_command_says_what_differs_in_the_tampered_example(tmp_path):
    code, lines, _ = run_checker(VECTORS / "record-tampered.json", tmp_path)
    assert code == 1
    assert lines == ["round 1: seat 2 rack differs: dealt Y4 not recorded, recorded R4 not dealt; "
                     "pile differs from position 0: expected R4, recorded Y4 (48 tiles expected, 48 recorded)"]


def test_the_example_records_moves_replay_with_the_engine():
    record = json.loads((VECTORS / "record-verified.json").read_text(encoding="utf-8"))
    (round_record,) = record["rounds"]
    replayed = api.replay_all(round_record["initial"], [m["action"] for m in round_record["moves"]])
    assert [("ok" if s.accepted else s.code) for s in replayed.steps] == [m["result"] for m in round_record["moves"]]
    assert [s.events() for s in replayed.steps] == [m["penalties"] for m in round_record["moves"]]
    assert api.round_totals(replayed.position) == round_record["result"]["totals"] == record["totals"]


def test_the_command_prints_one_line_per_round(tmp_path):
    rounds = []
    for number, first in ((1, 0), (2, 1), (3, 2)):
        round_record, header = make_round("okey51", 3, first, f"{number}" * 64, number, "t-1", ["a", "b", ""],
                                          kinds=["human", "human", "computer"])
        rounds.append(round_record)
    rounds[1]["commitment"] = "0" * 64
    rounds[2]["initial"]["indicator"] = "F"
    path = tmp_path / "three.json"
    path.write_text(json.dumps(dict(header, rounds=rounds)), encoding="utf-8")
    code, lines, _ = run_checker(path, tmp_path)
    assert code == 1
    assert lines[0] == "round 1: verified"
    assert lines[1] == (f"round 2: commitment mismatch: sha256(server seed) is {fairdeal.commitment('2' * 64)}, "
                        f"recorded {'0' * 64}")
    assert lines[2].startswith("round 3: indicator differs: expected ") and lines[2].endswith(", recorded F")


@pytest.mark.parametrize("content, message", [
    ("{not json", "Expecting property name"),
    (json.dumps({"format": "okeysite-record-0", "rounds": []}), "not an okeysite-record-1 game record"),
    (json.dumps({"format": "okeysite-record-1"}), "no rounds list"),
])
def test_the_command_refuses_a_file_that_is_no_record(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, lines, err = run_checker(path, tmp_path)
    assert code == 2 and lines == [] and message in err


def test_the_command_needs_one_file(tmp_path):
    proc = subprocess.run([sys.executable, "-I", str(ROOT / "games/engine/fairdeal.py")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "usage" in proc.stderr
    code, _, err = run_checker(tmp_path / "missing.json", tmp_path)
    assert code == 2 and "missing.json" in err


# ------------------------------------------------------ the browser module, in Node

VALID = ("abcXYZ0189 -_.,'!?@#€$%&*()[]{}<>/\\|~^`\"" "çğıöşüÇĞİÖŞÜéèêñÑß" "ΑλφαΩωЖжЯя" "麻将牌日本語한국어"
         "\u0301\u0308\u0327" "🀄🀅🂡😀👍🏽" "①½٣" "\u212b\u2126\ufb01")
"""Characters of every accepted category, combining marks and characters NFC changes included."""
ALPHABET = VALID + "\t\n\u200b\u00a0\ue000\ufeff\u2028\ud800\udfff\uffff"
"""... and some of each refused kind: controls, format characters, other spaces, private
use, lone surrogates, noncharacters."""


def random_case(rng, k):
    ruleset = rng.choice(sorted(SEATS))
    players = rng.choice(SEATS[ruleset])
    seeds = []
    for _seat in range(players):
        raw = "".join(rng.choice(ALPHABET) for _ in range(rng.choice((0, 1, 3, 8, 30, 70))))
        raw = raw.strip(" ")
        if fairdeal.legacy_seed_fault(raw) is None:  # a shuffle-1 round holds the text players typed then
            seeds.append(raw)
        else:
            seeds.append(rng.choice(("", fairdeal.client_seed())))
    return {"op": "deal", "k": k, "ruleset": ruleset, "players": players, "first": rng.randrange(players),
            "server_seed": "%064x" % rng.getrandbits(256), "round": rng.choice((1, 2, 3, 7, rng.randrange(1, 2 ** 32))),
            "table_id": "".join(rng.choice("abcXYZ019_-") for _ in range(rng.randint(1, 64))), "client_seeds": seeds}


def python_answer(q):
    if q["op"] == "normalise":
        try:
            return {"output": fairdeal.normalise_client_seed(q["input"])}
        except ValueError as exc:
            return {"error": str(exc)}
    if q["op"] == "verify":
        differences = fairdeal.verify_round(q["round"], q["header"], q.get("seen"))
        return {"differences": differences, "lines": [fairdeal.describe(d) for d in differences]}
    seed = fairdeal.deal_seed(q["server_seed"], q["round"], q["table_id"], q["client_seeds"])
    tiles = fairdeal.tile_set(q["ruleset"], q["players"])
    js, rejected = fairdeal.swap_indices(len(tiles), seed)
    return {"commitment": fairdeal.commitment(q["server_seed"]), "deal_seed": seed,
            "stream_hex": fairdeal.stream_bytes(seed, 40).hex(), "rejected": [list(r) for r in rejected],
            "layout": fairdeal.layout(q["ruleset"], q["players"], q["first"], seed)}


def test_the_browser_module_deals_and_verifies_exactly_as_python():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: the browser module cannot be checked (make node)")
    rng = random.Random(20240601)
    queries = [random_case(rng, k) for k in range(1200)]
    for k in range(300):  # seeds in and out of the accepted set
        chars = VALID if k % 2 else ALPHABET
        raw = "".join(rng.choice(chars) for _ in range(rng.choice((0, 1, 2, 5, 20, 64, 65, 80, 128, 140))))
        queries.append({"op": "normalise", "k": k, "input": rng.choice(("", " ", "  ")) + raw + rng.choice(("", " "))})
    for k, q in enumerate(queries[:300]):  # honest and tampered rounds
        round_record, header = make_round(q["ruleset"], q["players"], q["first"], q["server_seed"], q["round"],
                                          q["table_id"], q["client_seeds"])
        if k % 3:
            round_record = copy.deepcopy(round_record)
            seat = rng.randrange(q["players"])
            rack = round_record["initial"]["seats"][seat]["rack"]
            rack[rng.randrange(len(rack))] = rng.choice(("R1", "K13", "F", "J", "?"))
            if k % 3 == 2:
                round_record["commitment"] = "%064x" % rng.getrandbits(256)
        if k % 50 == 7:  # dealt before verifiable deals
            round_record = dict(round_record, shuffle=fairdeal.LEGACY)
        query = {"op": "verify", "k": k, "round": round_record, "header": header}
        if k % 5 < 2:  # what one player's browser kept, right or wrong
            seat = rng.randrange(q["players"])
            query["seen"] = {"seat": seat, "commitment": rng.choice((round_record["commitment"], "0" * 64)),
                             "client_seed": rng.choice((q["client_seeds"][seat], "other"))}
        queries.append(query)
    proc = subprocess.run([node, str(Path(__file__).with_name("fairdeal_node.mjs"))], cwd=ROOT,
                          input="\n".join(json.dumps(q) for q in queries), capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.split("\n") if line]  # a seed may hold U+2028
    assert len(answers) == len(queries)
    # each query as Node reads it: JSON joins two lone surrogates that follow each other into one character
    mismatches = [(q, a) for q, a in zip(queries, answers) if python_answer(json.loads(json.dumps(q))) != a]
    assert not mismatches, json.dumps(mismatches[0], ensure_ascii=False)[:2000]
    assert sum(a.get("differences") == [{"code": "legacy"}] for a in answers) == 6
    deals = [a for q, a in zip(queries, answers) if q["op"] == "deal"]
    assert len(deals) >= 1000 and sum(bool(a["rejected"]) for a in deals) >= 10  # the rejection path ran
    assert {a.get("error", "ok")[:26] for a, q in zip(answers, queries) if q["op"] == "normalise"} >= {
        "ok", "a client seed may not hold", "a client seed holds at mos"}
