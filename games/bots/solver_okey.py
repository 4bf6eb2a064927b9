"""Exact okey hand solver: the best melds and the best pairs in a rack.

Used by the computer players of ``okey51`` and ``okey17`` to decide whether
they can open (RULES.md §3, §4) and with what.

* :func:`best_melds` partitions a rack into runs and groups (RULES.md §2) so
  that the meld points are maximal (then the number of tiles placed), or the
  tiles placed are maximal (then the points).  It is an exhaustive search with
  memoisation over the remaining multiset: the lowest remaining real tile is
  either left in the rack or placed in one of the melds that contain it, so
  every partition is seen exactly once.
* :func:`best_pairs` picks the pairs to lay for a pairs opening.

Wilds (both physical copies of the okey) take any place in a meld, a meld must
keep one real tile (D-4); the false joker ``F`` is an ordinary tile with the
okey's identity.  Melds come back in RULES.md notation: runs lowest first,
wilds written ``physical=represented`` (bare when a wild stands for itself),
``F`` written ``F``.
"""
from __future__ import annotations

from itertools import combinations

from games.engine.melds import GROUP, PAIR, RUN, MeldRules, meld_points, rules_for
from games.engine.tiles import COLOURS, FALSE_JOKER, okey_of, parse_face

PAIRS_OBJECTIVE = {"okey51": "pairs", "okey17": "points"}
"""What a pairs opening needs, per okey ruleset id (the rulesets this solver serves):
okey51 opens with at least five pairs, whatever their points (RULES.md §3), so the most
pairs first; okey17 with pair points over its pairs threshold (RULES.md §4), so the most
points first."""
RULESETS = tuple(PAIRS_OBJECTIVE)
OBJECTIVES = ("points", "tiles")

# A face (colour, number) is the integer colour * 13 + number - 1, 0..51.


def _face(colour: int, number: int) -> int:
    return colour * 13 + number - 1


def _name(face: int) -> str:
    return f"{COLOURS[face // 13]}{face % 13 + 1}"


class _Hand:
    """A parsed rack: counts of real faces, wild count, the okey, the F count."""

    def __init__(self, rack: list[str], indicator: str):
        self.okey = okey_of(indicator)
        okey_face = parse_face(self.okey)
        self.okey_face = _face(COLOURS.index(okey_face.colour), okey_face.number)
        self.counts = [0] * 52
        self.wilds = 0
        self.false_jokers = 0
        for tile in rack:
            if tile == self.okey:
                self.wilds += 1
            elif tile == FALSE_JOKER:
                self.false_jokers += 1
                self.counts[self.okey_face] += 1
            else:
                face = parse_face(tile)
                self.counts[_face(COLOURS.index(face.colour), face.number)] += 1

    def writer(self):
        """A function turning (face, is_wild) slots into tile strings.

        The first ``F`` count copies of the okey face are written ``F``.
        """
        left = {"F": self.false_jokers}

        def write(face: int, wild: bool) -> str:
            if wild:
                return self.okey if face == self.okey_face else f"{self.okey}={_name(face)}"
            if face == self.okey_face and left["F"] > 0:
                left["F"] -= 1
                return FALSE_JOKER
            return _name(face)

        return write


def _longest_run(rules: MeldRules) -> int:
    """The longest run worth trying (RULES.md §2 meld points).

    Longer runs are never needed: with summed points (okey51) a run of 6+ splits
    into two runs of 3+ with the same tiles and as many points; with okey17's meld
    values a run a..b of 7+ split after a+3 loses nothing (the points change by
    a+3-4 >= 0), while 1..6 (8 points) beats 1..3 + 4..6 (7).  Each half keeps a
    real tile (<= 2 wilds).
    """
    return 5 if rules.points == "sum" else 6


def _candidate_melds(ruleset: str, counts: list[int], wilds: int, first: int):
    """Every meld containing the real face ``first`` that the remaining tiles allow.

    Yields ``(slots, reals, wilds_used, points)`` where ``slots`` is the meld's
    list of ``(face, is_wild)`` in table order and ``reals`` the real faces used.
    """
    rules = rules_for(ruleset)
    colour, number = divmod(first, 13)
    number += 1
    # Runs: positions 1..13, plus 14 standing for a 1 after 13 where runs may end 12-13-1.
    top = 14 if rules.ace_high else 13
    longest = _longest_run(rules)
    own_positions = [number] + ([14] if rules.ace_high and number == 1 else [])
    for own in own_positions:
        for low in range(max(1, own - longest + 1), own + 1):
            if own == 14 and low == 1:
                continue
            for high in range(max(own, low + 2), top + 1):
                if high - low + 1 > longest or (low == 1 and high == 14):
                    break
                others = [p for p in range(low, high + 1) if p != own]
                yield from _fill(rules, colour, number, own, low, high, others, counts, wilds)
    # Groups: 3 or 4 different colours of one number.
    rest = [c for c in range(4) if c != colour]
    for size in (2, 3):
        for chosen in combinations(rest, size):
            yield from _fill_group(rules, first, number, chosen, counts, wilds)


def _fill(rules, colour, number, own, low, high, others, counts, wilds):
    """Fill the run positions ``others`` with real tiles or wilds, every way."""
    options = []
    for p in others:
        face = _face(colour, 1 if p == 14 else p)
        opts = []
        if counts[face] > 0:
            opts.append((face, False))
        if wilds:
            opts.append((face, True))
        if not opts:
            return
        options.append(opts)
    for slots in _product_limited(options, wilds):
        by_pos = dict(zip(others, slots))
        by_pos[own] = (_face(colour, number), False)
        ordered = [by_pos[p] for p in range(low, high + 1)]
        numbers = [1 if p == 14 else p for p in range(low, high + 1)]
        reals = [f for f, w in ordered if not w]
        used = len(ordered) - len(reals)
        yield ordered, reals, used, meld_points(rules, RUN, numbers)


def _fill_group(rules, first, number, colours, counts, wilds):
    options = []
    for c in colours:
        face = _face(c, number)
        opts = []
        if counts[face] > 0:
            opts.append((face, False))
        if wilds:
            opts.append((face, True))
        if not opts:
            return
        options.append(opts)
    for slots in _product_limited(options, wilds):
        ordered = sorted([(first, False), *slots])
        reals = [f for f, w in ordered if not w]
        used = len(ordered) - len(reals)
        yield ordered, reals, used, meld_points(rules, GROUP, [number] * len(ordered))


def _product_limited(options, wilds):
    """Cartesian product of slot options using at most ``wilds`` wild slots."""
    result = [((), 0)]
    for opts in options:
        nxt = []
        for partial, used in result:
            for slot in opts:
                u = used + slot[1]
                if u <= wilds:
                    nxt.append((partial + (slot,), u))
        result = nxt
    return [p for p, _ in result]


def _search(ruleset: str, objective: str, counts: list[int], wilds: int):
    """Best (key, melds) over all partitions; key orders (points, tiles) or (tiles, points)."""
    memo: dict = {}

    def best(state: bytes, wild_left: int):
        key = (state, wild_left)
        found = memo.get(key)
        if found is not None:
            return found
        rest_len = len(state.lstrip(b"\0"))
        if not rest_len:
            memo[key] = ((0, 0), ())
            return memo[key]
        first = len(state) - rest_len  # the lowest remaining real tile
        counts = bytearray(state)
        counts[first] -= 1
        # Leave the tile in the rack.
        result = best(bytes(counts), wild_left)
        for slots, reals, used, points in _candidate_melds(ruleset, counts, wild_left, first):
            rest = bytearray(counts)
            ok = True
            # `first` is already taken out; take the other reals out.
            skipped_first = False
            for f in reals:
                if f == first and not skipped_first:
                    skipped_first = True
                    continue
                if not rest[f]:
                    ok = False
                    break
                rest[f] -= 1
            if not ok:
                continue
            (a, b), melds = best(bytes(rest), wild_left - used)
            tiles = len(slots)
            gain = (points, tiles) if objective == "points" else (tiles, points)
            total = (a + gain[0], b + gain[1])
            if total > result[0]:
                result = (total, (tuple(slots),) + melds)
        memo[key] = result
        return result

    return best(bytes(counts), wilds)


def best_melds(rack: list[str], ruleset: str, indicator: str, objective: str = "points"):
    """The best way to lay runs and groups from ``rack`` (RULES.md §2, §3, §4).

    Args:
        rack: tiles in RULES.md §1 notation (up to 15 or so; ``F`` allowed,
            both okeys are wild).
        ruleset: ``"okey51"`` (meld points = sum of values, ``12-13-1`` allowed)
            or ``"okey17"`` (meld values, 1 only before 2).
        indicator: the indicator tile, e.g. ``"R5"`` (okey ``R6``).
        objective: ``"points"`` maximises meld points, then tiles placed;
            ``"tiles"`` maximises tiles placed, then points.

    Returns:
        ``(points, tiles_placed, melds)``: total meld points (the opening
        total), number of rack tiles in the melds, and the melds as lists of
        tiles in table notation (runs lowest first, ``R6=B5`` for a wild).
        ``(0, 0, [])`` when no meld can be made.

    Raises:
        ValueError: unknown ruleset or objective; ``BadTile`` for bad tiles.
    """
    if ruleset not in RULESETS:
        raise ValueError(f"unknown okey ruleset {ruleset!r}")
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}")
    hand = _Hand(rack, indicator)
    (a, b), melds = _search(ruleset, objective, hand.counts, hand.wilds)
    points, tiles = (a, b) if objective == "points" else (b, a)
    write = hand.writer()
    written = [[write(face, wild) for face, wild in meld] for meld in melds]
    return points, tiles, written


def _pair_points(ruleset: str, number: int) -> int:
    """Pair points (RULES.md §2): ``okey51`` the sum of both values, ``okey17`` the number once."""
    return meld_points(rules_for(ruleset), PAIR, [number, number])


def best_pairs(rack: list[str], indicator: str, ruleset: str = "okey51",
               objective: str | None = None) -> list[list[str]]:
    """The best set of pairs to lay from ``rack`` (RULES.md §2, §3, §4).

    A pair is two identical tiles (``F`` is identical to the okey's
    identity), a wild with any tile (it represents that tile), or the two
    okeys (they may stand for any identical pair, as the engine's
    ``games.engine.melds.classify`` accepts: a 13 of the okey's colour).

    Args:
        rack: tiles in RULES.md §1 notation.
        indicator: the indicator tile.
        ruleset: ``"okey51"`` or ``"okey17"`` (pair points: sum of the two
            values, or the number once).
        objective: ``"pairs"`` (most pairs, then most pair points — what an
            ``okey51`` pairs opening needs: 5 pairs) or ``"points"`` (most pair
            points, then most pairs — ``okey17``'s pairs threshold).  Default:
            ``"pairs"`` for okey51, ``"points"`` for okey17.

    Returns:
        A list of pairs, each a list of two tiles in table notation (a wild as
        ``R6=B9``), highest pairs first.  Empty when there is none.
    """
    if ruleset not in RULESETS:
        raise ValueError(f"unknown okey ruleset {ruleset!r}")
    if objective is None:
        objective = PAIRS_OBJECTIVE[ruleset]
    if objective not in ("pairs", "points"):
        raise ValueError(f"unknown objective {objective!r}")
    hand = _Hand(rack, indicator)
    present = [f for f in range(52) if hand.counts[f]]
    best_key, best_plan = None, None
    # Each wild: left out, paired with one copy of a face, or (both) paired together.
    plans: list[tuple] = [()]
    for _ in range(hand.wilds):
        plans = [p + (f,) for p in plans for f in [None, *present]]
    if hand.wilds == 2:
        plans.append(("both",))
    for plan in plans:
        counts = list(hand.counts)
        pairs: list[tuple[int, int]] = []  # (face, wilds in the pair)
        ok = True
        if plan == ("both",):
            # Two wilds may stand for any identical pair: take a 13 (the highest value).
            pairs.append((_face(hand.okey_face // 13, 13), 2))
        else:
            for f in plan:
                if f is None:
                    continue
                if counts[f] == 0:
                    ok = False
                    break
                counts[f] -= 1
                pairs.append((f, 1))
        if not ok:
            continue
        for f in present:
            pairs.extend([(f, 0)] * (counts[f] // 2))
        points = sum(_pair_points(ruleset, f % 13 + 1) for f, _ in pairs)
        key = (len(pairs), points) if objective == "pairs" else (points, len(pairs))
        if best_key is None or key > best_key:
            best_key, best_plan = key, pairs
    write = hand.writer()
    result = []
    for face, wilds in sorted(best_plan, key=lambda p: (-(p[0] % 13), p[0], p[1])):
        if wilds == 2:
            result.append([write(face, True), write(face, True)])
        elif wilds == 1:
            result.append([write(face, False), write(face, True)])
        else:
            result.append([write(face, False), write(face, False)])
    return result
