"""The melds a rack can lay, and openings made of them (RULES.md §2): the candidate
generator behind the rulesets' ``legal_actions``.

It proposes written melds; the ruleset's ``step`` decides.  A rack is read as a
:class:`Supply`: for each face (``"B5"``) the physical tiles standing for it as ordinary
tiles (``F`` stands for the okey's identity), and the number of wilds.  A wild standing
for face ``f`` is written ``wild=f`` — bare when ``f`` is the wild's own face (an okey
standing for itself, RULES.md §1), never bare for a rami joker.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Iterator

from .melds import MeldRules
from .tiles import COLOURS, NUMBERS

SET_LIMIT = 48
"""Sets of melds one search yields at most (the legal-action openings are bounded by it)."""
NODE_BUDGET = 3000
"""Search nodes one search visits at most."""


@dataclass(frozen=True)
class Supply:
    """A rack as faces and wilds.

    - ``faces``: face -> the physical tiles of the rack standing for it (not wilds);
    - ``wilds``: how many wilds the rack holds; ``wild``: the physical wild tile (None: none);
    - ``bare_self``: a wild standing for its own face is written bare (okey rulesets).
    """

    faces: dict[str, list[str]]
    wilds: int
    wild: str | None
    bare_self: bool

    def written(self, face: str) -> str:
        """The wild written standing for ``face``."""
        return self.wild if self.bare_self and face == self.wild else f"{self.wild}={face}"


def supply(rack: list[str], wild: str | None, face_of: Callable[[str], str | None], bare_self: bool) -> Supply:
    """Read ``rack``: ``wild`` is the physical wild tile (the okey, ``J``); ``face_of(tile)``
    gives an ordinary tile's face (``F`` -> the okey's identity), None for none."""
    faces: dict[str, list[str]] = {}
    wilds = 0
    for tile in rack:
        if tile == wild:
            wilds += 1
            continue
        face = face_of(tile)
        if face is not None:
            faces.setdefault(face, []).append(tile)
    return Supply(faces, wilds, wild, bare_self)


def _lay(sup: Supply, faces: list[str], wild_at: set[int]) -> list[str]:
    """Written tiles for ``faces``: a wild at the indexes ``wild_at``, a real tile elsewhere."""
    return [sup.written(f) if i in wild_at else sup.faces[f][0] for i, f in enumerate(faces)]


def _layouts(sup: Supply, faces: list[str], variants: bool) -> Iterator[list[str]]:
    """Ways to lay ``faces`` from the supply: wilds where no real tile is, and (with
    ``variants``) also wilds in place of real tiles, as far as the wilds go; at least one
    real tile (D-4)."""
    missing = {i for i, f in enumerate(faces) if not sup.faces.get(f)}
    spare = sup.wilds - len(missing)
    if spare < 0 or len(missing) == len(faces):
        return
    yield _lay(sup, faces, missing)
    if not variants or not sup.wilds:
        return
    real = [i for i in range(len(faces)) if i not in missing]
    for k in range(1, min(spare, len(real) - 1) + 1):
        for extra in combinations(real, k):
            yield _lay(sup, faces, missing | set(extra))


def runs(sup: Supply, rules: MeldRules, variants: bool = False) -> Iterator[list[str]]:
    """Every run of 3-13 tiles the supply can lay (RULES.md §2; 1 after 13 with
    ``ace_high``), lowest first."""
    top = 14 if rules.ace_high else 13
    for colour in [c for c in COLOURS if any(face[0] == c for face in sup.faces)]:  # a real tile, D-4
        for start in range(1, top - 1):
            faces: list[str] = []
            missing = 0
            for pos in range(start, min(top, start + 12) + 1):
                face = f"{colour}{1 if pos == 14 else pos}"
                faces.append(face)
                missing += not sup.faces.get(face)
                if missing > sup.wilds:
                    break
                if len(faces) >= 3:
                    yield from _layouts(sup, faces, variants)


def groups(sup: Supply, variants: bool = False) -> Iterator[list[str]]:
    """Every group of 3 or 4 colours the supply can lay (RULES.md §2), colours in RBKY order."""
    for number in sorted({int(face[1:]) for face in sup.faces}):  # a real tile, D-4
        for size in (3, 4):
            for colours in combinations(COLOURS, size):
                yield from _layouts(sup, [f"{c}{number}" for c in colours], variants)


def pairs(sup: Supply, variants: bool = False, all_wild_faces: bool = False) -> Iterator[list[str]]:
    """Pairs of identical tiles (RULES.md §2): two real tiles, a real tile and a wild, two
    wilds standing for the same tile (D-30: bare, and with ``all_wild_faces`` every face)."""
    for face, tiles in sup.faces.items():
        if len(tiles) >= 2:
            yield [tiles[0], tiles[1]]
        if sup.wilds and (variants or len(tiles) < 2):
            yield [tiles[0], sup.written(face)]
    if sup.wilds >= 2 and sup.bare_self:
        faces = [f"{c}{n}" for c in COLOURS for n in NUMBERS] if all_wild_faces else [sup.wild]
        for face in faces:
            yield [sup.written(face)] * 2


def disjoint_sets(melds: list[tuple[list[str], int]], rack: list[str], enough: Callable[[int, int], bool],
                  keep: int = 1, must: str | None = None, limit: int = SET_LIMIT,
                  budget: int = NODE_BUDGET) -> Iterator[list[list[str]]]:
    """Sets of melds laid together from ``rack`` (an opening), bounded.

    ``melds``: candidates as ``(written tiles, points)``, tried highest points first;
    ``enough(total points, count)``: whether a set opens, growing with both; ``keep``: rack tiles that must
    stay; ``must``: a physical tile some meld of the set must use (a taken discard).
    Yields each set once (as lists of written tiles), at most ``limit`` sets, after
    visiting at most ``budget`` search nodes — the search is depth first over the
    candidates in order, so the sets found first are those with the biggest melds.
    """
    order = sorted(range(len(melds)), key=lambda i: -melds[i][1])
    need = [Counter(t.partition("=")[0] for t in melds[i][0]) for i in order]
    points = [melds[i][1] for i in order]
    sizes = [sum(n.values()) for n in need]
    uses = [must is None or n[must] > 0 for n in need]
    # what the candidates from j on could add at most: prunes a set that cannot reach
    # ``enough`` (``enough`` grows with points and count) or can no longer use ``must``
    n = len(order)
    more_points = [0] * (n + 1)
    more_uses = [False] * (n + 1)
    for j in range(n - 1, -1, -1):
        more_points[j] = more_points[j + 1] + points[j]
        more_uses[j] = more_uses[j + 1] or uses[j]
    room = len(rack) - keep
    state = {"nodes": 0, "found": 0}

    def search(start: int, left: Counter, chosen: list[int], total: int, size: int, used: bool):
        if not (used or more_uses[start]) or not enough(total + more_points[start], len(chosen) + n - start):
            return
        for j in range(start, n):
            state["nodes"] += 1
            if state["nodes"] > budget or state["found"] >= limit:
                return
            if size + sizes[j] > room or any(left[t] < c for t, c in need[j].items()):
                continue
            chosen.append(j)
            now_used = used or uses[j]
            if now_used and enough(total + points[j], len(chosen)):
                state["found"] += 1
                yield [melds[order[k]][0] for k in chosen]
            yield from search(j + 1, left - need[j], chosen, total + points[j], size + sizes[j], now_used)
            chosen.pop()

    yield from search(0, Counter(rack), [], 0, 0, False)
