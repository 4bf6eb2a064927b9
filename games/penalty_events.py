"""In-round penalties as a list of events for the score table (issue 2).

The engine keeps only each seat's running `penalty` (RULES.md §7). The events are derived
by replaying a round's move log from its initial position and comparing every seat's
`penalty` before and after each accepted (or penalised-refused) action.
"""
from games.engine import api

OKEY51_DISCARD = "penalty_tile"  # RULES.md §3 penalty tile: a discard that fits a table meld


def _penalties(position):
    return [seat.get("penalty", 0) or 0 for seat in position["seats"]]


def _reason(ruleset, action, result, penalised, actor, players=4):
    """The reason code for `penalised`'s penalty caused by `actor` playing `action`.

    `result` is "ok" or the refusal code that still left a penalty (okey17 `playable_discard`,
    `joker_discard`, RULES.md §4). Returns a str (one of penalty_tile, discard_taken, add,
    swap, pair_in_area, playable_discard, joker_discard, or the action type as a fallback).
    """
    if result and result != "ok":
        return result
    kind = action.get("type")
    if kind == "take_discard":
        if penalised != actor and penalised == (actor - 1) % players and ruleset == "okey51":
            return "discard_taken"
        kind = (action.get("then") or {}).get("type", kind)
    if kind == "discard" and ruleset == "okey51":
        return OKEY51_DISCARD
    if kind == "meld" and ruleset == "okey17":
        return "pair_in_area"  # D-12: a meld player's pair laid in a pairs player's area
    return kind or "unknown"


def events_for_step(ruleset, before, after, action, result="ok"):
    """Penalty events of one step.

    Args: `ruleset`; `before`/`after` engine positions (RULES.md §7 shape); `action` (dict with
    "seat"); `result` "ok" or the refusal code. Returns a list of
    {"seat": int, "amount": int (points), "reason": str, "tile": str|None, "by": int|None}
    — one per seat whose penalty rose; `by` is the acting seat when it is not the penalised seat.
    """
    actor = action.get("seat")
    tile = action.get("tile")
    if tile is None and action.get("type") == "take_discard":
        discards = before.get("discards") or []
        previous = (actor - 1) % len(before["seats"]) if actor is not None else None
        if previous is not None and previous < len(discards) and discards[previous]:
            tile = discards[previous][-1]
    out = []
    for seat, (old, new) in enumerate(zip(_penalties(before), _penalties(after))):
        if new > old:
            out.append({
                "seat": seat, "amount": new - old, "reason": _reason(ruleset, action, result, seat, actor, len(before["seats"])),
                "tile": tile if isinstance(tile, str) else None, "by": actor if actor != seat else None,
            })
    return out


def replay_events(initial_position, moves):
    """All penalty events of a round.

    Args: `initial_position` (the dealt position), `moves` (iterable of (action dict, result
    str) in log order; result "ok" or the refusal code of a penalised refusal). Returns the
    list of events (see `events_for_step`) in play order. A move the engine no longer accepts
    stops the replay (the events found so far are returned).
    """
    ruleset = initial_position.get("ruleset")
    position = initial_position
    out = []
    for action, result in moves:
        try:
            after = api.apply(position, action)
        except api.IllegalAction as exc:
            if exc.position is None:
                if result == "ok":
                    break
                continue
            after = exc.position
        except Exception:  # noqa: BLE001 - never let a display aid break the round's end
            break
        out.extend(events_for_step(ruleset, position, after, action, result))
        position = after
    return out


def round_events(rnd):
    """Penalty events of a stored `games.models.Round` from its move log (see `replay_events`)."""
    from games.models import Move

    moves = Move.objects.filter(round=rnd).order_by("number").values_list("action", "result")
    return replay_events(rnd.initial_position, list(moves))
