"""The ``rami`` ruleset (Rummikub), RULES.md §5.

A round is a value: :func:`deal` makes one, :func:`apply` returns the next
position or raises :class:`~games.engine.errors.IllegalAction`; nothing is
mutated.  A turn is either ``play`` (the player's whole new table) or ``draw``
(one pile tile; a pass when the pile is empty).

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
import random
from collections import Counter
from functools import lru_cache

from games.engine import melds
from games.engine.errors import IllegalAction
from games.engine.tiles import COLOURS, JOKER, full_set, is_tile, parse_face, split_wild

__all__ = [
    "RULESET", "HAND_SIZE", "THRESHOLD", "DEFAULT_OPTIONS", "normalize_options",
    "deal", "apply", "view", "meld_info", "score", "is_over", "round_scores",
    "penalty_tiles", "add_targets", "add_action", "rack_value",
    "match_length", "match_over", "standings",
]

RULESET = "rami"
HAND_SIZE = 14
"""Tiles dealt to every seat (RULES.md §1, §5)."""
THRESHOLD = 30
"""Points the initial meld needs, from the player's own rack (RULES.md §5)."""
JOKER_VALUES = (30, 50)
"""A joker left in a rack costs 30, or 50 with the house option (RULES.md §5)."""
DEFAULT_OPTIONS = {"rounds": None, "target": None, "joker_value": 30, "double_one_turn": False}
"""RULES.md §7 defaults: one round per player (``rounds`` None, no ``target``), joker 30,
no doubling for going out in one turn."""
PLAYERS = range(2, 7)
"""2-4 players with 106 tiles, 5-6 with the 160-tile set (D-1)."""


# --- options and match ---------------------------------------------------------------

def normalize_options(options: dict | None) -> dict:
    """Fill the defaults of RULES.md §7 into ``rami`` table options.

    Args: ``options`` — ``{rounds, target, joker_value, double_one_turn}``, any key missing.
    ``rounds``: a positive number of rounds, or None for the official one round per
    player; ``target``: a positive score that ends the match, or None; ``joker_value``:
    30 or 50 (points); ``double_one_turn``: bool.
    Returns a new dict with all four keys.
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


def match_length(options: dict | None, players: int) -> int | None:
    """Rounds in a match: ``rounds``, or one per player (official); None when playing
    to a ``target`` score.  RULES.md §5 "Match"."""
    options = normalize_options(options)
    if options["target"] is not None:
        return None
    return options["rounds"] or players


def match_over(options: dict | None, players: int, totals: list[int], rounds_played: int) -> bool:
    """True when the match ends after ``rounds_played`` rounds with running ``totals``
    (points per seat): the round count is reached, or some total reached the target."""
    options = normalize_options(options)
    if options["target"] is not None:
        return max(totals) >= options["target"]
    return rounds_played >= match_length(options, players)


def standings(totals: list[int]) -> list[int]:
    """Seats best first: highest total wins, ties by seat order (RULES.md §5)."""
    return sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))


# --- deal ----------------------------------------------------------------------------

def deal(options: dict | None, seed: str, players: int = 4, first: int = 0) -> dict:
    """A new round: the set shuffled with ``random.Random(seed)``, 14 tiles to each seat,
    the rest as the pile; seat ``first`` moves first.

    Args: ``options`` (see :func:`normalize_options`), ``seed`` (str or int), ``players``
    2-6 (106 tiles up to 4, the 160-tile set for 5-6, D-1), ``first`` a seat.
    Returns a position (module docstring).  Raises ValueError on bad arguments.
    """
    if players not in PLAYERS:
        raise ValueError("rami is played by 2 to 6 players")
    if type(first) is not int or not 0 <= first < players:
        raise ValueError("first must be a seat")
    options = normalize_options(options)
    tiles = full_set(RULESET, players)
    random.Random(seed).shuffle(tiles)
    seats = [
        {"rack": tiles[i * HAND_SIZE:(i + 1) * HAND_SIZE], "opened": "no", "penalty": 0}
        for i in range(players)
    ]
    return {
        "ruleset": RULESET,
        "options": options,
        "players": players,
        "turn": first,
        "pile": tiles[players * HAND_SIZE:],
        "seats": seats,
        "table": [],
        "turn_state": {"passes": 0},
        "last_action": None,
        "result": None,
    }


# --- melds ---------------------------------------------------------------------------

MELD_RULES = melds.rules_for(RULESET)
"""Runs of one colour with the 1 only before 2, groups of 3-4 colours, no pairs,
``J=X`` jokers (RULES.md §2)."""


@lru_cache(maxsize=65536)
def _classify(tiles: tuple[str, ...]) -> melds.Meld | None:
    """:func:`games.engine.melds.classify` for rami, cached (bots try many tables)."""
    return melds.classify(tiles, MELD_RULES)


def meld_info(tiles: list[str], indicator: str | None = None) -> dict:
    """Classify a written ``rami`` meld (RULES.md §2, §8 ``meld`` vectors).

    Args: ``tiles`` — written tiles, a joker as ``J=X`` (a bare ``J`` is never valid);
    ``indicator`` is accepted for a uniform ruleset interface and ignored (no indicator).
    Returns ``{"valid": False}`` or ``{"valid": True, "type": "run"|"group",
    "points": N}`` with N the sum of values (a joker counts as the tile it represents).
    """
    meld = _classify(tuple(tiles))
    if meld is None:
        return {"valid": False}
    return {"valid": True, "type": meld.type, "points": meld.points}


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


def wild_forms(meld: list[str]) -> list[str]:
    """The ``J=X`` forms a joker could take to extend the valid ``meld`` (a run's low
    end first, then its high end; a group's missing colours); ``[]`` if it cannot."""
    classified = _classify(tuple(meld))
    if classified is None:
        return []
    return [f"{JOKER}={face}" for face, _ in melds.extensions(classified, MELD_RULES)]


# --- scoring -------------------------------------------------------------------------

def rack_value(rack: list[str], joker_value: int = 30) -> int:
    """Points of a rack: each numbered tile its number, each joker ``joker_value``
    (30 or 50).  RULES.md §5 "End"."""
    return sum(joker_value if tile == JOKER else parse_face(tile).number for tile in rack)


def score(options: dict | None, seats: list[dict], finisher: int | None, direct: bool = False,
          *, indicator: str | None = None, final_discard: str | None = None) -> list[int]:
    """End-of-round amounts per seat (positive is good).  RULES.md §5 "End", §8 ``score``.

    Args: ``seats`` — ``[{"rack": [tiles], "opened": "yes"|"no"}, ...]`` at the end;
    ``finisher`` — the seat that laid its last tile, or None when the pile ran out and
    everyone passed; ``direct`` — the finisher laid the whole rack in one turn without
    having laid before (doubles every amount once with the ``double_one_turn`` option);
    ``indicator``/``final_discard`` are ignored (``rami`` has neither).

    With a finisher every other seat scores minus its rack value and the finisher the
    sum of those.  Without, the lowest rack wins (ties: first seat, D-22), every other
    seat loses the difference and the winner scores the sum of the differences (D-15).
    """
    options = normalize_options(options)
    values = [rack_value(seat["rack"], options["joker_value"]) for seat in seats]
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


def _lowest(values: list[int]) -> int:
    """The seat with the lowest rack value, ties to the first seat (D-22)."""
    return min(range(len(values)), key=lambda seat: (values[seat], seat))


# --- playing -------------------------------------------------------------------------

def apply(position: dict, action: dict) -> dict:
    """The position after ``action``; ``position`` is never mutated.

    Actions (RULES.md §7): ``{"seat", "type": "draw"}`` and
    ``{"seat", "type": "play", "table": [[tile, ...], ...]}``.
    Raises IllegalAction with the first code of RULES.md §7's order: ``round_over``,
    ``not_your_turn``, ``table_mismatch``, ``initial_meld_touches_table``,
    ``invalid_meld``, ``below_threshold``, ``no_tiles_played``; ``bad_action`` for a
    malformed or unknown action (docs/engine-api.md).
    """
    if not isinstance(action, dict):
        raise IllegalAction("bad_action")
    seat = action.get("seat")
    if type(seat) is not int or not 0 <= seat < len(position["seats"]):
        raise IllegalAction("bad_action")
    if position.get("result") is not None:
        raise IllegalAction("round_over")
    if seat != position["turn"]:
        raise IllegalAction("not_your_turn")
    kind = action.get("type")
    if kind == "draw":
        return _draw(position, seat)
    if kind == "play":
        return _play(position, seat, _parse_table(action.get("table")))
    raise IllegalAction("bad_action")


def _parse_table(table: object) -> list[list[str]]:
    """Check a ``play`` table's shape: a list of lists of tile strings (``x=y`` allowed)."""
    if not isinstance(table, list):
        raise IllegalAction("bad_action")
    for meld in table:
        if not isinstance(meld, list):
            raise IllegalAction("bad_action")
        for tile in meld:
            try:
                split_wild(tile)
            except ValueError:
                raise IllegalAction("bad_action") from None
    return table


def _physical(tile: str) -> str:
    return split_wild(tile)[0]


def _tiles_of(table: list[list[str]]) -> Counter:
    """The physical tiles of a table, as a multiset."""
    return Counter(_physical(tile) for meld in table for tile in meld)


def _meld_key(meld: list[str]) -> tuple[str, ...]:
    """A meld as a multiset of written tiles: untouched melds compare equal in any order
    (RULES.md §7 fine points)."""
    return tuple(sorted(meld))


def _play(position: dict, seat: int, table: list[list[str]]) -> dict:
    """Apply a ``play``: checks in RULES.md §7 order, then lays the tiles."""
    me = position["seats"][seat]
    old = _tiles_of(position["table"])
    new = _tiles_of(table)
    laid = new - old
    if old - new or laid - Counter(me["rack"]):
        missing, extra = sorted((old - new).elements()), sorted((laid - Counter(me["rack"])).elements())
        raise IllegalAction("table_mismatch", f"missing from the table {missing}, not in the rack {extra}")
    opening = me["opened"] != "yes"
    if opening:
        old_melds = Counter(_meld_key(m) for m in position["table"])
        new_melds = Counter(_meld_key(m) for m in table)
        if old_melds - new_melds:
            raise IllegalAction("initial_meld_touches_table", "the initial meld uses only rack tiles")
    bad = [meld for meld in table if not meld_info(meld)["valid"]]
    if bad:
        raise IllegalAction("invalid_meld", f"not a run or group: {bad[0]}")
    if opening:
        fresh = (new_melds - old_melds).elements()
        points = sum(meld_info(list(key))["points"] for key in fresh)
        if points < THRESHOLD:
            raise IllegalAction("below_threshold", f"initial meld worth {points} < {THRESHOLD}")
    if not laid:
        raise IllegalAction("no_tiles_played")

    result = _clone(position)
    rack = list(me["rack"])
    for tile in laid.elements():
        rack.remove(tile)
    result["seats"][seat]["rack"] = rack
    result["seats"][seat]["opened"] = "yes"
    result["table"] = [canonical_meld(meld) for meld in table]
    result["turn_state"] = {"passes": 0}
    result["last_action"] = {"seat": seat, "type": "play", "table": copy.deepcopy(result["table"])}
    if rack:
        result["turn"] = (seat + 1) % len(result["seats"])
    else:
        _finish(result, finisher=seat, direct=opening)
    return result


def _clone(position: dict) -> dict:
    """A working copy with new containers for what an action changes (racks, pile,
    table list); melds and tile strings are shared because they are never mutated.
    Fills ``options`` (normalized) and ``players`` for a loaded position."""
    result = dict(position)
    result["options"] = normalize_options(position.get("options"))
    result["players"] = len(position["seats"])
    result["seats"] = [dict(seat, rack=list(seat["rack"])) for seat in position["seats"]]
    result["pile"] = list(position["pile"])
    result["table"] = list(position["table"])
    result.setdefault("result", None)
    return result


def _draw(position: dict, seat: int) -> dict:
    """Apply a ``draw``: the top pile tile to the rack; on an empty pile a pass, and when
    every seat has passed in a row the round ends blocked (RULES.md §5, D-15, D-22)."""
    result = _clone(position)
    passes = (position.get("turn_state") or {}).get("passes", 0)
    if result["pile"]:
        result["seats"][seat]["rack"].append(result["pile"].pop(0))
        passes = 0
    else:
        passes += 1
    result["turn_state"] = {"passes": passes}
    result["last_action"] = {"seat": seat, "type": "draw"}
    if passes >= len(result["seats"]):
        _finish(result, finisher=None, direct=False)
    else:
        result["turn"] = (seat + 1) % len(result["seats"])
    return result


def _finish(position: dict, finisher: int | None, direct: bool) -> None:
    """Write the end-of-round ``result`` into ``position`` (a private copy)."""
    options = normalize_options(position.get("options"))
    seats = position["seats"]
    scores = score(options, seats, finisher, direct)
    if finisher is None:
        winner = _lowest([rack_value(s["rack"], options["joker_value"]) for s in seats])
        end = "blocked"
    else:
        winner, end = finisher, ("direct" if direct else "rami")
    position["result"] = {
        "finisher": finisher,
        "winner": winner,
        "end": end,
        "scores": scores,
        "final_discard": None,
        "racks": [list(s["rack"]) for s in seats],
    }


# --- reading a position --------------------------------------------------------------

def is_over(position: dict) -> bool:
    """True when the round has ended (a seat went out, or everyone passed on an empty pile)."""
    return position.get("result") is not None


def round_scores(position: dict) -> list[int] | None:
    """End-of-round amounts per seat (points, positive is good), None while running."""
    result = position.get("result")
    return list(result["scores"]) if result else None


def penalty_tiles(position: dict, seat: int) -> list[str]:
    """Always ``[]``: ``rami`` has no discards, so no penalised tiles (RULES.md §5)."""
    return []


def view(position: dict, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) may see: its own rack only, other racks and the
    pile as counts (ARCHITECTURE.md invariant 3, docs/engine-api.md "The view").

    Raises ValueError when ``seat`` is not a seat of the position.
    """
    seats = position["seats"]
    if seat is not None and (type(seat) is not int or not 0 <= seat < len(seats)):
        raise ValueError("seat out of range")
    opened = [s["opened"] for s in seats]
    threshold = THRESHOLD if seat is not None and opened[seat] != "yes" else None
    return {
        "ruleset": RULESET,
        "options": normalize_options(position.get("options")),
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
        "threshold": threshold,
        "turn_state": copy.deepcopy(position.get("turn_state") or {"passes": 0}),
        "last_action": copy.deepcopy(position.get("last_action")),
        "result": copy.deepcopy(position.get("result")),
    }


# --- assisted table ------------------------------------------------------------------

def _extensions(meld: list[str], tile: str) -> list[list[str]]:
    """Valid melds made of ``meld`` plus ``tile`` (a joker in each form it can take)."""
    forms = wild_forms(meld) if tile == JOKER else [tile]
    return [meld + [form] for form in forms if meld_info(meld + [form])["valid"]]


def add_targets(position: dict, seat: int, tile: str) -> list[int]:
    """Indices of table melds that ``tile`` from ``seat``'s rack extends, for the assisted
    one-tap add (RULES.md §6).  Only on the seat's turn, after its initial meld, while the
    round runs, and for a tile in its rack; otherwise ``[]``.
    """
    if position.get("result") is not None or position["turn"] != seat:
        return []
    me = position["seats"][seat]
    if me["opened"] != "yes" or not is_tile(tile) or tile not in me["rack"]:
        return []
    return [i for i, meld in enumerate(position["table"]) if _extensions(meld, tile)]


def add_action(position: dict, seat: int, tile: str, index: int) -> dict:
    """The ``play`` action that adds ``tile`` to table meld ``index`` (the one-tap add).

    A joker takes the first form that fits (the high end of a run first).
    Raises ValueError when ``index`` is not in :func:`add_targets`.
    """
    if index not in add_targets(position, seat, tile):
        raise ValueError("the tile does not extend that meld")
    table = copy.deepcopy(position["table"])
    table[index] = canonical_meld(_extensions(table[index], tile)[-1])
    return {"seat": seat, "type": "play", "table": table}
