"""The ``rami`` ruleset (Rummikub), RULES.md §5: the class :class:`Rami`.

A round is a value: :meth:`Rami.deal` makes one, :meth:`Rami.step` answers an action
with a :class:`~games.engine.step.Step`; nothing is mutated.  A turn is either
``play`` (the player's whole new table) or ``draw`` (one pile tile; a pass when the
pile is empty).  The moves a seat can make (legal actions, the assisted one-tap add)
are in ``rami_moves.py``.

Position (RULES.md §7 for ``rami`` plus the keys of ``docs/engine-api.md``)::

    {"ruleset": "rami", "options": {...}, "players": 4, "turn": 0,
     "pile": ["K3", ...],                       # next tile first
     "seats": [{"rack": [...], "opened": "no"|"yes", "penalty": 0}, ...],
     "table": [["R4", "R5", "R6"], ["J=K7", "K8", "K9"]],
     "turn_state": {"passes": 0},               # passes in a row on an empty pile
     "last_action": None | {...}, "result": None | {...}}
"""
from __future__ import annotations

import copy
from collections import Counter
from functools import lru_cache
from typing import Iterator

from .. import fairdeal, melds
from ..actions import action_problem
from ..errors import Refused
from ..step import Step
from ..tiles import COLOURS, JOKER, parse_face, physical
from . import rami_moves
from .base import Ruleset

HAND_SIZE = 14
"""Tiles dealt to every seat (RULES.md §1, §5)."""
THRESHOLD = 30
"""Points the initial meld needs, from the player's own rack (RULES.md §5)."""
JOKER_VALUES = (30, 50)
"""A joker left in a rack costs 30, or 50 with the house option (RULES.md §5)."""
DEFAULT_OPTIONS = {"rounds": None, "target": None, "joker_value": 30, "double_one_turn": False}
"""RULES.md §7 defaults: one round per player (``rounds`` None, no ``target``), joker 30,
no doubling for going out in one turn."""
MELD_RULES = melds.MeldRules("rami", ace_high=False, pairs=False, descending=False, joker_wild=True, points="sum")
"""Runs of one colour with the 1 only before 2, groups of 3-4 colours, no pairs,
``J=X`` jokers (RULES.md §2)."""


@lru_cache(maxsize=65536)
def _classify(tiles: tuple[str, ...]) -> melds.Meld | None:
    """:func:`games.engine.melds.classify` for rami, cached (bots try many tables)."""
    return melds.classify(tiles, MELD_RULES)


def _tiles_of(table: list[list[str]]) -> Counter:
    """The physical tiles of a table, as a multiset."""
    return Counter(physical(tile) for meld in table for tile in meld)


def _meld_key(meld: list[str]) -> tuple[str, ...]:
    """A meld as a multiset of written tiles: untouched melds compare equal in any order
    (RULES.md §7 fine points)."""
    return tuple(sorted(meld))


def _lowest(values: list[int]) -> int:
    """The seat with the lowest rack value, ties to the first seat (D-22)."""
    return min(range(len(values)), key=lambda seat: (values[seat], seat))


class Rami(Ruleset):
    """RULES.md §5: every rami fact and rule decision."""

    id, name = "rami", "Rami"
    seat_counts = (2, 3, 4, 5, 6)
    higher_wins = True
    has_discards = False
    has_indicator = False
    option_keys = tuple(DEFAULT_OPTIONS)
    meld_rules = MELD_RULES
    action_types = ("draw", "play")
    extra_tile = JOKER
    initial_threshold = THRESHOLD
    round_penalties = False  # RULES.md §5: rami has no in-round penalty

    def opening_rules(self) -> dict:
        """The initial meld: at least 30 points from the player's own tiles; no pairs."""
        return {"threshold": self.initial_threshold, "pairs": None}

    # --- options and match -----------------------------------------------------------
    def normalize_options(self, options: dict | None) -> dict:
        """Fill the defaults of RULES.md §7 into ``rami`` table options.

        ``options``: ``{rounds, target, joker_value, double_one_turn}``, any key missing.
        ``rounds``: a positive number of rounds, or None for the official one round per
        player; ``target``: a positive score that ends the match, or None; ``joker_value``:
        30 or 50 (points); ``double_one_turn``: bool.  Returns a new dict with all four keys.
        Raises ValueError on an unknown key, a bad value, or both ``rounds`` and ``target``
        (RULES.md §5: "a number of rounds, or play to a target score").
        """
        options = dict(options or {})
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise ValueError(f"unknown rami options: {sorted(unknown)}")
        result = {**DEFAULT_OPTIONS, **options}
        for key in ("rounds", "target"):
            value = result[key]
            if value is not None and (type(value) is not int or value < 1):
                raise ValueError(f"rami option {key} must be a positive integer or None")
        if result["rounds"] is not None and result["target"] is not None:
            raise ValueError("rami options: choose rounds or target, not both")
        if result["joker_value"] not in JOKER_VALUES or type(result["joker_value"]) is not int:
            raise ValueError("rami option joker_value must be 30 or 50")
        if type(result["double_one_turn"]) is not bool:
            raise ValueError("rami option double_one_turn must be a bool")
        return result

    def match_length(self, options: dict | None, players: int) -> int | None:
        """Rounds in a match: ``rounds``, or one per player (official); None when playing
        to a ``target`` score.  RULES.md §5 "Match"."""
        options = self.normalize_options(options)
        if options["target"] is not None:
            return None
        return options["rounds"] or players

    def match_over(self, options: dict | None, players: int, totals: list[int], rounds_played: int) -> bool:
        """True when the match ends after ``rounds_played`` rounds with running ``totals``
        (points per seat): the round count is reached, or some total reached the target."""
        options = self.normalize_options(options)
        if options["target"] is not None:
            return max(totals) >= options["target"]
        return rounds_played >= self.match_length(options, players)

    # --- deal ------------------------------------------------------------------------
    def deal(self, options: dict | None, deal_seed: str, players: int = 4, first: int = 0) -> dict:
        """A new round laid out by ``okeysite-shuffle-1`` (docs/fair-deals.md §4-§5): the set
        shuffled with ``deal_seed``, 14 tiles to each seat from seat 0, the rest as the pile;
        seat ``first`` moves first.

        ``options`` (see :meth:`normalize_options`), ``deal_seed`` (64 lowercase hex, from
        :func:`games.engine.fairdeal.deal_seed`), ``players`` 2-6 (106 tiles up to 4, the
        160-tile set for 5-6, D-1), ``first`` a seat.  Returns a position (module
        docstring).  Raises ValueError on bad arguments.
        """
        if players not in self.seat_counts:
            raise ValueError("rami is played by 2 to 6 players")
        if type(first) is not int or not 0 <= first < players:
            raise ValueError("first must be a seat")
        options = self.normalize_options(options)
        dealt = fairdeal.layout(self.id, players, first, deal_seed)
        seats = [{"rack": rack, "opened": "no", "penalty": 0} for rack in dealt["racks"]]
        return {
            "ruleset": self.id, "options": options, "players": players, "turn": first,
            "pile": dealt["pile"], "seats": seats, "table": [],
            "turn_state": {"passes": 0}, "last_action": None, "result": None,
        }

    # --- melds -----------------------------------------------------------------------
    def meld_info(self, tiles: list[str], indicator: str | None = None) -> dict:
        """Classify a written ``rami`` meld (RULES.md §2, §8 ``meld`` vectors); a joker is
        written ``J=X`` (a bare ``J`` is never valid); ``indicator`` is ignored (rami has
        none).  Returns ``{"valid": False}`` or ``{"valid": True, "type": "run"|"group",
        "points": N}``, N the sum of values (a joker counts as the tile it represents)."""
        meld = _classify(tuple(tiles))
        if meld is None:
            return {"valid": False}
        return {"valid": True, "type": meld.type, "points": meld.points}

    @staticmethod
    def canonical_meld(tiles: list[str]) -> list[str]:
        """A valid meld in stored order: a run lowest first (D-5), a group by colour
        (``RBKY``).  Raises ValueError for an invalid meld."""
        meld = _classify(tuple(tiles))
        if meld is None:
            raise ValueError(f"not a rami meld: {tiles}")
        if meld.type == melds.GROUP:
            order = sorted(range(len(tiles)), key=lambda i: COLOURS.index(meld.faces[i][0]))
            return [meld.tiles[i] for i in order]
        return list(meld.tiles)

    @staticmethod
    def wild_forms(meld: list[str]) -> list[str]:
        """The ``J=X`` forms a joker could take to extend the valid ``meld`` (a run's low
        end first, then its high end; a group's missing colours); ``[]`` if it cannot."""
        classified = _classify(tuple(meld))
        if classified is None:
            return []
        return [f"{JOKER}={face}" for face, _ in melds.extensions(classified, MELD_RULES)]

    # --- scoring ---------------------------------------------------------------------
    @staticmethod
    def rack_value(rack: list[str], joker_value: int = 30) -> int:
        """Points of a rack: each numbered tile its number, each joker ``joker_value``
        (30 or 50).  RULES.md §5 "End"."""
        return sum(joker_value if tile == JOKER else parse_face(tile).number for tile in rack)

    def score(self, options: dict | None, seats: list[dict], finisher: int | None,
              indicator: str | None = None, final_discard: str | None = None, direct: bool = False) -> list[int]:
        """End-of-round amounts per seat (positive is good).  RULES.md §5 "End", §8 ``score``.

        ``seats``: ``[{"rack": [tiles], "opened": "yes"|"no"}, ...]`` at the end;
        ``finisher``: the seat that laid its last tile, or None when the pile ran out and
        everyone passed; ``direct``: the finisher laid the whole rack in one turn without
        having laid before (doubles every amount once with the ``double_one_turn`` option);
        ``indicator``/``final_discard`` are ignored (``rami`` has neither).

        With a finisher every other seat scores minus its rack value and the finisher the
        sum of those.  Without, the lowest rack wins (ties: first seat, D-22), every other
        seat loses the difference and the winner scores the sum of the differences (D-15).
        """
        options = self.normalize_options(options)
        values = [self.rack_value(seat["rack"], options["joker_value"]) for seat in seats]
        if finisher is None:
            winner = _lowest(values)
            amounts = [values[winner] - value for value in values]
        else:
            winner = finisher
            amounts = [-value for value in values]
        amounts[winner] = 0
        amounts[winner] = -sum(amounts)
        if finisher is not None and direct and options["double_one_turn"]:
            amounts = [2 * amount for amount in amounts]
        return amounts

    # --- playing ---------------------------------------------------------------------
    def step(self, position: dict, action: dict) -> Step:
        """The Step of ``action`` (RULES.md §5, §7); ``position`` is never mutated.

        Actions: ``{"seat", "type": "draw"}`` and ``{"seat", "type": "play", "table":
        [[tile, ...], ...]}``.  Refusals in RULES.md §7 order: ``bad_action`` (D-29),
        ``round_over``, ``not_your_turn``, ``table_mismatch``,
        ``initial_meld_touches_table``, ``invalid_meld``, ``below_threshold``,
        ``no_tiles_played``.  rami has no in-round penalties.
        """
        if action_problem(self, position, action):
            return Step(position, False, "bad_action")
        if position.get("result") is not None:
            return Step(position, False, "round_over")
        seat = action["seat"]
        if seat != position["turn"]:
            return Step(position, False, "not_your_turn")
        try:
            if action["type"] == "draw":
                after = self._draw(position, seat)
            else:
                after = self._play(position, seat, action["table"])
        except Refused as refused:
            return Step(position, False, refused.code)
        return Step(after, True, None, (), after["result"])

    def _play(self, position: dict, seat: int, table: list[list[str]]) -> dict:
        """A ``play``: checks in RULES.md §7 order, then lays the tiles."""
        me = position["seats"][seat]
        old = _tiles_of(position["table"])
        laid = _tiles_of(table) - old
        if old - _tiles_of(table) or laid - Counter(me["rack"]):
            raise Refused("table_mismatch")
        opening = me["opened"] != "yes"
        if opening:
            old_melds = Counter(_meld_key(m) for m in position["table"])
            new_melds = Counter(_meld_key(m) for m in table)
            if old_melds - new_melds:
                raise Refused("initial_meld_touches_table", "the initial meld uses only rack tiles")
        if any(_classify(tuple(meld)) is None for meld in table):
            raise Refused("invalid_meld")
        if opening:
            points = sum(_classify(key).points for key in (new_melds - old_melds).elements())
            if points < self.initial_threshold:
                raise Refused("below_threshold", f"initial meld worth {points}")
        if not laid:
            raise Refused("no_tiles_played")
        result = self._clone(position)
        rack = list(me["rack"])
        for tile in laid.elements():
            rack.remove(tile)
        result["seats"][seat]["rack"] = rack
        result["seats"][seat]["opened"] = "yes"
        result["table"] = [self.canonical_meld(meld) for meld in table]
        result["turn_state"] = {"passes": 0}
        result["last_action"] = {"seat": seat, "type": "play", "table": [list(m) for m in result["table"]]}
        if rack:
            result["turn"] = (seat + 1) % len(result["seats"])
        else:
            self._finish(result, finisher=seat, direct=opening)
        return result

    def _clone(self, position: dict) -> dict:
        """A working copy with new containers for what an action changes (racks, pile,
        table list); melds and tile strings are shared because they are never mutated.
        Fills ``options`` (normalized) and ``players`` for a loaded position."""
        result = dict(position)
        result["options"] = self.normalize_options(position.get("options"))
        result["players"] = len(position["seats"])
        result["seats"] = [{"opened": "no", "penalty": 0, **seat, "rack": list(seat["rack"])}
                           for seat in position["seats"]]
        result["pile"] = list(position["pile"])
        result["table"] = list(position["table"])
        result.setdefault("result", None)
        return result

    def _draw(self, position: dict, seat: int) -> dict:
        """A ``draw``: the top pile tile to the rack; on an empty pile a pass, and when
        every seat has passed in a row the round ends blocked (RULES.md §5, D-15, D-22).
        A loaded position's passes in a row start at 0 (D-31)."""
        result = self._clone(position)
        passes = (position.get("turn_state") or {}).get("passes", 0)
        if result["pile"]:
            result["seats"][seat]["rack"].append(result["pile"].pop(0))
            passes = 0
        else:
            passes += 1
        result["turn_state"] = {"passes": passes}
        result["last_action"] = {"seat": seat, "type": "draw"}
        if passes >= len(result["seats"]):
            self._finish(result, finisher=None, direct=False)
        else:
            result["turn"] = (seat + 1) % len(result["seats"])
        return result

    def _finish(self, position: dict, finisher: int | None, direct: bool) -> None:
        """Write the end-of-round ``result`` into ``position`` (a private copy)."""
        options = position["options"]
        seats = position["seats"]
        if finisher is None:
            winner = _lowest([self.rack_value(s["rack"], options["joker_value"]) for s in seats])
            end = "blocked"
        else:
            winner, end = finisher, ("direct" if direct else "rami")
        position["result"] = {
            "finisher": finisher, "winner": winner, "end": end,
            "scores": self.score(options, seats, finisher, direct=direct),
            "final_discard": None, "racks": [list(s["rack"]) for s in seats],
        }

    # --- reading a position ----------------------------------------------------------
    def view(self, position: dict, seat: int | None) -> dict:
        """What ``seat`` (None: a spectator) may see: its own rack only, other racks and the
        pile as counts (ARCHITECTURE.md invariant 3, docs/engine-api.md "The view").
        Raises ValueError when ``seat`` is not a seat of the position."""
        seats = position["seats"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < len(seats)):
            raise ValueError("seat out of range")
        opened = [s["opened"] for s in seats]
        return {
            "ruleset": self.id,
            "options": self.normalize_options(position.get("options")),
            "players": len(seats),
            "seat": seat,
            "turn": position["turn"],
            "phase": "play",
            "rack": list(seats[seat]["rack"]) if seat is not None else [],
            "rack_counts": [len(s["rack"]) for s in seats],
            "pile_count": len(position["pile"]),
            "table": copy.deepcopy(position["table"]),
            "opened": opened,
            "penalty": [s.get("penalty", 0) for s in seats],
            "highest_opening": None,
            "threshold": self.initial_threshold if seat is not None and opened[seat] != "yes" else None,
            "turn_state": copy.deepcopy(position.get("turn_state") or {"passes": 0}),
            "last_action": copy.deepcopy(position.get("last_action")),
            "result": copy.deepcopy(position.get("result")),
        }

    def add_targets(self, position: dict, seat: int, tile: str) -> list[int]:
        """Indices of table melds that ``tile`` from ``seat``'s rack extends (the assisted
        one-tap add, RULES.md §6); see :func:`rami_moves.add_targets`."""
        return rami_moves.add_targets(self, position, seat, tile)

    def add_action(self, position: dict, seat: int, tile: str, index: int) -> dict:
        """The ``play`` action that adds ``tile`` to table meld ``index`` (the one-tap add);
        see :func:`rami_moves.add_action`."""
        return rami_moves.add_action(self, position, seat, tile, index)

    def legal_actions(self, position: dict, seat: int) -> Iterator[dict]:
        """Legal actions of ``seat`` now; see :func:`rami_moves.legal_actions`."""
        return rami_moves.legal_actions(self, position, seat)


RAMI = Rami()
"""The rami ruleset object (registered in ``RULESETS``)."""
meld_info = RAMI.meld_info
"""Module-level :meth:`Rami.meld_info` (``games.bots.rami`` imports it from here)."""
