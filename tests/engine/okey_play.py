"""A small, rule-aware move generator for okey positions, used by the state-machine
tests to play random legal games (it proposes; the engine decides)."""
from __future__ import annotations

from collections import Counter

from games.engine.melds import classify, extensions, rules_for
from games.engine.tiles import COLOURS, FALSE_JOKER, okey_of


def _supply(rack: list[str], indicator: str) -> tuple[dict[str, list[str]], int, str]:
    """face -> physical tiles standing for it; number of wilds; the okey."""
    okey = okey_of(indicator)
    faces: dict[str, list[str]] = {}
    wilds = 0
    for t in rack:
        if t == okey:
            wilds += 1
        else:
            faces.setdefault(okey if t == FALSE_JOKER else t, []).append(t)
    return faces, wilds, okey


def candidate_melds(rack: list[str], ruleset: str, indicator: str) -> list[list[str]]:
    """Runs (3-5 tiles) and groups (3-4) the rack can lay, wilds filling at most the
    holes they can; each as written tiles."""
    rules = rules_for(ruleset)
    faces, wilds, okey = _supply(rack, indicator)
    out = []
    top = 14 if rules.ace_high else 13
    for c in COLOURS:
        for start in range(1, top - 1):
            for length in (3, 4, 5):
                if start + length - 1 > top:
                    break
                meld, missing = [], 0
                for p in range(start, start + length):
                    face = f"{c}{1 if p == 14 else p}"
                    if faces.get(face):
                        meld.append(faces[face][0])
                    else:
                        missing += 1
                        meld.append(f"{okey}={face}")
                if missing <= wilds and missing < length:
                    out.append(meld)
    for n in range(1, 14):
        present = [faces[f"{c}{n}"][0] for c in COLOURS if faces.get(f"{c}{n}")]
        absent = [f"{c}{n}" for c in COLOURS if not faces.get(f"{c}{n}")]
        for size in (3, 4):
            need = size - len(present)
            if 0 <= need <= wilds and present:
                out.append(present[:size] + [f"{okey}={f}" for f in absent[:need]])
    return [m for m in out if classify(m, ruleset, indicator) is not None]


def candidate_pairs(rack: list[str], ruleset: str, indicator: str) -> list[list[str]]:
    """Pairs of identical tiles (a wild pairs with any tile)."""
    faces, wilds, okey = _supply(rack, indicator)
    out = []
    for face, tiles in faces.items():
        for _ in range(len(tiles) // 2):
            out.append([tiles[0], tiles[1]])
        if wilds:
            out.append([tiles[0], f"{okey}={face}"])
    return out


def physical(w: str) -> str:
    return w.partition("=")[0]


def pick_disjoint(rack: list[str], melds: list[list[str]], ruleset: str, indicator: str, keep: int = 1):
    """Greedy best-points disjoint melds leaving at least ``keep`` tiles; (melds, points)."""
    left = Counter(rack)
    chosen, total = [], 0
    scored = sorted(melds, key=lambda m: -classify(m, ruleset, indicator).points)
    for m in scored:
        need = Counter(physical(t) for t in m)
        if all(left[t] >= k for t, k in need.items()) and sum(left.values()) - len(m) >= keep:
            left -= need
            chosen.append(m)
            total += classify(m, ruleset, indicator).points
    return chosen, total


def add_moves(pos: dict, seat: int) -> list[dict]:
    """Adds of rack tiles to table melds that fit by notation (the engine decides)."""
    rules = rules_for(pos["ruleset"])
    rack = pos["seats"][seat]["rack"]
    faces, wilds, okey = _supply(rack, pos["indicator"])
    out = []
    for m in pos["table"]:
        c = classify(m["tiles"], rules, pos["indicator"])
        if c is None:
            continue
        for face, _ in extensions(c, rules):
            if faces.get(face):
                out.append({"seat": seat, "type": "add", "meld": m["id"], "tile": faces[face][0]})
            if wilds:
                out.append({"seat": seat, "type": "add", "meld": m["id"], "tile": f"{okey}={face}"})
    return out


def swap_moves(pos: dict, seat: int) -> list[dict]:
    """Swaps of a rack tile for a table wild standing for it."""
    rack = pos["seats"][seat]["rack"]
    faces, _, okey = _supply(rack, pos["indicator"])
    out = []
    for m in pos["table"]:
        for t in m["tiles"]:
            if t.startswith(okey + "="):
                face = t.partition("=")[2]
                if faces.get(face):
                    out.append({"seat": seat, "type": "swap", "meld": m["id"], "tile": faces[face][0]})
    return out
