"""The moves an okey seat can make (RULES.md §3, §4, §6, §7): the legal actions — what a
fallback player, a hint or a test may choose from — and the assisted table's one-tap add.
``rs`` is the okey ruleset object (:class:`~games.engine.rulesets.okey.OkeyRuleset`).

Candidates come from ``meldgen`` and the table; each is kept only when the ruleset's
``step`` accepts it, so every yielded action is legal.  What is complete and what is
bounded is said in :func:`legal_actions`.
"""
from __future__ import annotations

from itertools import chain
from typing import Iterator

from .. import meldgen
from ..melds import extensions, tile_face
from ..tiles import physical


def legal_actions(rs, position: dict, seat: int) -> Iterator[dict]:
    """The legal actions of ``seat`` now, as RULES.md §7 action dicts with ``seat``;
    nothing when the round is over or it is another seat's turn.

    ``rs``: the okey ruleset object.  In phase ``draw``: the ``draw`` (when the pile has
    a tile) and every ``take_discard`` whose ``then`` legally places the taken tile — every
    add of it (a wild standing for each face it fits), every new meld or pair using it
    (any layout: wilds for missing tiles or in place of real ones, two wilds standing
    for any same tile, D-30; an okey17 pair in a pairs player's area), and the openings
    it completes.  In phase ``play``: every legal discard (each distinct rack tile), then
    the table actions: openings, the new melds/pairs drawn from the rack (wilds only
    where a tile is missing), every single add (a wild in each place it fits) and every
    swap.  Openings are bounded: a depth-first search over the rack's melds, biggest
    first, stops after 48 openings of each kind (melds, pairs) or 3,000 search nodes, so
    the take_discard openings are complete only within that bound.  Each action is
    yielded once, checked by ``rs.step``.
    """
    if position.get("result") or position.get("turn") != seat:
        return
    pos = rs.loaded(position)
    seen: set[str] = set()
    for action in _candidates(rs, pos, seat):
        key = repr(action)
        if key not in seen:
            seen.add(key)
            if rs.step(pos, action).accepted:
                yield action


def _candidates(rs, pos: dict, seat: int) -> Iterator[dict]:
    me = pos["seats"][seat]
    if pos["phase"] == "draw":
        if pos["pile"]:
            yield {"seat": seat, "type": "draw"}
        prev = (seat - 1) % len(pos["seats"])
        if pos["discards"][prev]:
            taken = pos["discards"][prev][-1]
            for then in _lays(rs, pos, seat, me["rack"] + [taken], taken, rs.take_then):
                yield {"seat": seat, "type": "take_discard", "then": then}
        return
    for tile in dict.fromkeys(me["rack"]):
        yield {"seat": seat, "type": "discard", "tile": tile}
    for action in _lays(rs, pos, seat, me["rack"], None, ("open", "meld", "add", "swap")):
        yield {"seat": seat, **action}


def _supply(rs, pos: dict, rack: list[str]) -> meldgen.Supply:
    def face_of(tile: str) -> str | None:
        face = tile_face(tile, rs.meld_rules, pos["indicator"])
        return str(face) if face else None

    return meldgen.supply(rack, rs.okey(pos), face_of, bare_self=True)


def _lays(rs, pos: dict, seat: int, rack: list[str], must: str | None, types) -> Iterator[dict]:
    """Table actions (without ``seat``) laying tiles of ``rack``; with ``must`` (a taken
    discard, in the rack already) only those placing that tile, in every layout."""
    opened = pos["seats"][seat]["opened"]
    sup = _supply(rs, pos, rack)
    variants = must is not None

    def uses(tiles: list[str]) -> bool:
        return must is None or must in {physical(t) for t in tiles}

    if opened == "no":
        if "open" in types:
            for melds in _openings(rs, pos, sup, rack, must):
                yield {"type": "open", "melds": melds}
        return
    if "meld" in types:
        for tiles, owner in _new_melds(rs, pos, seat, sup, variants):
            if len(tiles) < len(rack) and uses(tiles):
                yield ({"type": "meld", "tiles": tiles} if owner == seat
                       else {"type": "meld", "tiles": tiles, "owner": owner})
    if "add" in types and (opened == "melds" or rs.pairs_may_add):
        for meld_id, tile in _adds(rs, pos, sup, rack):
            if uses([tile]):
                yield {"type": "add", "meld": meld_id, "tile": tile}
    if "swap" in types and (opened == "melds" or rs.pairs_may_swap):
        for meld_id, tile in _swaps(rs, pos, sup):
            yield {"type": "swap", "meld": meld_id, "tile": tile}


def _new_melds(rs, pos: dict, seat: int, sup: meldgen.Supply, variants: bool) -> Iterator[tuple[list[str], int]]:
    """(written tiles, owner) of the new melds an opened seat may lay."""
    if pos["seats"][seat]["opened"] == "pairs":
        for tiles in meldgen.pairs(sup, variants, all_wild_faces=True):
            yield tiles, seat
        return
    for tiles in chain(meldgen.runs(sup, rs.meld_rules, variants), meldgen.groups(sup, variants)):
        yield tiles, seat
    others = [s for s, other in enumerate(pos["seats"]) if s != seat and other["opened"] == "pairs"]
    if others and rs.may_name_owner(pos, seat, {"type": "meld", "tiles": [None, None]}):
        for tiles in meldgen.pairs(sup, variants, all_wild_faces=True):
            for owner in others:
                yield tiles, owner


def _openings(rs, pos: dict, sup: meldgen.Supply, rack: list[str], must: str | None) -> Iterator[list[list[str]]]:
    """Meld openings reaching the threshold, then pairs openings (bounded search)."""
    variants = must is not None
    shapes = chain(meldgen.runs(sup, rs.meld_rules, variants), meldgen.groups(sup, variants))
    threshold = rs.threshold(pos)
    yield from meldgen.disjoint_sets(_scored(rs, pos, shapes), rack, lambda total, count: total >= threshold, must=must)
    pairs = _scored(rs, pos, meldgen.pairs(sup, variants, all_wild_faces=variants))
    yield from meldgen.disjoint_sets(pairs, rack, lambda total, count: rs.pairs_open(pos, total, count), must=must)


def _scored(rs, pos: dict, shapes) -> list[tuple[list[str], int]]:
    out = []
    for tiles in shapes:
        meld = rs.meld(pos, tiles)
        if meld is not None:
            out.append((tiles, meld.points))
    return out


def _adds(rs, pos: dict, sup: meldgen.Supply, rack: list[str]) -> Iterator[tuple[int, str]]:
    """(meld id, written tile) for every rack tile where it fits (a wild: each face)."""
    okey = rs.okey(pos)
    for entry in pos["table"]:
        meld = rs.meld(pos, entry["tiles"])
        if meld is None:
            continue
        faces = [face for face, _ in extensions(meld, rs.meld_rules)]
        for face in faces:
            for tile in dict.fromkeys(sup.faces.get(face, ())):
                yield entry["id"], tile
            if okey in rack:
                yield entry["id"], sup.written(face)


def _swaps(rs, pos: dict, sup: meldgen.Supply) -> Iterator[tuple[int, str]]:
    """(meld id, real tile) for every wild on the table a rack tile stands for (D-25)."""
    for entry in pos["table"]:
        meld = rs.meld(pos, entry["tiles"])
        if meld is None:
            continue
        for face in dict.fromkeys(f for f, wild in zip(meld.faces, meld.wild) if wild):
            for tile in dict.fromkeys(sup.faces.get(face, ())):
                yield entry["id"], tile


def add_targets(rs, pos: dict, seat: int, tile: str) -> list[int]:
    """Ids of table melds ``tile`` (bare, or ``okey=face``) can be added to by ``seat``
    now; a bare wild counts where some represented face fits (RULES.md §6 one-tap add)."""
    if pos.get("result"):
        return []
    pos = rs.loaded(pos)
    okey = rs.okey(pos)
    out = []
    for m in pos["table"]:
        candidates = [tile]
        if tile == okey:
            c = rs.meld(pos, m["tiles"])
            candidates += [f"{okey}={f}" for f, _ in extensions(c, rs.meld_rules)] if c else []
        for cand in candidates:
            done = rs.step(pos, {"seat": seat, "type": "add", "meld": m["id"], "tile": cand})
            if done.code == "must_keep_tile":
                break
            if done.accepted:
                out.append(m["id"])
                break
    return out
