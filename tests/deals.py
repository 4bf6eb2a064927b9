"""Deals from a text, for tests that need the same round again: the deal seed comes from
``fairdeal.seed_from_text`` (the one helper self-play, tests and benches share), round 1 of
a table ``"test"`` with an empty client seed per seat, so a text always deals the same
``okeysite-shuffle-1`` round, and two texts deal different ones."""
from __future__ import annotations

from games.engine import api, fairdeal


def text_deal_seed(text: str, players: int = 4) -> str:
    """The deal seed (64 hex) of round 1 of table ``"test"`` with the server seed made from ``text``."""
    return fairdeal.deal_seed(fairdeal.seed_from_text(str(text)), 1, "test", [""] * players)


def text_deal(ruleset: str, text: str, players: int = 4, first: int = 0, options: dict | None = None) -> dict:
    """``api.deal`` from a text: the position of a new round (RULES.md §7)."""
    return api.deal(ruleset, options or {}, text_deal_seed(text, players), players, first)


def stored_deal_seed(rnd, table) -> str:
    """The deal seed of stored round ``rnd`` of ``table`` as its algorithm computes it:
    shuffle-2 from the chain's tip and the seats' kinds as the record writes them,
    shuffle-1 without them."""
    if rnd.algorithm == fairdeal.SHUFFLE_2:
        from games.play.rounds import seat_kinds
        return fairdeal.deal_seed_2(rnd.server_seed, rnd.number, str(table.pk), rnd.chain_tip, rnd.client_seeds,
                                    seat_kinds(table))
    return fairdeal.deal_seed(rnd.server_seed, rnd.number, str(table.pk), rnd.client_seeds)
