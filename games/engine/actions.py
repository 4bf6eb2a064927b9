"""Is an action well formed?  The RULES.md §7 action shapes, checked before every
other rule (D-29: ``bad_action`` comes first, ``round_over`` included).

Malformed: not an object, a ``seat`` that is not a seat of the table, an unknown
``type`` (per ruleset: ``rami`` plays ``draw``/``play``), a missing or ill-typed field,
a string that is not a tile of the ruleset's set (okey rulesets have ``F``, ``rami``
has ``J``), an ``owner`` that is not a seat, or an ``owner`` other than the actor where
the ruleset does not allow one (only okey17's pair in a pairs player's area, D-12).
Extra fields are allowed (docs/protocol.md §7).  A ``take_discard``'s ``then`` is checked like
an action without ``seat``; a ``then`` that is itself a ``take_discard`` is not looked
into (it is ``discard_unused``, D-23).
"""
from __future__ import annotations

from .tiles import BadTile, parse_face, split_wild

FIELDS = {
    "draw": {},
    "take_discard": {"then": "then"},
    "open": {"melds": "melds"},
    "meld": {"tiles": "meld"},
    "add": {"meld": "meld_id", "tile": "written"},
    "swap": {"meld": "meld_id", "tile": "bare"},
    "discard": {"tile": "bare"},
    "play": {"table": "melds"},
}
"""Required fields per action type and their form (RULES.md §7)."""


def _is_int(value: object) -> bool:
    return type(value) is int  # bool is no seat nor meld id


def _is_seat(value: object, position: dict) -> bool:
    return _is_int(value) and 0 <= value < len(position["seats"])  # type: ignore[operator]


def _tile_ok(ruleset, text: object, written: bool) -> bool:
    """A tile of the ruleset's set: bare, or (``written``) ``physical=represented``."""
    if not isinstance(text, str) or (not written and "=" in text):
        return False
    try:
        physical, _ = split_wild(text)
        if physical != ruleset.extra_tile:
            parse_face(physical)
    except BadTile:
        return False
    return True


def _meld_ok(ruleset, value: object) -> bool:
    return isinstance(value, list) and all(_tile_ok(ruleset, t, True) for t in value)


_FORMS = {
    "melds": lambda rs, v: isinstance(v, list) and all(_meld_ok(rs, m) for m in v),
    "meld": _meld_ok,
    "meld_id": lambda rs, v: _is_int(v),
    "written": lambda rs, v: _tile_ok(rs, v, True),
    "bare": lambda rs, v: _tile_ok(rs, v, False),
}
"""Field form -> check(ruleset, value)."""


def _field_problem(ruleset, position: dict, seat: int, form: str, value: object) -> str | None:
    if form == "then":
        if not isinstance(value, dict):
            return "then must be an action object"
        if value.get("type") == "take_discard":
            return None  # not a table action: discard_unused (D-23)
        return _shape_problem(ruleset, position, seat, value)
    return None if _FORMS[form](ruleset, value) else f"bad {form}: {value!r}"


def _shape_problem(ruleset, position: dict, seat: int, action: dict) -> str | None:
    kind = action.get("type")
    if kind not in ruleset.action_types:
        return f"unknown action type {kind!r}"
    for key, form in FIELDS[kind].items():
        if key not in action:
            return f"{kind} needs {key!r}"
        problem = _field_problem(ruleset, position, seat, form, action[key])
        if problem:
            return f"{key}: {problem}"
    owner = action.get("owner")  # absent or null: the actor (RULES.md §7)
    if owner is not None:
        if not _is_seat(owner, position):
            return "owner is not a seat"
        if owner != seat and not ruleset.may_name_owner(position, seat, action):
            return "owner other than the actor"
    return None


def action_problem(ruleset, position: dict, action: object) -> str | None:
    """Why ``action`` is malformed for ``ruleset`` in ``position`` (D-29), or None.

    ``ruleset``: the ruleset object (its ``action_types``, ``extra_tile`` and
    ``may_name_owner``); ``position``: the position the action is played on (its seat
    count, and the actor's opening for the owner rule).  Returns a short English note
    for logs; the code is always ``bad_action``.
    """
    if not isinstance(action, dict):
        return "an action is a JSON object"
    seat = action.get("seat")
    if not _is_seat(seat, position):
        return f"seat {seat!r} is not a seat of the table"
    return _shape_problem(ruleset, position, seat, action)
