"""The engine's public API (docs/engine-api.md): one entry point per operation, each
asking the position's (or the named) ruleset object in :data:`RULESETS`.

Everything is JSON-shaped data; nothing here mutates its inputs, reads the clock or
uses the global random generator (ARCHITECTURE.md invariant 1).  The play is
:func:`step` (one action) and :func:`replay` (a move log).
"""
from __future__ import annotations

from typing import Iterable, Iterator

from .errors import ERROR_ORDER
from .melds import resolve
from .rulesets import RULESETS
from .rulesets.base import Ruleset
from .step import Penalty, Replay, Step

__all__ = [
    "RULESETS", "ERROR_ORDER", "normalize_options", "deal",
    "view", "is_over", "round_scores", "round_totals", "match_length", "match_over",
    "standings", "team_totals", "meld_info", "client_rules", "score", "penalty_tiles", "add_targets", "resolve_meld",
    "Ruleset", "ruleset", "step", "Step", "Penalty", "legal_actions", "replay", "Replay",
]


def ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset object of an id (``RULESETS[ruleset_id]``); ValueError for an unknown id."""
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown ruleset {ruleset_id!r}") from None


_ruleset = ruleset  # for the functions whose ``ruleset`` argument is an id


def _of(position: dict) -> Ruleset:
    """The ruleset object a position names; ValueError when it names none."""
    if not isinstance(position, dict) or "ruleset" not in position:
        raise ValueError("a position needs a ruleset")
    return _ruleset(position["ruleset"])


# ------------------------------------------------------------------------ play
def step(position: dict, action: dict) -> Step:
    """What ``action`` (RULES.md §7 with ``seat``) does to ``position``: a
    :class:`~games.engine.step.Step` with the new position, accepted or the refusal
    code, the penalties it caused and the round result when it ends the round.
    Never mutates ``position``; never raises for a refused or malformed action
    (``bad_action``, D-29).  ValueError when ``position`` names no known ruleset."""
    return _of(position).step(position, action)


def legal_actions(position: dict, seat: int) -> Iterator[dict]:
    """The legal actions of ``seat`` now, as RULES.md §7 action dicts with ``seat``
    (each one accepted by :func:`step`); nothing when it is not that seat's turn or the
    round is over.  What is complete and what is bounded: the ruleset's
    ``legal_actions`` (okey: ``rulesets/okey_moves.py``, rami: ``rulesets/rami_moves.py``)."""
    return _of(position).legal_actions(position, seat)


def replay(initial: dict, moves: Iterable[dict]) -> Iterator[Step]:
    """Play the actions ``moves`` (RULES.md §7 dicts with ``seat``) from ``initial``, one
    at a time: the only replay loop (the replay check of records and ``verify_round``,
    self-play records, the conformance runner, tests).  Lazy: each Step is played when
    it is asked for, so a caller can stop at the first move that does not replay, and
    ``moves`` may itself be lazy.  Refused moves are Steps like any other (a refusal
    whose penalty stays moves the position on).  Yields one
    :class:`~games.engine.step.Step` per move; what ``step`` raises on a malformed
    position or action comes out of the iteration."""
    position = initial
    for action in moves:
        done = step(position, action)
        yield done
        position = done.position


def replay_all(initial: dict, moves: Iterable[dict]) -> Replay:
    """``replay`` to the end: a :class:`~games.engine.step.Replay` (the final position and
    one Step per move; ``initial`` when there is no move)."""
    steps = list(replay(initial, moves))
    return Replay(steps[-1].position if steps else initial, steps)


def deal(ruleset: str, options: dict, deal_seed: str, players: int = 4, first: int = 0) -> dict:
    """A new round's position laid out by ``okeysite-shuffle-1`` (docs/fair-deals.md §4-§5;
    RULES.md §1, D-2) from ``deal_seed``: 64 lowercase hex, the HMAC of
    :func:`games.engine.fairdeal.deal_seed` over the server seed, round number, table id
    and client seeds (a text seed: ``deal_seed(fairdeal.seed_from_text(text), ...)``).

    ``first``: the seat that moves first (okey: gets 15 tiles and skips the draw).
    Raises ValueError on bad arguments (a deal seed that is not 64 lowercase hex too).
    """
    return _ruleset(ruleset).deal(options, deal_seed, players, first)


def view(position: dict, seat: int | None) -> dict:
    """What ``seat`` may see (None = spectator): never another rack, never the pile."""
    return _of(position).view(position, seat)


# ---------------------------------------------------------------- round, match
def is_over(position: dict) -> bool:
    """True when the round has ended."""
    return _of(position).is_over(position)


def round_scores(position: dict) -> list[int] | None:
    """End-of-round amounts per seat (no in-round penalties), None while running."""
    return _of(position).round_scores(position)


def round_totals(position: dict) -> list[int] | None:
    """``round_scores`` plus each seat's in-round ``penalty`` (okey: both count
    against the seat; rami: penalty is 0).  None while the round runs."""
    scores = round_scores(position)
    if scores is None:
        return None
    return [sc + int(seat.get("penalty", 0)) for sc, seat in zip(scores, position["seats"])]


def normalize_options(ruleset: str, options: dict | None) -> dict:
    """Options with RULES.md §7 defaults filled in.

    okey51 ``{doubling: True, teams: False, rounds: 1|3}``; okey17 ``{rounds: 7}``;
    rami ``{rounds: None (one per player), target: None, joker_value: 30|50,
    double_one_turn: False}``.  Raises ValueError on an unknown ruleset or a bad value.
    """
    return _ruleset(ruleset).normalize_options(options)


def match_length(ruleset: str, options: dict | None, players: int) -> int | None:
    """Rounds in a match: okey51 1 or 3, okey17 7, rami ``rounds`` or one per player;
    None when rami plays to a ``target`` score (RULES.md §3-§6)."""
    return _ruleset(ruleset).match_length(options, players)


def match_over(ruleset: str, options: dict | None, players: int, totals: list[int], rounds_played: int) -> bool:
    """Whether the match has ended after ``rounds_played`` rounds with these ``totals``."""
    return _ruleset(ruleset).match_over(options, players, totals, rounds_played)


def standings(ruleset: str, totals: list[int], options: dict | None = None) -> list[int]:
    """Seats best first: okey lowest total first, rami highest first; ties by seat.
    With ``options`` of a team table, team-aware (``Ruleset.standings``)."""
    return _ruleset(ruleset).standings(options, totals)


def team_totals(ruleset: str, options: dict | None, totals: list[int]) -> list[int] | None:
    """okey51 team play: ``[seat0 + seat2, seat1 + seat3]`` (lowest wins, RULES.md §3);
    None when the table is not played in teams."""
    return _ruleset(ruleset).team_totals(options, totals)


# ------------------------------------------------------------ melds, scoring
def meld_info(ruleset: str, tiles: list[str], indicator: str | None = None) -> dict:
    """``{"valid": False}`` or ``{"valid": True, "type": "run"|"group"|"pair", "points": N}``
    (RULES.md §2, §8 ``meld`` vectors)."""
    return _ruleset(ruleset).meld_info(tiles, indicator)


def client_rules(ruleset: str) -> dict:
    """The rule facts the table client reads (``Ruleset.client_rules``: meld rules,
    wild, opening thresholds, pair and area rules); ValueError for an unknown id."""
    return _ruleset(ruleset).client_rules()


def score(ruleset: str, options: dict | None, seats: list[dict], finisher: int | None,
          indicator: str | None = None, final_discard: str | None = None, direct: bool = False) -> list[int]:
    """End-of-round amounts for RULES.md §8 ``score`` vectors (in-round penalties excluded)."""
    return _ruleset(ruleset).score(options or {}, seats, finisher, indicator, final_discard, direct)


def penalty_tiles(position: dict, seat: int) -> list[str]:
    """Rack tiles of ``seat`` whose discard now would be penalised (assisted table)."""
    return _of(position).penalty_tiles(position, seat)


def add_targets(position: dict, seat: int, tile: str) -> list[int]:
    """Table melds ``tile`` can be added to by ``seat`` now (assisted one-tap add):
    okey meld ids, rami table indices."""
    return _of(position).add_targets(position, seat, tile)


def resolve_meld(ruleset: str, tiles_in_rack_order: list[str], indicator: str | None) -> list[str] | None:
    """Tiles as a player arranged them (bare wilds) -> the written meld with each wild
    annotated ``physical=represented`` so it is valid, preferring the reading that
    follows the given order; None when no reading is valid (RULES.md §1, §2)."""
    return resolve(tiles_in_rack_order, _ruleset(ruleset).meld_rules, indicator)
