"""A tile as the live table draws it (``static/js/table/views/tile.js``), for server pages.

The classes are the table's (``tile``, ``c-R``…``c-Y``, ``wild``, ``false-joker``, ``joker``)
so ``static/css/rules.css`` can mirror ``table.css``; a colour mark (●, ■, ▲, ◆) is added so
colours are told apart by shape as well as hue.
"""
from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext, pgettext_lazy

from games.engine import api
from games.engine.melds import wild_tile
from games.engine.tiles import FALSE_JOKER, JOKER, okey_of, parse_face, split_wild

MARKS = {"R": "●", "B": "■", "K": "▲", "Y": "◆"}
"""The shape that goes with each colour, so a colour-blind player can tell them apart."""


COLOUR_NAMES = {"R": pgettext_lazy("rules", "red"), "B": pgettext_lazy("rules", "blue"),
                "K": pgettext_lazy("rules", "black"), "Y": pgettext_lazy("rules", "yellow")}
"""Colour letter (RULES.md §1) -> its name (translated when shown)."""


def tile_name(tile: str) -> str:
    """A numbered tile in words, e.g. ``"R5"`` -> "red 5" (active language).
    Raises ``BadTile`` for anything but a numbered tile."""
    face = parse_face(tile)
    return pgettext("rules", "%(colour)s %(number)s") % {"colour": COLOUR_NAMES[face.colour], "number": face.number}


def tile_words(text: str) -> str:
    """Any tile of RULES.md §1 notation in words, as the live table's move list names it
    (``tileName`` of ``static/js/table/moves.js``): ``"R5"`` -> "red 5", ``"F"`` -> "false
    joker", ``"J"`` -> "joker", a wild in a meld ``"R6=B5"`` -> "okey as blue 5" (active
    language). A string that is no tile comes back as it is (an old record's text)."""
    try:
        physical, represented = split_wild(text)
        if represented:
            wild = pgettext("rules", "joker") if physical == JOKER else pgettext("rules", "okey")
            return pgettext("rules", "%(tile)s as %(as)s") % {"tile": wild, "as": tile_words(represented)}
        if physical == JOKER:
            return pgettext("rules", "joker")
        if physical == FALSE_JOKER:
            return pgettext("rules", "false joker")
        return tile_name(physical)
    except ValueError:  # BadTile included
        return str(text)


def tile_view(text: str, ruleset: str, indicator: str | None = None) -> dict:
    """What a page needs to draw one tile.

    ``text``: RULES.md §1 notation, bare (``"R5"``, ``"F"``, ``"J"``) or a wild in a meld
    (``"R6=B5"``, ``"J=K7"``); ``indicator``: the round's indicator (okey rulesets), which
    decides which tile is the okey.  Returns ``{"text", "classes", "label", "mark",
    "wild", "title", "html"}``: the label is the number the tile plays as (a wild standing for a
    tile shows that tile, as at the table), ``✦`` for a false joker and ``☺`` for a bare
    rami joker.  Raises ``BadTile`` for a string that is not a tile, ValueError for an
    unknown ruleset.  ``html`` is the tile's markup (the classes of ``table.css``).
    """
    rules = api.ruleset(ruleset).meld_rules
    physical, represented = split_wild(text)
    wild = physical == wild_tile(rules, indicator)
    classes = ["tile"]
    if wild:
        classes.append("wild")
    okey = okey_of(indicator) if indicator else None
    if physical == FALSE_JOKER:
        classes.append("false-joker")
        colour = parse_face(okey).colour if okey else "K"
        label, mark = "✦", MARKS[colour]
        title = pgettext("rules", "false joker (plays as %(tile)s)") % {"tile": tile_name(okey) if okey else "?"}
    elif physical == JOKER and not represented:
        classes.append("joker")
        colour, label, mark = "K", "☺", ""
        title = pgettext("rules", "joker")
    else:
        if physical == JOKER:
            classes.append("joker")
        face = parse_face(represented or physical)
        colour, label, mark = face.colour, str(face.number), MARKS[face.colour]
        name = tile_name(represented or physical)
        if physical == JOKER:
            title = pgettext("rules", "joker as %(tile)s") % {"tile": name}
        elif wild and represented and represented != physical:
            title = pgettext("rules", "okey as %(tile)s") % {"tile": name}
        elif wild:
            title = pgettext("rules", "okey (%(tile)s)") % {"tile": name}
        else:
            title = name
    classes.append(f"c-{colour}")
    html = format_html('<span class="{}" data-tile="{}" title="{}" role="img" aria-label="{}">'
                       '<span class="num">{}</span>{}{}</span>', " ".join(classes), text, title, title, label,
                       format_html('<span class="mark" aria-hidden="true">{}</span>', mark) if mark else "",
                       mark_safe('<span class="wild-mark" aria-hidden="true">★</span>') if wild else "")
    return {"text": text, "classes": " ".join(classes), "label": label, "mark": mark, "wild": wild,
            "title": title, "html": html}
