"""Tile notation shared by the engine, the bots and the solvers (RULES.md §1).

A tile is written as a string: colour + number (``R5``, ``K13``), ``F`` for the
okey rulesets' false joker, ``J`` for a ``rami`` joker.  A wild inside a meld is
written ``physical=represented`` (``R6=B5``, ``J=K7``).
"""
from __future__ import annotations

from typing import NamedTuple

from . import registry

COLOURS = "RBKY"
"""Colour letters in sort order: red, blue, black, yellow (RULES.md §1)."""

NUMBERS = range(1, 14)
FALSE_JOKER = "F"
JOKER = "J"


class BadTile(ValueError):
    """Raised for a string that is not a tile of RULES.md §1 notation."""


class Face(NamedTuple):
    """A numbered tile's identity: ``colour`` in ``RBKY``, ``number`` in 1..13."""

    colour: str
    number: int

    def __str__(self) -> str:
        return f"{self.colour}{self.number}"


_FACES = {f"{c}{n}": Face(c, n) for c in COLOURS for n in NUMBERS}
"""Every numbered tile's text -> its Face (parsing is a look-up: the engine parses a lot)."""


def parse_face(text: str) -> Face:
    """Parse a numbered tile such as ``"R5"`` into a :class:`Face`.

    Raises :class:`BadTile` for anything else (including ``F``, ``J`` and
    ``x=y`` forms).  RULES.md §1.
    """
    face = _FACES.get(text) if isinstance(text, str) else None
    if face is None:
        raise BadTile(text)
    return face


def is_tile(text: object) -> bool:
    """True when ``text`` is a bare tile: a numbered tile, ``F`` or ``J``."""
    return isinstance(text, str) and (text in _FACES or text in (FALSE_JOKER, JOKER))


def split_wild(text: str) -> tuple[str, str | None]:
    """Split ``"R6=B5"`` into ``("R6", "B5")``; a bare tile gives ``(tile, None)``.

    Raises :class:`BadTile` when either side is not a tile, or the represented
    side is not a numbered tile.  RULES.md §1.
    """
    if not isinstance(text, str):
        raise BadTile(text)
    if "=" not in text:
        if not is_tile(text):
            raise BadTile(text)
        return text, None
    physical, _, represented = text.partition("=")
    if not is_tile(physical):
        raise BadTile(text)
    parse_face(represented)
    return physical, represented


def physical(text: object) -> str | None:
    """The physical part of a written tile (``"R6=B5"`` -> ``"R6"``, RULES.md §1), not
    checked (the action's notation was, ``actions.py``); None if ``text`` is not a string."""
    if not isinstance(text, str):
        return None
    return text.partition("=")[0]


def okey_of(indicator: str) -> str:
    """The okey (wild) for an indicator: next number in its colour, 13 -> 1.

    ``okey_of("R13") == "R1"``.  Raises :class:`BadTile` for ``F``/``J``
    (an indicator is never a false joker, RULES.md §1 D-2).
    """
    face = parse_face(indicator)
    return f"{face.colour}{face.number % 13 + 1}"


def full_set(ruleset, players: int = 4) -> list[str]:
    """Every physical tile of a ruleset's set, in a fixed order (RULES.md §1).

    ``ruleset``: a ruleset object or its id (the object says how many copies and which
    extra tile: okey rulesets 104 numbered tiles + two ``F``; ``rami`` 104 + two ``J``
    for 2-4 players, 156 + four ``J`` for 5-6 players, D-1).  ValueError for an
    unknown id.
    """
    return registry.get(ruleset).full_set(players)


def sort_key(tile: str) -> tuple[int, int]:
    """A stable sort key: by colour (``RBKY``), then number; ``F``/``J`` last."""
    physical, _ = split_wild(tile)
    if physical in (FALSE_JOKER, JOKER):
        return (len(COLOURS), 0)
    face = parse_face(physical)
    return (COLOURS.index(face.colour), face.number)
