"""The three rulesets, one object each, in the registry :data:`RULESETS` (id -> object).

``okey51`` and ``okey17`` build on ``okey_base``; ``rami`` is Rummikub.  Each object
holds every fact of its ruleset (:class:`~games.engine.rulesets.base.Ruleset`).
"""
from __future__ import annotations

from . import okey17 as _okey17
from . import okey51 as _okey51
from . import rami as _rami
from ._adapter import ModuleRuleset


class Okey51(ModuleRuleset):
    """RULES.md §3."""

    module = _okey51
    id, name = "okey51", "Okey 51"
    option_keys = ("doubling", "teams", "rounds")

    def team_totals(self, options, totals):
        if not self.normalize_options(options).get("teams") or len(totals) != 4:
            return None
        return [totals[0] + totals[2], totals[1] + totals[3]]

    def penalty_reason(self, action, code, seat, actor, players):
        kind = action.get("type")
        if code:
            return code
        if kind == "take_discard":
            if seat == (actor - 1) % players:
                return "discard_taken"
            kind = (action.get("then") or {}).get("type", kind)
        return "penalty_tile" if kind == "discard" else kind


class Okey17(ModuleRuleset):
    """RULES.md §4."""

    module = _okey17
    id, name = "okey17", "Okey 17"
    option_keys = ("rounds",)

    def penalty_reason(self, action, code, seat, actor, players):
        if code:
            return code
        kind = action.get("type")
        if kind == "take_discard":
            kind = (action.get("then") or {}).get("type", kind)
        return "pair_in_area" if kind == "meld" else kind


class Rami(ModuleRuleset):
    """RULES.md §5."""

    module = _rami
    id, name = "rami", "Rami"
    seat_counts = (2, 3, 4, 5, 6)
    higher_wins = True
    has_discards = False
    has_indicator = False
    option_keys = ("rounds", "target", "joker_value", "double_one_turn")

    def match_length(self, options, players):
        return _rami.match_length(options, players)

    def match_over(self, options, players, totals, rounds_played):
        return _rami.match_over(options, players, totals, rounds_played)


RULESETS = {r.id: r for r in (Okey51(), Okey17(), Rami())}
"""Every ruleset object by id."""
