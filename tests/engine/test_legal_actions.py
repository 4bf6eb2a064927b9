"""``api.legal_actions`` (RULES.md §7): every yielded action is accepted by ``api.step``
on thousands of positions reached by play from real deals, and what it claims to list
completely — draws, discards, every ``take_discard`` ``then``, every single add and
swap — equals a brute force over every such action one can write."""
from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import combinations, product

import pytest

from games.engine import api
from games.engine.melds import classify
from games.engine.tiles import COLOURS, okey_of
from tests.deals import text_deal
from tests.engine.positions import playthrough, small_okey_position

FACES = [f"{c}{n}" for c in COLOURS for n in range(1, 14)]
OKEY = ("okey51", "okey17")


def _bare(tile: str) -> str:
    physical, _, represented = tile.partition("=")
    return physical if represented == physical else tile


def outcome(position: dict) -> str:
    """A position up to what does not matter: meld ids and order, a group's tile order,
    ``X=X`` written bare, rack order."""
    table = position["table"]
    if table and isinstance(table[0], dict):
        table = [(m["owner"], sorted(map(_bare, m["tiles"]))) for m in table]
    else:
        table = [sorted(m) for m in table]
    ts = position.get("turn_state") or {}
    return repr((
        [(sorted(s["rack"]), s["opened"], s["penalty"]) for s in position["seats"]], sorted(table),
        position.get("discards"), position.get("phase"), position["turn"], position.get("highest_opening"),
        ts.get("took"), ts.get("opened"), len(ts.get("jokers", ())), len(ts.get("grown", ())),
        (position.get("result") or {}).get("scores"),
    ))


def outcomes(position: dict, actions, kinds=None) -> set[str]:
    out = set()
    for action in actions:
        if kinds and action["type"] not in kinds:
            continue
        done = api.step(position, action)
        if done.accepted:
            out.add(outcome(done.position))
    return out


# ----------------------------------------------------------------- soundness
def _check_sound(position: dict) -> int:
    seat = position["turn"]
    before = copy.deepcopy(position)
    actions = list(api.legal_actions(position, seat))
    assert position == before, "legal_actions mutated its input"
    assert len({repr(a) for a in actions}) == len(actions), "an action was yielded twice"
    for action in actions:
        assert action["seat"] == seat
        done = api.step(position, action)
        assert done.accepted, (action, done.code)
    others = [s for s in range(len(position["seats"])) if s != seat]
    assert all(not list(api.legal_actions(position, s)) for s in others[:1])
    return len(actions)


@pytest.mark.parametrize("ruleset", sorted(api.RULESETS))
def test_every_yielded_action_is_accepted_on_positions_of_real_play(ruleset):
    positions = actions = 0
    for r in range(14):
        for position in playthrough(ruleset, f"sound-{ruleset}-{r}", first=r % 4):
            if api.is_over(position):
                assert list(api.legal_actions(position, position["turn"])) == []
                continue
            actions += _check_sound(position)
            positions += 1
    assert positions >= 700 and actions > positions


# ----------------------------------------------------------------- completeness
def _wild_forms(okey: str, real_faces: list[str]) -> list[str]:
    """Every written form of the okey that could make a meld with ``real_faces``: all
    faces when alone, else the faces sharing the colour of all of them (a run) or the
    number of all of them (a group, a pair)."""
    faces = [f for f in FACES if all(f[0] == r[0] for r in real_faces) or all(f[1:] == r[1:] for r in real_faces)]
    return [okey if f == okey else f"{okey}={f}" for f in faces]


def _face(tile: str, okey: str) -> str:
    return okey if tile == "F" else tile


def all_melds(pool: list[str], ruleset: str, indicator: str) -> list[tuple[str, ...]]:
    """Every valid meld one can write with tiles of ``pool`` (each wild in every form)."""
    okey = okey_of(indicator)
    found = set()
    for size in range(2, len(pool) + 1):
        for chosen in {tuple(sorted(c)) for c in combinations(pool, size)}:
            reals = [_face(t, okey) for t in chosen if t != okey]
            if len({r[0] for r in reals}) > 1 and len({r[1:] for r in reals}) > 1:
                continue  # neither one colour nor one number: no meld whatever the wilds
            options = [_wild_forms(okey, reals) if t == okey else [t] for t in chosen]
            for tiles in product(*options):
                meld = classify(list(tiles), ruleset, indicator)
                if meld is not None:
                    found.add(meld.tiles)
    return sorted(found)


def _physical(tiles) -> Counter:
    return Counter(t.partition("=")[0] for t in tiles)


def brute_thens(position: dict) -> list[dict]:
    """Every ``then`` one can write for the seat's ``take_discard``: adds of the taken tile
    (every written form) to every meld, swaps, new melds using it (every owner), and
    openings of up to three melds using it."""
    ruleset, indicator, seat = position["ruleset"], position["indicator"], position["turn"]
    okey = okey_of(indicator)
    taken = position["discards"][(seat - 1) % 4][-1]
    pool = position["seats"][seat]["rack"] + [taken]
    forms = _wild_forms(okey, []) if taken == okey else [taken]
    thens = [{"type": kind, "meld": m["id"], "tile": form}
             for m in position["table"] for form in forms for kind in ("add", "swap")]
    melds = all_melds(pool, ruleset, indicator)
    using = [m for m in melds if _physical(m)[taken]]
    for tiles in using:
        for owner in (None, 0, 1, 2, 3):
            thens.append({"type": "meld", "tiles": list(tiles), "owner": owner})
    opened = position["seats"][seat]["opened"] != "no"
    for chosen in _disjoint(melds, Counter(pool), 3):
        need = sum((_physical(m) for m in chosen), Counter())
        if need[taken] and sum(need.values()) < len(pool):
            thens.append({"type": "open", "melds": [list(m) for m in chosen]})
            if opened and len(thens) > 400:  # an opened seat's open is wrong_phase: a sample will do
                break
    return thens


def _disjoint(melds, left: Counter, most: int, start: int = 0):
    """Every set of up to ``most`` melds whose tiles ``left`` holds (each set once)."""
    for i in range(start, len(melds)):
        need = _physical(melds[i])
        if not need - left:
            yield (melds[i],)
            if most > 1:
                for rest in _disjoint(melds, left - need, most - 1, i + 1):
                    yield (melds[i],) + rest


def brute_table_actions(position: dict) -> list[dict]:
    """Every discard, add (each rack tile in every written form, every meld) and swap."""
    seat, okey = position["turn"], okey_of(position["indicator"])
    rack = position["seats"][seat]["rack"]
    out = [{"seat": seat, "type": "discard", "tile": t} for t in set(rack)]
    for tile in set(rack):
        forms = _wild_forms(okey, []) if tile == okey else [tile]
        for m in position["table"]:
            out += [{"seat": seat, "type": "add", "meld": m["id"], "tile": f} for f in forms]
            out.append({"seat": seat, "type": "swap", "meld": m["id"], "tile": tile})
    return out


@pytest.mark.parametrize("ruleset", OKEY)
def test_draw_take_and_every_then_match_a_brute_force(ruleset):
    rng = random.Random(f"take-{ruleset}")
    checked = taken = 0
    while checked < 120:
        position = small_okey_position(ruleset, rng)
        position["phase"] = "draw"
        legal = list(api.legal_actions(position, 0))
        assert ({"seat": 0, "type": "draw"} in legal) == api.step(position, {"seat": 0, "type": "draw"}).accepted
        brute = [{"seat": 0, "type": "take_discard", "then": then} for then in brute_thens(position)]
        expected = outcomes(position, brute)
        assert outcomes(position, legal, {"take_discard"}) == expected, position
        checked += 1
        taken += bool(expected)
    assert taken >= 30  # the positions often allow a take


@pytest.mark.parametrize("ruleset", OKEY)
def test_discards_adds_and_swaps_match_a_brute_force(ruleset):
    rng = random.Random(f"table-{ruleset}")
    found = Counter()
    for _ in range(300):
        position = small_okey_position(ruleset, rng)
        position["phase"] = "play"
        legal = list(api.legal_actions(position, 0))
        brute = brute_table_actions(position)
        for kind in ("discard", "add", "swap"):
            expected = outcomes(position, brute, {kind})
            assert outcomes(position, legal, {kind}) == expected, (kind, position)
            found[kind] += bool(expected)
    assert found["add"] >= 30 and found["swap"] >= 5 and found["discard"] >= 200


@pytest.mark.parametrize("ruleset", sorted(api.RULESETS))
def test_discards_and_draws_are_complete_on_positions_of_real_play(ruleset):
    for r in range(4):
        for position in playthrough(ruleset, f"complete-{ruleset}-{r}", first=r):
            if api.is_over(position):
                continue
            seat = position["turn"]
            legal = list(api.legal_actions(position, seat))
            draw = {"seat": seat, "type": "draw"}
            assert (draw in legal) == api.step(position, draw).accepted
            if ruleset in OKEY:
                rack = position["seats"][seat]["rack"]
                tries = [{"seat": seat, "type": "discard", "tile": t} for t in set(rack)]
                assert outcomes(position, legal, {"discard"}) == outcomes(position, tries)


def test_rami_single_tile_adds_match_a_brute_force():
    seen = 0
    for r in range(3):
        for position in playthrough("rami", f"rami-adds-{r}", first=r % 4):
            if api.is_over(position) or position["seats"][position["turn"]]["opened"] != "yes":
                continue
            seat, table = position["turn"], position["table"]
            tries = []
            for tile in set(position["seats"][seat]["rack"]):
                for i, meld in enumerate(table):
                    reals = [t for t in meld if not t.startswith("J")]
                    forms = [f"J={f}" for f in FACES if all(f[0] == x[0] for x in reals)
                             or all(f[1:] == x[1:] for x in reals)] if tile == "J" else [tile]
                    tries += [{"seat": seat, "type": "play", "table": table[:i] + [meld + [form]] + table[i + 1:]}
                              for form in forms]
            legal = [a for a in api.legal_actions(position, seat) if a["type"] == "play"]
            expected = outcomes(position, tries)
            assert expected <= outcomes(position, legal)
            seen += bool(expected)
    assert seen >= 10


# ----------------------------------------------------------------- replay
@pytest.mark.parametrize("ruleset", sorted(api.RULESETS))
def test_replay_equals_stepwise_play(ruleset):
    rng = random.Random(ruleset)
    initial = text_deal(ruleset, f"replay-{ruleset}", first=1)
    position, log, steps = initial, [], []
    while not api.is_over(position) and len(log) < 300:
        seat = position["turn"]
        action = rng.choice(list(api.legal_actions(position, seat)))
        if rng.random() < 0.2:  # refused moves are part of a log too
            action = {"seat": (seat + 1) % 4, "type": "draw"}
        done = api.step(position, action)
        log.append(action)
        steps.append(done)
        position = done.position
    replayed = api.replay_all(initial, log)
    assert replayed.position == position
    assert replayed.steps == steps
    assert replayed.penalties == [p for s in steps for p in s.penalties]
