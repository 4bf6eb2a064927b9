"""Refusal codes (RULES.md §7) and the engine's internal refusal.

The engine answers every action with a :class:`~games.engine.step.Step`; a refused
action is a Step with its code, never an exception (ARCHITECTURE.md invariant 1).
When an action breaks several rules the first code in :data:`ERROR_ORDER` is reported;
each ruleset checks its rules in that order.

- :class:`Refused` is the rulesets' internal flow control: raised where a rule is
  broken, caught by the ruleset's ``step`` and turned into a refused Step.  It carries
  a code (and a note for logs), never a position.
"""
from __future__ import annotations

ERROR_ORDER = (
    "bad_action", "round_over", "not_your_turn", "wrong_phase", "nothing_to_take", "empty_pile",
    "tile_not_in_rack", "table_mismatch", "not_opened", "pairs_only", "melds_only",
    "initial_meld_touches_table", "invalid_meld", "cannot_add", "cannot_swap",
    "below_threshold", "no_tiles_played", "discard_unused", "must_keep_tile",
    "joker_discard", "playable_discard",
)
"""RULES.md §7: the order in which a rule break is reported (``bad_action`` first, D-29)."""


class Refused(Exception):
    """A rule broken while a ruleset plays an action (internal flow control).

    - ``code``: a code of :data:`ERROR_ORDER`;
    - ``detail``: a short English note for logs (players see the translated code).
    """

    def __init__(self, code: str, detail: str = ""):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
