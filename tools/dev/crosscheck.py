"""Compare the client's meld reader with the engine on random proposed melds.

    .venv/bin/python tools/dev/crosscheck.py [count]
For each random tile group (biased towards runs, groups and pairs, with wilds and F),
the client's `written` form is judged by `games.engine.api.meld_info`; the two must
agree on validity, type and points. Prints disagreements and a summary line.
"""
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from games.engine import api  # noqa: E402
from games.engine.tiles import okey_of  # noqa: E402

rng = random.Random(7)
count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
COL = "RBKY"


def sample():
    ruleset = rng.choice(["okey51", "okey17", "rami"])
    indicator = f"{rng.choice(COL)}{rng.randint(1, 13)}" if ruleset != "rami" else None
    okey = okey_of(indicator) if indicator else None
    wild = "J" if ruleset == "rami" else okey
    kind = rng.choice(["run", "group", "pair", "junk"])
    c, n = rng.choice(COL), rng.randint(1, 13)
    if kind == "run":
        length = rng.randint(3, 6)
        start = rng.randint(1, 14 - min(length, 13))
        tiles = [f"{c}{(start + i - 1) % 13 + 1}" for i in range(length)]
        if rng.random() < .3:
            tiles.reverse()
    elif kind == "group":
        tiles = [f"{x}{n}" for x in rng.sample(COL, rng.choice([3, 4]))]
    elif kind == "pair":
        tiles = [f"{c}{n}"] * 2
    else:
        tiles = [f"{rng.choice(COL)}{rng.randint(1, 13)}" for _ in range(rng.randint(2, 5))]
    for i in range(len(tiles)):
        r = rng.random()
        if r < .15:
            tiles[i] = wild
        elif r < .2 and ruleset != "rami":
            tiles[i] = "F"
    return {"ruleset": ruleset, "tiles": tiles, "okey": okey, "indicator": indicator}


queries = [sample() for _ in range(count)]
out = subprocess.run(["node", str(Path(__file__).with_name("crosscheck.mjs"))],
                     input="\n".join(json.dumps(q) for q in queries),
                     capture_output=True, text=True, check=True).stdout.splitlines()
bad = 0
for q, line in zip(queries, out):
    mine = json.loads(line)
    if not mine["valid"]:
        # with no free wild the engine must find it invalid too (else the client would
        # leave a real meld out of an opening)
        wild = "J" if q["ruleset"] == "rami" else q["okey"]
        if wild not in q["tiles"] and api.meld_info(q["ruleset"], q["tiles"], q["indicator"]).get("valid"):
            bad += 1
            print("CLIENT MISSES", q["ruleset"], q["indicator"], q["tiles"])
        continue
    try:
        theirs = api.meld_info(q["ruleset"], mine["written"], q["indicator"])
    except Exception as exc:  # noqa: BLE001
        theirs = {"error": repr(exc)}
    want = {"valid": True, "type": mine["type"], "points": mine["points"]}
    if theirs != want:
        bad += 1
        if bad <= 15:
            print("DISAGREE", q["ruleset"], q["indicator"], q["tiles"], "->", mine["written"],
                  "client", want, "engine", theirs)
valid = sum(json.loads(line)["valid"] for line in out)
print(f"{count} samples, {valid} read as valid by the client, {bad} disagreements")
