"""The match page's move log in words (RULES.md §7 actions as translated sentences)."""
from django.utils.translation import gettext, gettext_lazy as _, ngettext

from games.errors import error_message
from games.rules.tiles import tile_words

# Short refusal reasons for the log ("bob opened … — refused: below the threshold").
REFUSALS = {
    "below_threshold": _("below the threshold"),
    "playable_discard": _("the tile could be played on the table (penalty)"),
    "joker_discard": _("a joker may only be the last discard (penalty)"),
}


def _tile(tile):
    # named as the live table's move list names them ("red 5", "okey as blue 5"), never the
    # codes: a Turkish reader takes "K5" for kırmızı (red) where K is black
    return tile_words(tile) if tile else ""


def _tiles(tiles):
    return ", ".join(_tile(t) for t in tiles or [])


def _melds(melds):
    return " · ".join(_tiles(m) for m in melds or [])


def describe_action(name, action):
    """One action as a sentence in the active language.

    Args: `name` (str, the player's display name), `action` (RULES.md §7 dict). Returns str,
    e.g. "alice discarded black 11", "bob opened with 2 melds (black 10, black 11, black 12 ·
    blue 13, yellow 13, red 13)".
    """
    kind = action.get("type")
    tile = _tile(action.get("tile"))
    if kind == "draw":
        return gettext("%(name)s drew") % {"name": name}
    if kind == "discard":
        return gettext("%(name)s discarded %(tile)s") % {"name": name, "tile": tile}
    if kind == "open":
        melds = action.get("melds") or []
        return ngettext("%(name)s opened with %(n)s meld (%(tiles)s)",
                        "%(name)s opened with %(n)s melds (%(tiles)s)", len(melds)) % {
            "name": name, "n": len(melds), "tiles": _melds(melds)}
    if kind == "meld":
        if action.get("owner") is not None and action.get("owner") != action.get("seat"):
            return gettext("%(name)s laid %(tiles)s in seat %(owner)s's area") % {
                "name": name, "tiles": _tiles(action.get("tiles")), "owner": action["owner"] + 1}
        return gettext("%(name)s laid %(tiles)s") % {"name": name, "tiles": _tiles(action.get("tiles"))}
    if kind == "add":
        return gettext("%(name)s added %(tile)s to meld %(meld)s") % {
            "name": name, "tile": tile, "meld": action.get("meld")}
    if kind == "swap":
        return gettext("%(name)s swapped %(tile)s into meld %(meld)s and took its wild") % {
            "name": name, "tile": tile, "meld": action.get("meld")}
    if kind == "take_discard":
        then = action.get("then")
        if isinstance(then, dict):
            return gettext("%(name)s took the discard, then: %(then)s") % {
                "name": name, "then": describe_action(name, then)}
        return gettext("%(name)s took the discard") % {"name": name}
    if kind == "play":
        melds = action.get("table") or []
        return ngettext("%(name)s played; the table has %(n)s meld (%(tiles)s)",
                        "%(name)s played; the table has %(n)s melds (%(tiles)s)", len(melds)) % {
            "name": name, "n": len(melds), "tiles": _melds(melds)}
    return gettext("%(name)s played %(type)s") % {"name": name, "type": kind}


def describe_move(name, action, result="ok", actor="human"):
    """`describe_action` plus the refusal and who played, for a logged move.

    Args: `name`, `action` (dict), `result` ("ok" or the refusal code of a penalised
    refusal), `actor` (a `Move.Actor` value: "timeout" is the computer playing for the
    seat's player after a move time ran out or a disconnect). Returns str, e.g.
    "… — refused: below the threshold", "alice drew (the computer played for alice)".
    """
    sentence = describe_action(name, action)
    if result and result != "ok":
        reason = REFUSALS.get(result)
        reason = str(reason) if reason is not None else error_message(result)
        sentence = gettext("%(move)s — refused: %(reason)s") % {"move": sentence, "reason": reason}
    if actor == "timeout":
        # the player did not move: a reader must not take the computer's move for theirs
        sentence = gettext("%(move)s (the computer played for %(name)s)") % {"move": sentence, "name": name}
    return sentence


PENALTY_REASONS = {
    "penalty_tile": _("penalty tile %(tile)s"),
    "discard_taken": _("discard %(tile)s taken by %(by)s"),
    "add": _("%(by)s added %(tile)s to their meld"),
    "swap": _("%(by)s swapped %(tile)s into their meld"),
    "pair_in_area": _("%(by)s laid a pair in their area"),
    "playable_discard": _("playable discard %(tile)s"),
    "joker_discard": _("joker discard"),
}


def describe_penalty(names, event):
    """One in-round penalty event (a `Move.events` entry, RULES.md §3, §4) in words.

    Args: `names` (display name per seat), `event` {seat, amount, reason, tile, by}.
    Returns str, e.g. "penalty tile black 11: 100" or "discard red 7 taken by bob: 70" (points).
    """
    by = event.get("by")
    text = PENALTY_REASONS.get(event.get("reason"))
    values = {"tile": _tile(event.get("tile")), "by": names[by] if by is not None and by < len(names) else ""}
    what = str(text) % values if text is not None else str(event.get("reason"))
    return gettext("%(what)s: %(amount)s") % {"what": what, "amount": event.get("amount")}
