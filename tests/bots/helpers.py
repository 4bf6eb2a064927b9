"""Helpers shared by the bot tests."""
from __future__ import annotations

from games.engine import api


def played(position: dict, action: dict) -> dict:
    """The position after ``action``, failing the test unless the engine accepts it
    (``api.step``: a refusal comes back as a Step with its RULES.md §7 code)."""
    done = api.step(position, action)
    assert done.accepted, f"refused ({done.code}): {action}"
    return done.position
