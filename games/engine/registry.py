"""The ruleset objects by id, for the low modules that accept a ruleset id.

``tiles.full_set`` and ``melds.rules_for`` take an id (the bots and solvers call them so)
and must ask the ruleset object, but the rulesets import those modules: so the objects
are registered here by ``games.engine.rulesets`` when it is imported, and
``games/engine/__init__.py`` imports it first, so the registry is full whatever module
of the engine is imported.  This module imports nothing of the project.
"""
from __future__ import annotations

_BY_ID: dict[str, object] = {}


def register(ruleset: object) -> None:
    """Register a ruleset object under its ``id`` (called once per ruleset)."""
    _BY_ID[ruleset.id] = ruleset  # type: ignore[attr-defined]


def get(ruleset: object) -> object:
    """The ruleset object of an id; an object with an ``id`` is returned as it is.

    Raises ValueError for an unknown id.
    """
    if hasattr(ruleset, "id") and not isinstance(ruleset, str):
        return ruleset
    try:
        return _BY_ID[ruleset]  # type: ignore[index]
    except (KeyError, TypeError):
        raise ValueError(f"unknown ruleset {ruleset!r}") from None
