"""The fallback action when planning fails (docs/engine-api.md: a bot never raises)."""
from __future__ import annotations

from games.engine.api import RULESETS


def safe_action(view: dict) -> dict:
    """Draw in the draw phase (and where the ruleset has no discards: rami, RULES.md §5);
    in the play phase discard the first rack tile that fits no table meld and is not a
    wild, else the first tile.

    Returns a RULES.md §7 action dict with ``seat``.  Never raises on a view with a rack.
    """
    seat = view.get("seat")
    ruleset = RULESETS.get(view.get("ruleset")) if isinstance(view.get("ruleset"), str) else None
    if (ruleset is not None and not ruleset.has_discards) or view.get("phase") == "draw":
        return {"seat": seat, "type": "draw"}
    rack = list(view.get("rack") or [])
    if not rack:
        return {"seat": seat, "type": "draw"}
    try:
        from games.bots.seen import decode
        seen = decode(view)
        for t, code in zip(seen.rack, seen.codes):
            if code >= 0 and not seen.fits(code):
                return {"seat": seat, "type": "discard", "tile": t}
    except Exception:  # noqa: BLE001
        pass
    return {"seat": seat, "type": "discard", "tile": rack[0]}
