"""okeysite-shuffle-2 (docs/fair-deals.md §8): a match's hash chain of server seeds, the
seats' kinds bound into the deal, the spec's vectors in both checkers, the two checkers
against each other, and shuffle-1 rounds that still verify."""
import copy
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engine import fairdeal

ROOT = Path(__file__).resolve().parents[2]
SPEC = json.loads(Path(__file__).with_name("vectors").joinpath("fairdeal-2.json").read_text(encoding="utf-8"))
SEATS = {"okey51": (2, 3, 4), "okey17": (2, 3, 4), "rami": (2, 3, 4, 5, 6)}


def chained_round(ruleset, players, first, chain, number, table_id, seeds, kinds):
    """A shuffle-2 round record of `chain` (fairdeal.chain's list) and its header."""
    seed = fairdeal.deal_seed_2(chain[number], number, table_id, chain[0], seeds, kinds)
    deal = fairdeal.layout(ruleset, players, first, seed)
    initial = {"ruleset": ruleset, "turn": first, "pile": deal["pile"],
               "seats": [{"rack": rack, "opened": "no", "penalty": 0} for rack in deal["racks"]]}
    if deal["indicator"] is not None:
        initial["indicator"] = deal["indicator"]
    header = {"format": fairdeal.RECORD_FORMAT, "ruleset": ruleset, "table_id": table_id,
              "players": [{"seat": s, "kind": k, "name": f"p{s}", "level": None if k == "human" else "normal"}
                          for s, k in enumerate(kinds)]}
    round_record = {"number": number, "shuffle": fairdeal.SHUFFLE_2, "first": first, "chain_tip": chain[0],
                    "commitment": fairdeal.commitment(chain[number]), "server_seed": chain[number],
                    "client_seeds": list(seeds), "initial": initial, "moves": [], "result": None}
    return round_record, header


def codes(round_record, header, seen=None):
    return [d["code"] for d in fairdeal.verify_round(round_record, header, seen)]


@pytest.fixture
def match():
    chain = fairdeal.chain(fairdeal.server_seed(), 3)
    kinds = ["human", "computer", "human", "computer"]
    return chain, [chained_round("okey51", 4, n - 1, chain, n, "31", ["abc", "", "Zoe", ""], kinds)
                   for n in (1, 2, 3)]


@pytest.mark.parametrize("v", SPEC["deals"], ids=lambda v: v["name"])
def test_the_shuffle_2_vectors(v):
    chain = fairdeal.chain(v["chain_last"], v["chain_length"])
    assert chain == v["chain"] and chain[0] == v["chain_tip"] and chain[v["round"]] == v["server_seed"]
    assert fairdeal.chain_reaches(v["server_seed"], v["round"], v["chain_tip"])
    message = fairdeal.deal_message_2(v["round"], v["table_id"], v["chain_tip"], v["client_seeds"], v["kinds"])
    assert message.hex() == v["message_hex"]
    seed = fairdeal.deal_seed_2(v["server_seed"], v["round"], v["table_id"], v["chain_tip"], v["client_seeds"],
                                v["kinds"])
    assert seed == v["deal_seed"] and fairdeal.stream_bytes(seed, 64).hex() == v["stream_hex"]
    js, rejected = fairdeal.swap_indices(len(v["shuffled"]), seed)
    assert js == v["swaps"] and [list(r) for r in rejected] == v["rejected"]
    assert fairdeal.layout(v["ruleset"], v["players"], v["first"], seed) == v["layout"]


def test_the_spec_page_shows_the_shuffle_2_vectors():
    page = (ROOT / "docs" / "fair-deals.md").read_text(encoding="utf-8")
    for v in SPEC["deals"]:
        for value in (v["chain_last"], v["chain_tip"], v["server_seed"], v["deal_seed"]):
            assert value in page, (v["name"], value)


def test_every_round_of_an_honest_chained_match_verifies(match):
    _chain, rounds = match
    assert [codes(r, h) for r, h in rounds] == [[], [], []]


def test_a_revealed_seed_off_the_chain_fails_even_with_its_own_commitment(match):
    chain, rounds = match
    round_record, header = rounds[1]
    other = fairdeal.server_seed()
    forged = chained_round("okey51", 4, 1, [chain[0], chain[1], other, chain[3]], 2, "31",
                           ["abc", "", "Zoe", ""], ["human", "computer", "human", "computer"])[0]
    assert forged["commitment"] == fairdeal.commitment(other)
    assert codes(forged, header) == ["chain"]
    revealed = round_record["server_seed"]
    tampered = dict(round_record, server_seed=("0" if revealed[0] == "f" else "f") + revealed[1:])
    assert "chain" in codes(tampered, header) and "commitment" in codes(tampered, header)


def test_two_rounds_swapping_their_seeds_fail(match):
    chain, rounds = match
    (one, header), (two, _h) = rounds[0], rounds[1]
    swapped = chained_round("okey51", 4, 0, [chain[0], chain[2], chain[1], chain[3]], 1, "31",
                            ["abc", "", "Zoe", ""], ["human", "computer", "human", "computer"])[0]
    assert swapped["server_seed"] == two["server_seed"]
    assert codes(swapped, header) == ["chain"]
    assert codes(dict(one, chain_tip=chain[1]), header)  # another tip: the deal differs too


def test_a_computer_seat_relabelled_human_no_longer_verifies(match):
    _chain, rounds = match
    round_record, header = rounds[0]
    relabelled = copy.deepcopy(header)
    relabelled["players"][1].update(kind="human", level=None)
    found = codes(round_record, relabelled)
    assert found and set(found) <= {"rack", "pile", "indicator"}
    # under shuffle-1 the kinds were not in the deal: the same relabelling verified
    old_seed = fairdeal.deal_seed(round_record["server_seed"], 1, "31", round_record["client_seeds"])
    deal = fairdeal.layout("okey51", 4, 0, old_seed)
    old = copy.deepcopy(round_record)
    old.update(shuffle=fairdeal.SHUFFLE_1)
    old["initial"].update(pile=deal["pile"], indicator=deal["indicator"],
                          seats=[{"rack": r, "opened": "no", "penalty": 0} for r in deal["racks"]])
    assert codes(old, header) == [] and codes(old, relabelled) == []


def test_a_kind_that_is_neither_human_nor_computer_is_a_bad_record(match):
    _chain, rounds = match
    round_record, header = rounds[0]
    odd = copy.deepcopy(header)
    odd["players"][0]["kind"] = "robot"
    assert codes(round_record, odd) == ["bad_record"]
    assert codes({k: v for k, v in round_record.items() if k != "chain_tip"}, header) == ["bad_record"]


def test_a_browser_whose_seed_was_dropped_sees_it_not_used(match):
    _chain, rounds = match
    round_record, header = rounds[0]
    seen = {"seat": 0, "chain_tip": round_record["chain_tip"], "client_seed": "abc"}
    assert codes(round_record, header, seen) == []
    dropped, _h = chained_round("okey51", 4, 0, _chain, 1, "31", ["", "", "Zoe", ""],
                                ["human", "computer", "human", "computer"])
    assert codes(dropped, header) == []  # the record alone cannot tell
    assert codes(dropped, header, seen) == ["seed_not_used"]
    assert codes(round_record, header, dict(seen, chain_tip="0" * 64)) == ["shown_commitment"]


def test_a_chain_is_refused_out_of_range():
    for length in (0, fairdeal.CHAIN_MAX + 1, "3"):
        with pytest.raises(ValueError):
            fairdeal.chain(fairdeal.server_seed(), length)
    with pytest.raises(ValueError):
        fairdeal.chain("F" * 64, 2)
    with pytest.raises(ValueError, match="computer"):
        fairdeal.deal_message_2(1, "1", "0" * 64, ["x", ""], ["computer", "human"])


def random_query(rng, k):
    ruleset = rng.choice(sorted(SEATS))
    players = rng.choice(SEATS[ruleset])
    kinds = [rng.choice(fairdeal.KINDS) for _ in range(players)]
    seeds = ["" if kind == "computer" or rng.random() < 0.2 else
             rng.choice((fairdeal.client_seed(), "Ayse", "x ~ y", "manana!", "7", "x" * 128)) for kind in kinds]
    length = rng.choice((1, 3, 7, 20))
    return {"op": "deal", "k": k, "ruleset": ruleset, "players": players, "first": rng.randrange(players),
            "chain_length": length, "chain_last": "%064x" % rng.getrandbits(256), "round": rng.randint(1, length),
            "table_id": "".join(rng.choice("abcXYZ019_-") for _ in range(rng.randint(1, 64))),
            "client_seeds": seeds, "kinds": kinds}


def python_answer(q):
    if q["op"] == "verify":
        differences = fairdeal.verify_round(q["round"], q["header"], q.get("seen"))
        return {"differences": differences, "lines": [fairdeal.describe(d) for d in differences]}
    if q["op"] == "chain":
        return {"chain": fairdeal.chain(q["last"], q["length"])}
    seed = fairdeal.deal_seed_2(q["server_seed"], q["round"], q["table_id"], q["chain_tip"], q["client_seeds"],
                                q["kinds"])
    message = fairdeal.deal_message_2(q["round"], q["table_id"], q["chain_tip"], q["client_seeds"], q["kinds"])
    return {"message_hex": message.hex(), "deal_seed": seed,
            "layout": fairdeal.layout(q["ruleset"], q["players"], q["first"], seed)}


def test_the_browser_module_deals_and_verifies_shuffle_2_exactly_as_python():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: the browser module cannot be checked (make node)")
    rng = random.Random(20261204)
    queries = []
    for v in SPEC["deals"]:
        queries.append({"op": "chain", "last": v["chain_last"], "length": v["chain_length"]})
        queries.append({"op": "deal", "ruleset": v["ruleset"], "players": v["players"], "first": v["first"],
                        "server_seed": v["server_seed"], "round": v["round"], "table_id": v["table_id"],
                        "chain_tip": v["chain_tip"], "client_seeds": v["client_seeds"], "kinds": v["kinds"]})
    for k in range(1000):  # 1,000 seed sets
        q = random_query(rng, k)
        chain = fairdeal.chain(q.pop("chain_last"), q.pop("chain_length"))
        q.update(server_seed=chain[q["round"]], chain_tip=chain[0])
        queries.append(q)
        if k % 4:
            continue
        round_record, header = chained_round(q["ruleset"], q["players"], q["first"], chain, q["round"],
                                             q["table_id"], q["client_seeds"], q["kinds"])
        mutation = (k // 4) % 5
        if mutation == 1:
            round_record["server_seed"] = fairdeal.server_seed()
            round_record["commitment"] = fairdeal.commitment(round_record["server_seed"])
        elif mutation == 2:
            header["players"][0]["kind"] = "computer" if q["kinds"][0] == "human" else "human"
        elif mutation == 3:
            round_record["chain_tip"] = fairdeal.server_seed()
        query = {"op": "verify", "round": round_record, "header": header}
        if mutation == 4:
            seat = rng.randrange(q["players"])
            query["seen"] = {"seat": seat, "chain_tip": chain[0],
                             "client_seed": rng.choice(("mine", q["client_seeds"][seat]))}
        queries.append(query)
    proc = subprocess.run([node, str(Path(__file__).with_name("fairdeal2_node.mjs"))], cwd=ROOT,
                          input="\n".join(json.dumps(q) for q in queries), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.split("\n") if line]  # a seed may hold U+2028
    assert len(answers) == len(queries)
    # each query as Node reads it: JSON joins two lone surrogates that follow each other into one character
    mismatches = [(q, a) for q, a in zip(queries, answers) if python_answer(json.loads(json.dumps(q))) != a]
    assert not mismatches, json.dumps(mismatches[0], ensure_ascii=False)[:2000]
    for v, (chained, dealt) in zip(SPEC["deals"], zip(answers[0:6:2], answers[1:6:2])):
        assert chained["chain"] == v["chain"] and dealt["message_hex"] == v["message_hex"]
        assert dealt["deal_seed"] == v["deal_seed"] and dealt["layout"] == v["layout"]
    verdicts = [a["differences"] for q, a in zip(queries, answers) if q["op"] == "verify"]
    assert [] in verdicts and any(any(d["code"] == "chain" for d in ds) for ds in verdicts)
    assert any(any(d["code"] == "seed_not_used" for d in ds) for ds in verdicts)
    assert sum(q["op"] == "deal" for q in queries) >= 1000
