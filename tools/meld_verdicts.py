"""Write the engine's verdicts on random meld selections for the table client's tests.

    .venv/bin/python tools/meld_verdicts.py            # rewrites tests/js/fixtures/meld_verdicts_<ruleset>.json
    .venv/bin/python tools/meld_verdicts.py --check    # exit 1 when a fixture is not what the engine writes now

For each ruleset, COUNT selections of 2-13 tiles (runs, groups and pairs, near misses and
junk; bare and annotated wilds, false jokers, tiles foreign to the set), each with two
verdicts of the engine (games/engine, pure Python):

- ``meld``: ``meld_info`` of the tiles as written (a bare wild stands for itself, RULES.md §1);
- ``rack``: the tiles as a player arranged them on the rack: ``resolve_meld`` writes the
  free wilds, then ``meld_info`` judges the written meld (RULES.md §2).

tests/js/meld-verdicts.test.mjs runs the client's reader (static/js/table/melds.js) on every
case with the fixture's ``rules`` (what the table page sends as ``table_config.rules``);
tests/engine/test_meld_verdicts_fixture.py regenerates the fixtures and compares, so a rule
changed in the engine fails until the fixtures are written again.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.engine import api  # noqa: E402
from games.engine.tiles import COLOURS, FALSE_JOKER, JOKER, okey_of  # noqa: E402

COUNT = 10_000
"""Random selections per ruleset."""
SEEDS = {"okey51": 51, "okey17": 17, "rami": 30}
"""One fixed seed per ruleset, so a fixture is the same file every time it is written."""
FIXTURES = ROOT / "tests" / "js" / "fixtures"
FIELDS = ["tiles", "indicator", "meld", "rack"]


def fixture_path(ruleset: str) -> Path:
    """tests/js/fixtures/meld_verdicts_<ruleset>.json."""
    return FIXTURES / f"meld_verdicts_{ruleset}.json"


def _face(rng: random.Random) -> str:
    return f"{rng.choice(COLOURS)}{rng.randint(1, 13)}"


def _shape(rng: random.Random, pairs: bool) -> list[str]:
    """The tiles of a run, group, pair, near miss or junk selection, 2-13 tiles."""
    kind = rng.choices(["run", "group", "pair", "near", "junk"], weights=[34, 20, 10 if pairs else 4, 20, 16])[0]
    colour, number = rng.choice(COLOURS), rng.randint(1, 13)
    if kind in ("run", "near") and rng.random() < .6:
        length = rng.randint(3, 13)
        start = rng.randint(1, 14 - length) if rng.random() < .8 else rng.randint(1, 13)  # some wrap past 13
        tiles = [f"{colour}{(start + i - 1) % 13 + 1}" for i in range(length)]
    elif kind in ("group", "near"):
        tiles = [f"{c}{number}" for c in rng.sample(COLOURS, rng.choice([3, 3, 4]))]
    elif kind == "pair":
        tiles = [f"{colour}{number}"] * 2
    else:
        tiles = [_face(rng) for _ in range(rng.randint(2, 13))]
    if kind == "near":
        i = rng.randrange(len(tiles))
        change = rng.choice(["colour", "number", "copy", "drop", "add"])
        if change == "colour":
            tiles[i] = f"{rng.choice(COLOURS)}{tiles[i][1:]}"
        elif change == "number":
            tiles[i] = f"{tiles[i][0]}{rng.randint(1, 13)}"
        elif change == "copy":
            tiles[rng.randrange(len(tiles))] = tiles[i]
        elif change == "drop" and len(tiles) > 2:
            del tiles[i]
        elif len(tiles) < 13:
            tiles.insert(rng.randrange(len(tiles) + 1), _face(rng))
    return tiles


def selection(rng: random.Random, ruleset: str) -> tuple[list[str], str | None]:
    """One random selection of 2-13 tiles and its indicator (None for rami)."""
    rules = api.ruleset(ruleset).meld_rules
    tiles = _shape(rng, rules.pairs)
    if rules.joker_wild:
        indicator, wild, foreign = None, JOKER, FALSE_JOKER
    else:
        # often the okey is one of the selected tiles, so bare okeys standing for
        # themselves and false jokers playing as that tile come up
        target = rng.choice(tiles) if rng.random() < .35 else _face(rng)
        number = int(target[1:])
        indicator = f"{target[0]}{(number - 2) % 13 + 1}"
        wild, foreign = okey_of(indicator), JOKER
    rate = rng.choice([0, .1, .2, .35, .6])
    for i, t in enumerate(tiles):
        r = rng.random()
        if r < rate * .6:
            tiles[i] = wild                                   # a free wild on the rack
        elif r < rate * .85:
            tiles[i] = f"{wild}={t if rng.random() < .8 else _face(rng)}"  # a wild as written on the table
        elif r < rate and not rules.joker_wild:
            tiles[i] = FALSE_JOKER
        elif r < rate + .015:
            tiles[i] = foreign                                # not a tile of this set's melds
    if rng.random() < .3:
        rng.shuffle(tiles)
    elif rng.random() < .25:
        tiles.reverse()
    return tiles, indicator


def _brief(info: dict) -> list | None:
    return [info["type"], info["points"]] if info["valid"] else None


def verdicts(ruleset: str, tiles: list[str], indicator: str | None) -> tuple[list | None, list | None]:
    """The engine's ``meld`` and ``rack`` verdicts on one selection: None for invalid, else
    ``[type, points]`` and ``[type, points, written tiles in the given order]``."""
    meld = _brief(api.meld_info(ruleset, tiles, indicator))
    written = api.resolve_meld(ruleset, tiles, indicator)
    rack = _brief(api.meld_info(ruleset, written, indicator)) if written else None
    return meld, (rack + [written] if rack else None)


def cases(ruleset: str, count: int = COUNT) -> list[list]:
    """``count`` cases ``[tiles, indicator, meld, rack]`` from the ruleset's fixed seed."""
    rng = random.Random(SEEDS[ruleset])
    out = []
    for _ in range(count):
        tiles, indicator = selection(rng, ruleset)
        out.append([tiles, indicator, *verdicts(ruleset, tiles, indicator)])
    return out


def render(ruleset: str, count: int = COUNT) -> str:
    """The fixture file's text: the ruleset's client rules, then one case per line."""
    head = {"ruleset": ruleset, "rules": api.client_rules(ruleset), "seed": SEEDS[ruleset],
            "count": count, "fields": FIELDS}
    body = ",\n".join(json.dumps(c, separators=(",", ":")) for c in cases(ruleset, count))
    return json.dumps(head)[:-1] + ',\n"cases": [\n' + body + "\n]}\n"


def main(argv: list[str]) -> int:
    """Write the fixtures, or with ``--check`` report (exit 1) those that differ."""
    check = "--check" in argv
    stale = []
    for ruleset in SEEDS:
        path, text = fixture_path(ruleset), render(ruleset)
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        data = json.loads(text)
        valid = sum(1 for c in data["cases"] if c[2]), sum(1 for c in data["cases"] if c[3])
        print(f"{path.relative_to(ROOT)}: {data['count']} cases, {valid[0]} valid as written, {valid[1]} on the rack")
    for path in stale:
        print(f"stale: {path.relative_to(ROOT)} (run tools/meld_verdicts.py)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
