"""Meld classification and meld points, parameterised per ruleset (RULES.md §1, §2).

The entry point is :func:`classify`: given a meld as written (``physical=represented``
for a wild, bare tiles otherwise) it returns a :class:`Meld` (type, the face each
tile stands for, points, the stored order) or ``None`` when the tiles form no
valid meld.  :func:`resolve` goes the other way: tiles as a player arranged them
in the rack with *bare* wilds -> the written meld with each wild annotated.

Rule parameters live in one frozen :class:`MeldRules` per ruleset, so a rule
decision is a one-line change.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from . import registry
from .tiles import COLOURS, FALSE_JOKER, JOKER, BadTile, Face, okey_of, parse_face, split_wild

RUN, GROUP, PAIR = "run", "group", "pair"


@dataclass(frozen=True)
class MeldRules:
    """What counts as a meld in one ruleset (RULES.md §2).

    - ``ace_high``: a run may end ``12-13-1`` (okey51); never ``13-1-2``.
    - ``pairs``: two identical tiles form a meld (okey rulesets).
    - ``descending``: runs may be written right to left (okey17); the table still
      stores them lowest first (D-5).  Validity never depends on the given order.
    - ``joker_wild``: ``J`` is the wild (rami); otherwise the two okeys are wild and
      ``F`` is an ordinary tile with the okey's identity (okey rulesets).
    - ``points``: ``"sum"`` (okey51, rami) or ``"values"`` (okey17's meld values, D-6).

    Each ruleset object holds its instance as ``meld_rules``.
    """

    name: str
    ace_high: bool
    pairs: bool
    descending: bool
    joker_wild: bool
    points: str


def rules_for(ruleset) -> MeldRules:
    """The :class:`MeldRules` of a ruleset (an id, a ruleset object, or MeldRules
    itself); ``ValueError`` for an unknown id.  The rules are the ruleset object's
    ``meld_rules`` (RULES.md §2)."""
    if isinstance(ruleset, MeldRules):
        return ruleset
    return registry.get(ruleset).meld_rules


@dataclass(frozen=True)
class Meld:
    """A valid meld.

    - ``type``: ``"run"``, ``"group"`` or ``"pair"``.
    - ``tiles``: the written tiles in stored order (runs lowest first, D-5;
      groups and pairs as given).
    - ``faces``: for each of ``tiles``, the numbered tile it stands for (``"B5"``).
    - ``wild``: for each of ``tiles``, whether it is physically a wild.
    - ``points``: meld points (RULES.md §2).
    - ``low``/``high``: a run's end positions (1..14, 14 = an ace after 13);
      for groups and pairs both are the number.
    """

    type: str
    tiles: tuple[str, ...]
    faces: tuple[str, ...]
    wild: tuple[bool, ...]
    points: int
    low: int
    high: int

    @property
    def number(self) -> int:
        """The number of a group or pair (the lowest number for a run)."""
        return self.low

    @property
    def colour(self) -> str:
        """The colour of a run (of the first tile for a group)."""
        return self.faces[0][0]


def wild_tile(rules: MeldRules, indicator: str | None) -> str | None:
    """The physical tile that is wild: ``"J"`` in rami, the okey for okey rulesets
    (``None`` when no indicator is known).  RULES.md §1."""
    if rules.joker_wild:
        return JOKER
    return okey_of(indicator) if indicator else None


def tile_face(tile: str, rules: MeldRules, indicator: str | None) -> Face | None:
    """The identity of a bare tile as an ordinary tile: ``F`` -> the okey's identity
    (okey rulesets), ``J`` -> ``None`` (no identity).  Raises :class:`BadTile`."""
    if tile == FALSE_JOKER:
        if rules.joker_wild or not indicator:
            return None
        return parse_face(okey_of(indicator))
    if tile == JOKER:
        return None
    return parse_face(tile)


def tile_value(tile: str, rules: MeldRules, indicator: str | None) -> int:
    """A bare tile's value in points: its number; ``F`` the okey's number (D-20).
    A ``J`` has no value here (scoring decides); returns 0 for it."""
    face = tile_face(tile, rules, indicator)
    return face.number if face else 0


def _read(tiles: Sequence[str], rules: MeldRules, indicator: str | None):
    """Parse written tiles into (faces, wild flags), or None when some tile is not
    valid meld notation (``F=..``, a non-wild with ``=``, bare ``J``)."""
    wild = wild_tile(rules, indicator)
    faces: list[Face] = []
    flags: list[bool] = []
    for text in tiles:
        try:
            physical, represented = split_wild(text)
        except BadTile:
            return None
        is_wild = physical == wild
        if represented is not None:
            if not is_wild:
                return None
            faces.append(parse_face(represented))
        else:
            if physical == JOKER:  # a bare joker stands for nothing (RULES.md §5)
                return None
            face = tile_face(physical, rules, indicator)
            if face is None:
                return None
            faces.append(face)
        flags.append(is_wild)
    return faces, flags


def meld_points(rules: MeldRules, kind: str, numbers: Sequence[int]) -> int:
    """Meld points (RULES.md §2).

    ``numbers``: run positions lowest first (14 = an ace after 13), or the numbers
    of a group/pair.  ``"sum"``: sum of values, an ace counting 1 everywhere (D-3).
    ``"values"``: run = median of its three highest + 1 per tile beyond three;
    group = number (+1 with four tiles); pair = the number once (D-6).
    """
    if rules.points == "sum":
        return sum(1 if n == 14 else n for n in numbers)
    if kind == RUN:
        top = sorted(numbers)[-3:]
        return top[1] + len(numbers) - 3
    if kind == GROUP:
        return numbers[0] + (1 if len(numbers) == 4 else 0)
    return numbers[0]


def _run_positions(numbers: list[int], ace_high: bool) -> list[int] | None:
    """Positions (1..14) making the numbers consecutive, or None."""
    if len(set(numbers)) != len(numbers):
        return None
    ordered = sorted(numbers)
    if ordered[-1] - ordered[0] == len(ordered) - 1:
        return numbers
    if ace_high and 1 in numbers:
        moved = [14 if n == 1 else n for n in numbers]
        ordered = sorted(moved)
        if ordered[-1] - ordered[0] == len(ordered) - 1:
            return moved
    return None


def classify(tiles: Sequence[str], rules, indicator: str | None = None) -> Meld | None:
    """Classify a written meld; ``None`` when it is not a valid meld.

    ``tiles``: written tiles (``"R6=B5"`` for a wild standing for ``B5``; a bare
    wild stands for itself; ``F`` is an ordinary tile with the okey's identity).
    ``rules``: a :class:`MeldRules`, a ruleset object or id.  ``indicator``: needed by the
    okey rulesets to know the okey.  A 2-tile meld is judged as a pair, a longer
    one as a run or group (RULES.md §7).  D-3, D-4, D-5 apply.
    """
    rules = rules_for(rules)
    if not isinstance(tiles, (list, tuple)) or len(tiles) < 2:
        return None
    read = _read(tiles, rules, indicator)
    if read is None:
        return None
    faces, flags = read
    n = len(faces)
    if n == 2:
        if not rules.pairs or faces[0] != faces[1]:
            return None
        nums = [faces[0].number, faces[1].number]
        return Meld(PAIR, tuple(tiles), tuple(map(str, faces)), tuple(flags),
                    meld_points(rules, PAIR, nums), nums[0], nums[0])
    if all(flags):  # D-4: at least one tile is not wild
        return None
    colours = {f.colour for f in faces}
    numbers = [f.number for f in faces]
    if len(colours) == 1 and n <= 14:
        pos = _run_positions(numbers, rules.ace_high)
        if pos is None:
            return None
        order = sorted(range(n), key=lambda i: pos[i])
        spos = [pos[i] for i in order]
        return Meld(RUN, tuple(tiles[i] for i in order), tuple(str(faces[i]) for i in order),
                    tuple(flags[i] for i in order), meld_points(rules, RUN, spos), spos[0], spos[-1])
    if len(set(numbers)) == 1 and len(colours) == n and n <= 4:
        return Meld(GROUP, tuple(tiles), tuple(map(str, faces)), tuple(flags),
                    meld_points(rules, GROUP, numbers), numbers[0], numbers[0])
    return None


def can_grow(meld: Meld, rules: MeldRules) -> bool:
    """Whether any tile could still be added to ``meld`` (RULES.md §3 penalty tile)."""
    return bool(extensions(meld, rules))


def extensions(meld: Meld, rules: MeldRules) -> list[tuple[str, str]]:
    """The faces that could be added to ``meld`` and where: ``[(face, end)]`` with
    end ``"low"``/``"high"`` for runs, ``"any"`` for a group's missing colours.
    Pairs never grow (RULES.md §3 add)."""
    out: list[tuple[str, str]] = []
    if meld.type == RUN and meld.high - meld.low + 1 < 13:  # at most 13 tiles (RULES.md §2)
        colour = meld.colour
        top = 14 if rules.ace_high else 13
        if meld.low > 1 and meld.low - 1 < 14:
            out.append((f"{colour}{meld.low - 1}", "low"))
        if meld.high < top:
            nxt = meld.high + 1
            out.append((f"{colour}{1 if nxt == 14 else nxt}", "high"))
    elif meld.type == GROUP and len(meld.tiles) < 4:
        have = {f[0] for f in meld.faces}
        for c in COLOURS:
            if c not in have:
                out.append((f"{c}{meld.number}", "any"))
    return out


def add_tile(meld: Meld, tile: str, rules: MeldRules, indicator: str | None) -> Meld | None:
    """The meld after adding written ``tile`` to ``meld`` (a run: at whichever end
    it fits; a wild: where its represented face fits), or None when it does not
    fit.  Never grows a pair.  RULES.md §3."""
    if meld.type == PAIR:
        return None
    new = classify(list(meld.tiles) + [tile], rules, indicator)
    if new is None or new.type != meld.type:
        return None
    return new


def _annotate(physical: str, face: str) -> str:
    return physical if physical == face else f"{physical}={face}"


def resolve(tiles: Sequence[str], rules, indicator: str | None = None) -> list[str] | None:
    """Annotate bare wilds in ``tiles`` (as arranged in the rack) so they form a
    valid meld; returns the written tiles in the given order, or None.

    Prefers the reading that follows the given order: a run read left to right
    (or right to left where descending runs are allowed), then a group; then any
    valid reading (extra wilds extend a run upwards first).  Already-annotated or
    ordinary tiles are kept as they are.  RULES.md §1, §2.
    """
    rules = rules_for(rules)
    tiles = list(tiles)
    if classify(tiles, rules, indicator) is not None:
        return tiles
    wild = wild_tile(rules, indicator)
    holes = [i for i, t in enumerate(tiles) if t == wild]
    if not holes or len(tiles) < 2:
        return None
    fixed: dict[int, Face] = {}
    for i, t in enumerate(tiles):
        if i in holes:
            continue
        read = _read([t], rules, indicator)
        if read is None:
            return None
        fixed[i] = read[0][0]
    for candidate in _candidates(tiles, holes, fixed, rules):
        out = list(tiles)
        for i, face in candidate.items():
            out[i] = _annotate(tiles[i], face)
        if classify(out, rules, indicator) is not None:
            return out
    return None


def _candidates(
    tiles: list[str], holes: list[int], fixed: dict[int, Face], rules: MeldRules
) -> Iterable[dict[int, str]]:
    """Assignments of faces to wild positions, most natural first."""
    n = len(tiles)
    if not fixed:
        return
    if n == 2:
        (face,) = fixed.values()
        yield {holes[0]: str(face)}
        return
    colours = {f.colour for f in fixed.values()}
    numbers = {f.number for f in fixed.values()}
    if len(colours) == 1:
        colour = next(iter(colours))
        top = 14 if rules.ace_high else 13
        directions = (1, -1) if rules.descending else (1,)
        for d in directions:
            for ace in (False, True) if rules.ace_high else (False,):
                starts = {(14 if ace and f.number == 1 else f.number) - d * i for i, f in fixed.items()}
                if len(starts) == 1:
                    start = starts.pop()
                    pos = {i: start + d * i for i in holes}
                    if all(1 <= p <= top for p in pos.values()):
                        yield {i: f"{colour}{1 if p == 14 else p}" for i, p in pos.items()}
        # any reading: fill gaps, then extend upwards, then downwards
        for ace in (False, True) if rules.ace_high else (False,):
            nums = sorted(14 if ace and f.number == 1 else f.number for f in fixed.values())
            if len(set(nums)) != len(nums):
                continue
            missing = [p for p in range(nums[0], nums[-1] + 1) if p not in nums]
            spare = len(holes) - len(missing)
            if spare < 0:
                continue
            extra_hi = [p for p in range(nums[-1] + 1, top + 1)][:spare]
            extra_lo = [p for p in range(nums[0] - 1, 0, -1)][: spare - len(extra_hi)]
            pos = missing + extra_hi + extra_lo
            if len(pos) == len(holes):
                yield {i: f"{colour}{1 if p == 14 else p}" for i, p in zip(holes, pos)}
    if len(numbers) == 1:
        number = next(iter(numbers))
        free = [c for c in COLOURS if c not in colours]
        if len(free) >= len(holes):
            yield {i: f"{c}{number}" for i, c in zip(holes, free)}
