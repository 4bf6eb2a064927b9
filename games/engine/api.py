"""The engine's public API (docs/engine-api.md): one entry point per operation,
dispatching on the ruleset id to ``games.engine.rulesets.<ruleset>``.

Everything is JSON-shaped data; nothing here mutates its inputs, reads the clock
or uses the global random generator (ARCHITECTURE.md invariant 1).
"""
from __future__ import annotations

import importlib
from types import ModuleType

from typing import Iterable, Iterator

from .errors import ERROR_ORDER, IllegalAction
from .melds import resolve
from .rulesets import RULESETS
from .rulesets.base import Ruleset
from .step import Penalty, Replay, Step

__all__ = [
    "RULESETS", "IllegalAction", "ERROR_ORDER", "NotImplementedRuleset", "normalize_options", "deal",
    "apply", "view", "is_over", "round_scores", "round_totals", "match_length", "match_over",
    "standings", "team_totals", "meld_info", "score", "penalty_tiles", "add_targets", "resolve_meld",
    "Ruleset", "ruleset", "step", "Step", "Penalty", "legal_actions", "replay", "Replay",
]


def ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset object of an id (``RULESETS[ruleset_id]``); ValueError for an unknown id."""
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown ruleset {ruleset_id!r}") from None


def step(position: dict, action: dict) -> Step:
    """What ``action`` (RULES.md §7 with ``seat``) does to ``position``: a
    :class:`~games.engine.step.Step` with the new position, accepted or the refusal
    code, the penalties it caused and the round result when it ends the round.
    Never mutates ``position``; never raises for a refused or malformed action
    (``bad_action``, D-29).  ValueError when ``position`` names no known ruleset."""
    return ruleset(_ruleset_of(position)).step(position, action)


def legal_actions(position: dict, seat: int) -> Iterator[dict]:
    """The legal actions of ``seat`` now, as RULES.md §7 action dicts with ``seat``;
    nothing when it is not that seat's turn or the round is over."""
    return ruleset(_ruleset_of(position)).legal_actions(position, seat)


def replay(initial: dict, moves: Iterable[dict]) -> Replay:
    """Play the actions ``moves`` (RULES.md §7 dicts with ``seat``) from ``initial``:
    the only replay loop (verify_round, self-play records, tests).  Refused moves are
    Steps like any other (a refusal whose penalty stays moves the position on).
    Returns a :class:`~games.engine.step.Replay` (final position and one Step per move)."""
    position = initial
    steps = []
    for action in moves:
        done = step(position, action)
        steps.append(done)
        position = done.position
    return Replay(position, steps)


class NotImplementedRuleset(NotImplementedError):
    """The ruleset's module (or the function asked for) does not exist yet."""


def ruleset_module(ruleset: str) -> ModuleType:
    """The module implementing ``ruleset``.

    Raises ValueError for an unknown id and :class:`NotImplementedRuleset` when the
    module is not there yet (``rami`` before its developer lands it).
    """
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    name = f"games.engine.rulesets.{ruleset}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            raise NotImplementedRuleset(ruleset) from None
        raise


def _fn(ruleset: str, name: str):
    fn = getattr(ruleset_module(ruleset), name, None)
    if fn is None:
        raise NotImplementedRuleset(f"{ruleset}.{name}")
    return fn


def _ruleset_of(position: dict) -> str:
    if not isinstance(position, dict) or "ruleset" not in position:
        raise ValueError("a position needs a ruleset")
    return position["ruleset"]


def normalize_options(ruleset: str, options: dict | None) -> dict:
    """Options with RULES.md §7 defaults filled in.

    okey51 ``{doubling: True, teams: False, rounds: 1|3}``; okey17 ``{rounds: 7}``;
    rami ``{rounds: None (one per player), target: None, joker_value: 30|50,
    double_one_turn: False}``.  Raises ValueError on an unknown ruleset or a bad value.
    """
    if ruleset == "rami":
        try:
            return _fn("rami", "normalize_options")(options)
        except NotImplementedRuleset:
            return _rami_options(options)
    return _fn(ruleset, "normalize_options")(options)


def _rami_options(options: dict | None) -> dict:
    out = dict(options or {})
    out.setdefault("rounds", None)
    out.setdefault("target", None)
    out.setdefault("joker_value", 30)
    out.setdefault("double_one_turn", False)
    for key in ("rounds", "target"):
        v = out[key]
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 1):
            raise ValueError(f"{key} must be a positive integer or null")
    if out["joker_value"] not in (30, 50):
        raise ValueError("joker_value is 30 or 50")
    if not isinstance(out["double_one_turn"], bool):
        raise ValueError("double_one_turn is a boolean")
    return out


def deal(ruleset: str, options: dict, seed: str, players: int = 4, first: int = 0) -> dict:
    """A new round's position dealt from ``random.Random(seed)`` (RULES.md §1, D-2).

    ``first``: the seat that moves first (okey: gets 15 tiles and skips the draw).
    Raises ValueError on bad arguments.
    """
    return _fn(ruleset, "deal")(options, seed, players, first)


def apply(position: dict, action: dict) -> dict:
    """The position after ``action`` (RULES.md §7 with ``seat``); never mutates the input.

    Raises :class:`IllegalAction` (``.code`` per RULES.md §7; ``.position`` set when
    penalties stay, okey17) — ``bad_action`` for a malformed/unknown action.
    """
    return _fn(_ruleset_of(position), "apply")(position, action)


def view(position: dict, seat: int | None) -> dict:
    """What ``seat`` may see (None = spectator): never another rack, never the pile."""
    return _fn(_ruleset_of(position), "view")(position, seat)


def is_over(position: dict) -> bool:
    """True when the round has ended."""
    return _fn(_ruleset_of(position), "is_over")(position)


def round_scores(position: dict) -> list[int] | None:
    """End-of-round amounts per seat (no in-round penalties), None while running."""
    return _fn(_ruleset_of(position), "round_scores")(position)


def round_totals(position: dict) -> list[int] | None:
    """``round_scores`` plus each seat's in-round ``penalty`` (okey: both count
    against the seat; rami: penalty is 0).  None while the round runs."""
    scores = round_scores(position)
    if scores is None:
        return None
    return [sc + int(seat.get("penalty", 0)) for sc, seat in zip(scores, position["seats"])]


def match_length(ruleset: str, options: dict | None, players: int) -> int | None:
    """Rounds in a match: okey51 1 or 3, okey17 7, rami ``rounds`` or one per player;
    None when rami plays to a ``target`` score (RULES.md §3-§6)."""
    own = getattr(ruleset_module(ruleset), "match_length", None)
    if own is not None:  # a ruleset may define its own match (rami does)
        return own(options, players)
    opts = normalize_options(ruleset, options)
    if ruleset == "rami":
        if opts.get("target"):
            return None
        return opts.get("rounds") or players
    return opts["rounds"]


def match_over(ruleset: str, options: dict | None, players: int, totals: list[int], rounds_played: int) -> bool:
    """Whether the match has ended after ``rounds_played`` rounds with these ``totals``."""
    own = getattr(ruleset_module(ruleset), "match_over", None)
    if own is not None:
        return own(options, players, totals, rounds_played)
    length = match_length(ruleset, options, players)
    if length is not None:
        return rounds_played >= length
    target = normalize_options(ruleset, options)["target"]
    return any(t >= target for t in totals)


def standings(ruleset: str, totals: list[int]) -> list[int]:
    """Seats best first: okey lowest total first, rami highest first; ties by seat."""
    sign = -1 if ruleset == "rami" else 1
    return sorted(range(len(totals)), key=lambda s: (sign * totals[s], s))


def team_totals(ruleset: str, options: dict | None, totals: list[int]) -> list[int] | None:
    """okey51 team play: ``[seat0 + seat2, seat1 + seat3]`` (lowest wins, RULES.md §3);
    None when the table is not played in teams."""
    if ruleset != "okey51" or not normalize_options(ruleset, options).get("teams") or len(totals) != 4:
        return None
    return [totals[0] + totals[2], totals[1] + totals[3]]


def meld_info(ruleset: str, tiles: list[str], indicator: str | None = None) -> dict:
    """``{"valid": False}`` or ``{"valid": True, "type": "run"|"group"|"pair", "points": N}``
    (RULES.md §2, §8 ``meld`` vectors)."""
    if ruleset == "rami":  # rami.meld_info takes no indicator (rami has none)
        return _fn(ruleset, "meld_info")(tiles)
    return _fn(ruleset, "meld_info")(tiles, indicator)


def score(ruleset: str, options: dict | None, seats: list[dict], finisher: int | None,
          indicator: str | None = None, final_discard: str | None = None, direct: bool = False) -> list[int]:
    """End-of-round amounts for RULES.md §8 ``score`` vectors (in-round penalties excluded)."""
    if ruleset == "rami":  # rami.score has no indicator nor final discard
        return _fn(ruleset, "score")(options or {}, seats, finisher, direct=direct)
    return _fn(ruleset, "score")(options or {}, seats, finisher, indicator, final_discard, direct)


def penalty_tiles(position: dict, seat: int) -> list[str]:
    """Rack tiles of ``seat`` whose discard now would be penalised (assisted table)."""
    return _fn(_ruleset_of(position), "penalty_tiles")(position, seat)


def add_targets(position: dict, seat: int, tile: str) -> list[int]:
    """Ids of table melds ``tile`` can be added to by ``seat`` now (assisted one-tap add)."""
    return _fn(_ruleset_of(position), "add_targets")(position, seat, tile)


def resolve_meld(ruleset: str, tiles_in_rack_order: list[str], indicator: str | None) -> list[str] | None:
    """Tiles as a player arranged them (bare wilds) -> the written meld with each wild
    annotated ``physical=represented`` so it is valid, preferring the reading that
    follows the given order; None when no reading is valid (RULES.md §1, §2)."""
    if ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    return resolve(tiles_in_rack_order, ruleset, indicator)
