"""Tile faces as small integers, for fast rack arithmetic in the bots (RULES.md §1).

A *face* is a numbered tile's identity coded as ``colour_index * 13 + number - 1``
(``R1`` = 0, ``Y13`` = 51).  In the okey rulesets the two physical okeys are
*wild* and the false joker ``F`` has the okey's face; in ``rami`` the jokers
``J`` are wild.  Nothing here imports the engine: the bots call these helpers
hundreds of times per decision.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.engine.melds import rules_for
from games.engine.tiles import COLOURS, okey_of

WILD = -1
"""The code of a wild rack tile (an okey, or a ``rami`` joker)."""


def face(colour: int, number: int) -> int:
    """Face code for colour index 0..3 and number 1..13."""
    return colour * 13 + number - 1


def colour_of(code: int) -> int:
    """Colour index (0..3, ``RBKY``) of a face code."""
    return code // 13


def number_of(code: int) -> int:
    """Number (1..13) of a face code; it is also the tile's value in points (RULES.md §1, D-3)."""
    return code % 13 + 1


def face_str(code: int) -> str:
    """``face_str(0) == "R1"``."""
    return f"{COLOURS[code // 13]}{code % 13 + 1}"


def parse_str(text: str) -> int:
    """Face code of a bare numbered tile such as ``"B7"``; raises ``ValueError`` otherwise."""
    return COLOURS.index(text[0]) * 13 + int(text[1:]) - 1


@dataclass(frozen=True)
class TileContext:
    """How a ruleset reads physical tiles (RULES.md §1).

    ``wild``: the physical wild tile string (``"R6"`` okey, ``"J"`` rami);
    ``false_face``: the face ``F`` plays as (okey rulesets) or ``None``;
    ``ace_high``: runs may end ``12-13-1`` (the ruleset's ``MeldRules.ace_high``:
    ``okey51`` only, RULES.md §2).
    """

    ruleset: str
    wild: str
    false_face: int | None
    ace_high: bool

    @classmethod
    def for_view(cls, view: dict) -> "TileContext":
        """Build from a bot view (``ruleset`` and, where the okeys are wild, ``indicator``
        or ``okey``).  ValueError for an unknown ruleset."""
        ruleset = view["ruleset"]
        rules = rules_for(ruleset)
        if rules.joker_wild:  # the jokers are wild; no false joker (RULES.md §1)
            return cls(ruleset, "J", None, rules.ace_high)
        okey = view.get("okey") or okey_of(view["indicator"])
        return cls(ruleset, okey, parse_str(okey), rules.ace_high)

    def rack_code(self, tile: str) -> int:
        """Face code of a rack tile, or :data:`WILD` for the wild tile."""
        if tile == self.wild:
            return WILD
        if tile == "F":
            return self.false_face  # type: ignore[return-value]
        return parse_str(tile)

    def real_str(self, code: int) -> str:
        """The rack string of a non-wild tile with this face (``F`` for the okey's face)."""
        if code == self.false_face:
            return "F"
        return face_str(code)

    def wild_str(self, code: int) -> str:
        """How a wild standing for ``code`` is written in a meld (RULES.md §1)."""
        if code == self.false_face:  # the okey standing for itself is written bare
            return self.wild
        return f"{self.wild}={face_str(code)}"

    def meld_face(self, tile: str) -> tuple[int, bool]:
        """``(represented face, is_wild)`` of a tile as written in a table meld."""
        if "=" in tile:
            physical, _, rep = tile.partition("=")
            return parse_str(rep), True
        if tile == self.wild:
            # okey used bare stands for itself (never happens for rami "J", always written J=X)
            return parse_str(tile), True
        if tile == "F":
            return self.false_face, False  # type: ignore[return-value]
        return parse_str(tile), False


@dataclass
class TableMeld:
    """A table meld read for fits: ``kind`` ``run``/``group``/``pair``.

    Runs: ``colour``, ``lo``..``hi`` numbers (``hi`` 14 = a ``1`` after 13, okey51).
    Groups: ``number`` and the ``colours`` present.  ``wilds`` maps each represented
    face to the physical wild tile standing for it (for swaps).
    """

    id: int | None
    owner: int | None
    kind: str
    size: int
    colour: int = -1
    lo: int = 0
    hi: int = 0
    number: int = 0
    colours: frozenset = frozenset()
    wilds: dict | None = None
    pair_face: int = -1


def read_meld(ctx: TileContext, tiles: list[str], mid=None, owner=None) -> TableMeld:
    """Read a valid table meld (as the engine stores it) into a :class:`TableMeld`."""
    faces = []
    wilds = {}
    for t in tiles:
        code, is_wild = ctx.meld_face(t)
        faces.append(code)
        if is_wild:
            wilds[code] = t.partition("=")[0]
    if len(tiles) == 2:
        return TableMeld(mid, owner, "pair", 2, wilds=wilds, pair_face=faces[0])
    numbers = {number_of(c) for c in faces}
    if len(numbers) == 1:
        return TableMeld(mid, owner, "group", len(tiles), number=numbers.pop(),
                         colours=frozenset(colour_of(c) for c in faces), wilds=wilds)
    nums = sorted(number_of(c) for c in faces)
    if 1 in nums and 13 in nums:
        nums = sorted(14 if n == 1 else n for n in nums)
    return TableMeld(mid, owner, "run", len(tiles), colour=colour_of(faces[0]),
                     lo=nums[0], hi=nums[-1], wilds=wilds)


def run_ends(ctx: TileContext, m: TableMeld) -> list[tuple[int, str]]:
    """Faces that could extend run ``m`` now, with the end (``"lo"``/``"hi"``)."""
    out = []
    if m.size >= 13:
        return out
    if m.lo > 1:
        out.append((face(m.colour, m.lo - 1), "lo"))
    if m.hi < 13:
        out.append((face(m.colour, m.hi + 1), "hi"))
    elif m.hi == 13 and ctx.ace_high and m.lo > 1:
        out.append((face(m.colour, 1), "hi"))
    return out


def fitting_faces(ctx: TileContext, m: TableMeld) -> list[int]:
    """Faces a real tile may have to be added to ``m`` (RULES.md §3 add, §4)."""
    if m.kind == "run":
        return [f for f, _ in run_ends(ctx, m)]
    if m.kind == "group" and m.size < 4:
        return [face(c, m.number) for c in range(4) if c not in m.colours]
    return []


def can_grow(ctx: TileContext, m: TableMeld) -> bool:
    """True when some tile (hence any wild) could be added to ``m``."""
    return bool(fitting_faces(ctx, m))
