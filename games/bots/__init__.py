"""Computer players: given one seat's view, return that seat's next action.

Contract (docs/engine-api.md): :func:`choose_action` sees only
``games.engine.api.view(position, seat)`` — never another rack, never the pile —
and returns one legal RULES.md §7 action dict including ``"seat"``.  The server
calls it repeatedly during the bot's turn (draw or take, table actions one at a
time, discard).  It is deterministic for a given (view, level, seed) and never
raises on a legal view: when planning fails it returns a safe action.
"""
from __future__ import annotations

import logging
import random

LEVELS = ("easy", "normal", "strong")
"""Bot levels, weakest first (shown to players, PLAYERS.md complaint 6)."""

STRICT = False
"""Tests set this to re-raise planning errors instead of falling back to :func:`safe_action`."""

log = logging.getLogger(__name__)


def choose_action(view: dict, level: str = "normal", seed: int | str | None = None) -> dict:
    """The next action for ``view["seat"]``.

    Args:
        view: ``games.engine.api.view(position, seat)`` for the seat whose turn it is.
        level: one of :data:`LEVELS` (anything else plays as ``normal``).
        seed: makes the random choices (``easy`` mistakes) reproducible.
    Returns:
        A RULES.md §7 action dict with ``"seat"``: ``draw``/``take_discard``/``open``/
        ``meld``/``add``/``swap``/``discard`` (okey51, okey17) or ``play``/``draw`` (rami).
    Never raises for a legal view; falls back to :func:`safe_action`.
    """
    if level not in LEVELS:
        level = "normal"
    rng = random.Random(_rng_key(view, level, seed))
    try:
        play = _player(view["ruleset"])
        if play is not None:
            return play(view, level, rng)
    except Exception:  # noqa: BLE001 - a bot must always answer (contract)
        if STRICT:
            raise
        log.exception("bot planning failed (%s, %s); playing the safe action", view.get("ruleset"), level)
    return safe_action(view)


def _okey51(view: dict, level: str, rng) -> dict:
    from games.bots import okey51
    from games.bots.seen import decode
    return okey51.act(decode(view), level, rng)


def _okey17(view: dict, level: str, rng) -> dict:
    from games.bots import okey17
    from games.bots.seen import decode
    return okey17.act(decode(view), level, rng)


def _rami(view: dict, level: str, rng) -> dict:
    from games.bots import rami
    return rami.act(view, level, rng)


PLAYERS = {"okey51": _okey51, "okey17": _okey17, "rami": _rami}
"""The computer player of each ruleset id: ``f(view, level, rng) -> action``.  The
modules load on first use, so importing ``games.bots`` stays cheap for the server."""


def _player(ruleset_id):
    """The player of ``ruleset_id`` or None (an unknown id plays the safe action)."""
    return PLAYERS.get(ruleset_id) if isinstance(ruleset_id, str) else None


def _rng_key(view: dict, level: str, seed) -> str:
    rack = ",".join(sorted(view.get("rack") or []))
    return f"{seed}|{level}|{view.get('seat')}|{view.get('pile_count')}|{rack}|{len(view.get('table') or [])}"


def safe_action(view: dict) -> dict:
    """A legal action needing no planning: draw in the draw phase (rami: draw),
    else discard a tile whose discard is not penalised when there is one
    (RULES.md §3 penalty tile, §4 playable/joker discard)."""
    from games.bots.safe import safe_action as _safe
    return _safe(view)
