"""The moves a ``rami`` seat can make without rearranging the table (RULES.md §5, §6):
the legal actions, and the assisted table's one-tap add.  ``rs`` is the
:class:`~games.engine.rulesets.rami.Rami` object."""
from __future__ import annotations

import copy
from itertools import chain
from typing import Iterator

from .. import meldgen
from ..tiles import JOKER, is_tile

COMBINATIONS = 32
"""Plays of several rack melds at once that ``legal_actions`` offers (a bounded search)."""


def _supply(rack: list[str]) -> meldgen.Supply:
    return meldgen.supply(rack, JOKER, lambda tile: tile, bare_self=False)


def _extensions(rs, meld: list[str], tile: str) -> list[list[str]]:
    """Valid melds made of ``meld`` plus ``tile`` (a joker in each form it can take)."""
    forms = rs.wild_forms(meld) if tile == JOKER else [tile]
    return [meld + [form] for form in forms if rs.meld_info(meld + [form])["valid"]]


def add_targets(rs, position: dict, seat: int, tile: str) -> list[int]:
    """Indices of table melds that ``tile`` from ``seat``'s rack extends, for the assisted
    one-tap add (RULES.md §6).  Only on the seat's turn, after its initial meld, while the
    round runs, and for a tile in its rack; otherwise ``[]``."""
    if position.get("result") is not None or position["turn"] != seat:
        return []
    me = position["seats"][seat]
    if me["opened"] != "yes" or not is_tile(tile) or tile not in me["rack"]:
        return []
    return [i for i, meld in enumerate(position["table"]) if _extensions(rs, meld, tile)]


def add_action(rs, position: dict, seat: int, tile: str, index: int) -> dict:
    """The ``play`` action that adds ``tile`` to table meld ``index`` (the one-tap add).
    A joker takes the last form that fits (the high end of a run first).
    Raises ValueError when ``index`` is not in :func:`add_targets`."""
    if index not in add_targets(rs, position, seat, tile):
        raise ValueError("the tile does not extend that meld")
    table = copy.deepcopy(position["table"])
    table[index] = rs.canonical_meld(_extensions(rs, table[index], tile)[-1])
    return {"seat": seat, "type": "play", "table": table}


def legal_actions(rs, position: dict, seat: int) -> Iterator[dict]:
    """The legal actions of ``seat`` now (RULES.md §5, §7); nothing when the round is over
    or it is another seat's turn.

    ``draw`` (a pass on an empty pile), then plays that leave the table's melds as they
    are: before the initial meld, the sets of rack melds worth 30 or more (a bounded
    depth-first search, biggest melds first: at most 48 sets or 3,000 nodes); after it,
    every single rack meld (a joker only where a tile is missing), up to
    :data:`COMBINATIONS` plays of several rack melds, and every single-tile add (a joker
    in each form it fits).  Table rearrangements are not enumerated.  Every yielded
    action is accepted by ``rs.step``.
    """
    if position.get("result") is not None or position.get("turn") != seat:
        return
    yield {"seat": seat, "type": "draw"}
    me = position["seats"][seat]
    table = [list(m) for m in position["table"]]
    sup = _supply(me["rack"])
    scored = [(m, rs.meld_info(m)["points"]) for m in _rack_melds(rs, sup)]
    if me["opened"] != "yes":
        plays = (table + ms for ms in meldgen.disjoint_sets(
            scored, me["rack"], lambda total, count: total >= rs.initial_threshold, keep=0))
    else:
        singles = (table + [m] for m, _ in scored)
        several = (table + ms for ms in meldgen.disjoint_sets(
            scored, me["rack"], lambda total, count: count >= 2, keep=0, limit=COMBINATIONS))
        plays = chain(singles, several, _adds(rs, table, me["rack"]))
    for new in plays:
        action = {"seat": seat, "type": "play", "table": new}
        if rs.step(position, action).accepted:
            yield action


def _rack_melds(rs, sup: meldgen.Supply) -> list[list[str]]:
    out = []
    for tiles in chain(meldgen.runs(sup, rs.meld_rules), meldgen.groups(sup)):
        if rs.meld_info(tiles)["valid"]:
            out.append(tiles)
    return out


def _adds(rs, table: list[list[str]], rack: list[str]) -> Iterator[list[list[str]]]:
    """Tables with one rack tile added to one meld (a joker in each form)."""
    for i, meld in enumerate(table):
        for tile in dict.fromkeys(rack):
            for grown in _extensions(rs, meld, tile):
                yield table[:i] + [grown] + table[i + 1:]
