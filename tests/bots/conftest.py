"""Fixtures of the bot tests (pure engine and bots: no database, Redis or browser)."""
from __future__ import annotations

import pytest

import games.bots


@pytest.fixture(autouse=True)
def _strict_bots(monkeypatch):
    """Planning errors fail the test instead of falling back to the safe action."""
    monkeypatch.setattr(games.bots, "STRICT", True)
