"""The round's move history as one seat may see it (`view["moves"]`,
docs/protocol.md): the last moves of every seat, who played them (the player,
a computer, or the computer after a timeout or a disconnect), what was refused with a
penalty, and every public tile.

Pure: logged `Move` rows in (as mappings, oldest first), plain dicts out. What stays
private (ARCHITECTURE.md invariant 3):
- a drawn tile is named only in the drawer's own view;
- an okey17 discard refused with a penalty that stays (RULES.md §4 playable or joker
  discard) leaves the tile in the actor's rack: only the actor sees which tile it was, in
  the move and in its penalty event.
Everything else a move carries is on the table or the discard piles for all to see: a
discard names its tile, a take names the taken discard, table actions show their tiles.
"""
from collections import Counter

LIMIT = 30  # moves kept in a view: the current round's last ones
ACTORS = ("human", "computer", "timeout")  # games.models.Move.Actor values
HIDDEN_REFUSALS = ("playable_discard", "joker_discard")  # the tile stays in the actor's rack


def _bare(tile):
    # "J=K7" / "R6=B5": the physical tile
    return tile.split("=", 1)[0]


def _table_tiles(table):
    return Counter(_bare(t) for meld in table or () for t in meld)


def public_moves(rows, viewer, pile=(), limit=LIMIT, shared=None):
    """The moves `viewer` may see, oldest first.

    Args: `rows` — the round's latest logged moves, oldest first (at most `limit` + 1: a
    row before the window only tells what the first move in it took), each a mapping with
    `number`, `seat`, `actor`, `action` (RULES.md §7 dict), `result` ("ok" or the refusal
    code of a penalty that stays), `events` (penalty dicts or None) and `draw_no` (draws in
    the round up to and including this move); `viewer` — the seat index, or None for a
    spectator; `pile` — the round's pile as dealt (next tile first: the n-th draw of the
    round takes `pile[n - 1]`, and takes nothing once the pile is empty).
    Returns a list of at most `limit` dicts {number, seat, actor ("human"|"computer"|
    "timeout"), type, result, penalties [{seat, amount (points), reason, tile, by}], and
    the public fields of the action}: `tile` for a discard (absent from a hidden refused
    discard), for a take (the taken discard) and for a draw in the drawer's own view;
    `pass` True for a rami draw on an empty pile; `then` for a take; `melds`, `tiles`,
    `owner`, `meld` and, for rami's `play`, `table` and `laid` (the rack tiles it put on
    the table, when the table before it is known).
    `shared`: a dict kept across the calls for the views of one version (the same `rows`
    and `pile`): a move every seat sees alike is made once, and the views share its dict
    (treat the moves as read-only).
    """
    rows = list(rows)
    out = []
    table_before = None  # rami: the table before the next play, once known
    if rows and rows[0]["number"] == 1:
        table_before = []
    for i, row in enumerate(rows):
        if shared is None:
            move = _public(row, rows[i - 1] if i else None, viewer, pile, table_before)
        else:
            # only a draw (its tile) and a hidden refusal (its tile) read differently by seat
            own = (row["action"] or {}).get("type") == "draw" or (row["result"] or "ok") in HIDDEN_REFUSALS
            key = (row["number"], viewer == row["seat"] if own else None)
            move = shared.get(key)
            if move is None:
                move = shared[key] = _public(row, rows[i - 1] if i else None, viewer, pile, table_before)
        if move["type"] == "play" and move["result"] == "ok":
            table_before = move.get("table") or []
        if len(rows) - i <= limit:
            out.append(move)
    return out


def _public(row, before, viewer, pile, table_before):
    action = dict(row["action"] or {})
    kind = action.pop("type", None)
    action.pop("seat", None)
    seat, result = row["seat"], row["result"] or "ok"
    hidden = result in HIDDEN_REFUSALS and viewer != seat
    move = {"number": row["number"], "seat": seat, "actor": row["actor"] if row["actor"] in ACTORS else "human",
            "type": kind, "result": result}
    if kind == "draw":
        n = row.get("draw_no") or 0
        tile = pile[n - 1] if 0 < n <= len(pile) else None
        if tile is None:
            move["pass"] = True
        elif viewer == seat:
            move["tile"] = tile
    elif kind == "take_discard":
        then = action.get("then")
        move["then"] = {k: v for k, v in then.items() if k != "seat"} if isinstance(then, dict) else None
        taken = (before or {}).get("action") or {}
        if taken.get("type") == "discard" and (before.get("result") or "ok") == "ok":
            move["tile"] = taken.get("tile")
    else:
        move.update(action)
        if hidden:
            move.pop("tile", None)
        if kind == "play" and table_before is not None:
            laid = _table_tiles(move.get("table")) - _table_tiles(table_before)
            move["laid"] = sorted(laid.elements())
    move["penalties"] = [dict(e, tile=None) if hidden else dict(e) for e in row.get("events") or ()]
    return move
