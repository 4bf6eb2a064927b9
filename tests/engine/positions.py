"""Positions for the legal-action tests: reached by play from real deals, and small
loaded positions built around a rack (few tiles, so that a brute force over every
action one can write stays small)."""
from __future__ import annotations

import random

from games.engine import api
from games.engine.melds import classify
from games.engine.tiles import COLOURS, okey_of
from tests.deals import text_deal


def playthrough(ruleset: str, seed: str, first: int = 0, options: dict | None = None, table_bias: float = 0.7):
    """Yield every position of one round played from ``api.deal`` with random legal actions.

    In phase ``play`` a table action is preferred (probability ``table_bias``) over a
    discard, and a ``take_discard`` is taken half of the time, so that tables fill up.
    """
    rng = random.Random(seed)
    pos = text_deal(ruleset, seed, first=first, options=options)
    for _ in range(400):
        yield pos
        if api.is_over(pos):
            return
        actions = list(api.legal_actions(pos, pos["turn"]))
        assert actions, "a seat to move always has a legal action"
        lays = [a for a in actions if a["type"] not in ("draw", "discard")]
        ends = [a for a in actions if a["type"] in ("draw", "discard")] or actions
        chance = table_bias if pos.get("phase", "play") == "play" else 0.5
        if lays and rng.random() < chance:
            action = rng.choice(lays)
        else:
            action = rng.choice(ends)
        done = api.step(pos, action)
        assert done.accepted, (action, done.code)
        pos = done.position


def _run(rng, colour, length, top=13):
    start = rng.randint(1, top - length + 1)
    return [f"{colour}{n}" for n in range(start, start + length)]


def small_okey_position(ruleset: str, rng: random.Random) -> dict:
    """A loaded okey position whose seat 0 (to move) holds 4-6 tiles drawn around one run
    and one group, often an okey or ``F``; a table of two or three melds (some holding a
    wild), random openings, and a previous-seat discard that often fits somewhere."""
    indicator = f"{rng.choice(COLOURS)}{rng.randint(1, 13)}"
    okey = okey_of(indicator)
    colour, number = rng.choice(COLOURS), rng.randint(1, 13)
    theme = _run(rng, colour, 4) + [f"{c}{number}" for c in COLOURS]
    rack = rng.sample(theme, rng.randint(3, 5))
    for extra in (okey, "F", okey):
        if rng.random() < 0.3 and len(rack) < 6:
            rack.append(extra)
    table = []
    for owner in rng.sample(range(4), rng.randint(1, 3)):
        meld = _run(rng, rng.choice(COLOURS), 3) if rng.random() < 0.6 else \
            [f"{c}{rng.randint(1, 13)}" for c in rng.sample(COLOURS, 3)]
        if rng.random() < 0.4:
            i = rng.randrange(len(meld))
            if rng.random() < 0.5 and len(rack) < 6:  # the tile a swap gives
                rack.append("F" if meld[i] == okey else meld[i])
            meld[i] = f"{okey}={meld[i]}" if meld[i] != okey else okey
        if classify(meld, ruleset, indicator) is not None:
            table.append({"id": len(table) + 1, "owner": owner, "tiles": classify(meld, ruleset, indicator).tiles})
    table = [dict(m, tiles=list(m["tiles"])) for m in table]
    candidates = rack + [t for m in table for t in m["tiles"] if "=" not in t] + [okey, "F", f"{colour}{number}"]
    discard = rng.choice(candidates).partition("=")[0]
    while (rack + [discard]).count(discard) > 2 or (rack + [discard]).count(okey) > 2:
        rack.remove(discard if discard in rack else okey)  # two copies of a tile at most
    opened = [rng.choice(["no", "melds", "melds", "pairs"]) for _ in range(4)]
    phase = rng.choice(["draw", "play"])
    options = {"teams": rng.random() < 0.3} if "teams" in api.ruleset(ruleset).option_keys else {}
    return {
        "ruleset": ruleset, "options": api.normalize_options(ruleset, options),
        "indicator": indicator, "turn": 0, "phase": phase, "pile": ["K3", "B9"],
        "discards": [[], [], [], [discard]],
        "seats": [{"rack": list(r), "opened": o, "penalty": 0}
                  for r, o in zip([rack, ["K1", "K2"], ["Y3", "Y8"], ["Y4", "Y9"]], opened)],
        "table": table, "highest_opening": rng.choice([None, None, 20, 30, 50]),
    }
