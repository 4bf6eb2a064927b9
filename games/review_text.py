"""A stored round review in words, in the active language (docs/review.md): the mark of
each turn, why it cost what it cost, and the better move.  Read side: the replay page's
JSON and the puzzles use it; nothing here writes."""
from django.utils.translation import gettext as _, pgettext

from games.rules.tiles import tile_words


def mark_label(mark):
    """The name of a mark (`games.review.marks.MARKS`), translated; "" for None."""
    return {"good": pgettext("review mark", "Good"), "inaccuracy": pgettext("review mark", "Inaccuracy"),
            "mistake": pgettext("review mark", "Mistake"), "blunder": pgettext("review mark", "Blunder")}.get(mark, "")


def _tiles(tiles):
    return ", ".join(tile_words(t) for t in tiles)


def reason_text(reason):
    """One reason of a judged turn ({code, points, tile?, tiles?, kind?, meld?}) as a
    sentence naming the RULES.md rule and the points it cost."""
    code = reason.get("code")
    values = {"points": reason.get("points", 0), "tile": tile_words(reason.get("tile") or ""),
              "tiles": reason.get("tiles", 0), "meld": reason.get("meld", ""), "base": reason.get("base", 0)}
    texts = {
        "missed_opening": _("An opening was possible and was not laid: an unopened rack pays 500 at the end "
                            "of the round, an opened one only its tiles (%(points)s points)."),
        "missed_take_opening": _("Taking %(tile)s from the discards opened at the threshold: an unopened rack "
                                 "pays 500 at the end of the round (%(points)s points)."),
        "missed_finish": _("You could go out this turn: the finisher scores −500, or −1000 with pairs "
                           "(%(points)s points)."),
        "penalty_tile": _("%(tile)s fits a meld on the table: discarding it is a penalty tile (%(points)s points)."),
        "feeds_next": _("The next player can take %(tile)s into an add: its discarder pays the value × 10 "
                        "(%(points)s points)."),
        "may_feed_next": _("The next player may take %(tile)s into a new meld: its discarder pays the value × 10 "
                           "(about %(points)s points)."),
        "weaker_rack": _("Discarding %(tile)s leaves a rack that lays fewer tiles after the next draw than the "
                         "better discard (about %(points)s points)."),
        "weaker_opening": _("Discarding %(tile)s leaves a rack that opens less often after the next draw than the "
                            "better discard (about %(points)s points)."),
        "weaker_opening_lay": _("This opening leaves the rack paying more than the solver's opening "
                                "(%(points)s points)."),
        "missed_take": _("Taking %(tile)s into a meld charged its discarder the value × 10 (%(points)s points "
                         "against each opponent)."),
        "missed_swap": _("Swapping %(tile)s for the okey in meld %(meld)s charged its owner 100 + the value × 10 "
                         "(%(points)s points against each opponent)."),
        "missed_initial_meld": _("An initial meld of 30 points or more was possible (%(tiles)s tiles, "
                                 "%(points)s points left on the rack)."),
        "smaller_play": _("A bigger initial meld was possible (%(points)s points more)."),
        "fewer_tiles": _("The table could take %(tiles)s more tiles of the rack (%(points)s points left on the rack)."),
        "drew_instead": _("You drew, but the table could take %(tiles)s tiles of the rack (%(points)s points left "
                          "on the rack)."),
        "missed_opening_17": _("An opening was possible and was not laid: an unopened rack pays the base "
                               "(%(base)s) at the end of the round, an opened one 10 per tile (%(points)s points)."),
        "missed_take_opening_17": _("Taking %(tile)s from the discards opened at the threshold: an unopened rack "
                                    "pays the base (%(base)s) at the end of the round (%(points)s points)."),
        "missed_finish_17": _("You could go out this turn: the finisher scores minus the base ÷ 10, and your "
                              "rack pays when another player goes out (%(points)s points)."),
        "playable_discard": _("%(tile)s fits a meld on the table: the discard is refused and its penalty stays "
                              "(%(points)s points)."),
        "joker_discard": _("A joker can only be the last discard: the discard is refused and the base penalty "
                           "stays (%(points)s points)."),
        "weaker_rack_17": _("Discarding %(tile)s leaves a rack that keeps more tiles after the next draw than the "
                            "better discard, 10 points each at the end (about %(points)s points)."),
        "weaker_opening_17": _("Discarding %(tile)s leaves a rack that opens less often after the next draw than "
                               "the better discard (about %(points)s points)."),
        "missed_take_17": _("Taking %(tile)s into a new meld left your rack one tile lighter than the draw "
                            "(%(points)s points)."),
        "missed_swap_17": _("Swapping %(tile)s for the joker in meld %(meld)s charged its owner the number × 10 "
                            "(%(points)s points against each opponent)."),
    }
    if code == "missed_finish_17" and reason.get("direct"):
        return _("You could open and go out this turn, a direct finish where every opponent pays the base × 4: "
                 "you score minus the base ÷ 10, and an unopened rack pays the base (%(base)s) when another "
                 "player goes out (%(points)s points).") % values
    if code == "missed_finish" and "tiles" in reason:
        return _("You could lay your whole rack and win the round (%(points)s points left on the rack).") % values
    return texts.get(code, "%(points)s" % values) % values


def best_text(best):
    """The better decision of a judged turn (its `best`) as sentences: the opening or the
    melds, the take, the swap, the discard (okey); the tiles to lay (rami)."""
    out = []
    if best.get("finish"):
        out.append(_("Go out this turn."))
    if best.get("open"):
        out.append(_("Open with pairs.") if best["open"] == "pairs" else _("Open with these melds."))
    if isinstance(best.get("take"), dict) or best.get("take") is True:
        out.append(_("Take the discard instead of drawing."))
    if best.get("swap"):
        out.append(_("Swap %(tile)s for the okey in meld %(meld)s.") % {
            "tile": tile_words(best["swap"]["tile"]), "meld": best["swap"]["meld"]})
    if best.get("placed"):
        out.append(_("Lay %(tiles)s.") % {"tiles": _tiles(best["placed"])})
    if best.get("discard"):
        out.append(_("Discard %(tile)s.") % {"tile": tile_words(best["discard"])})
    return out


def turn_lines(turns):
    """The turns of a review with their words: each turn dict plus `mark_label`, `why`
    (sentences) and `better` (sentences)."""
    return [dict(turn, mark_label=mark_label(turn.get("mark")), why=[reason_text(r) for r in turn.get("reasons", [])],
                 better=best_text(turn.get("best") or {}) if turn.get("cost") else [])
            for turn in turns]


def review_payload(row, name, viewer=None):
    """A stored review (`RoundReview`) for a page: {seat, name, own (the viewer's own
    review: its puzzles are theirs to train on), accuracy, marks, labels {mark: name}, turns
    (`turn_lines`)}; `name` is the seat's display name, `viewer` the user asking."""
    own = viewer is not None and viewer.is_authenticated and viewer.pk == row.user_id
    return {"seat": row.seat, "name": name, "own": own, "accuracy": row.accuracy, "marks": row.marks,
            "labels": {m: mark_label(m) for m in ("good", "inaccuracy", "mistake", "blunder")},
            "turns": turn_lines(row.turns)}
