"""Refused actions (RULES.md §7).

An illegal action raises :class:`IllegalAction` with a RULES.md §7 error code.
When an action breaks several rules, the engine reports the first code in
:data:`ERROR_ORDER`; each ruleset checks its rules in that order.
"""
from __future__ import annotations

ERROR_ORDER = (
    "round_over", "not_your_turn", "wrong_phase", "nothing_to_take", "empty_pile",
    "tile_not_in_rack", "table_mismatch", "not_opened", "pairs_only", "melds_only",
    "initial_meld_touches_table", "invalid_meld", "cannot_add", "cannot_swap",
    "below_threshold", "no_tiles_played", "discard_unused", "must_keep_tile",
    "joker_discard", "playable_discard",
)
"""RULES.md §7: the order in which a rule break is reported."""

EXTRA_CODES = ("bad_action",)
"""Engine codes beyond RULES.md: ``bad_action`` for a malformed or unknown action."""


class IllegalAction(Exception):
    """An action the rules refuse.

    - ``code``: a RULES.md §7 error code (or ``bad_action``).
    - ``position``: ``None`` when nothing changed; otherwise the position carrying
      the penalties that stay (okey17 playable/joker discard, RULES.md §4).
    - ``detail``: a short English explanation for logs (not shown to players;
      the server translates ``code``).
    """

    def __init__(self, code: str, detail: str = "", position: dict | None = None):
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code
        self.detail = detail
        self.position = position
