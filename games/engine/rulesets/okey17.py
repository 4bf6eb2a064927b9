"""``okey17``: Okey with meld *values* — open at 17 then above the highest opening,
pairs at ⌈1.5 × threshold⌉, refused playable/joker discards whose penalty stays,
a base by the okey's colour, finisher/direct/pile-empty endings (RULES.md §4).

The class holds every okey17 fact and rule decision; the shared okey rules are in
``okey.py``.
"""
from __future__ import annotations

from ..errors import Refused
from ..melds import GROUP, Meld, MeldRules
from ..tiles import okey_of, split_wild
from .okey import OkeyRuleset, Turn

BASE_THRESHOLD = 17
"""Meld points of the first meld opening (RULES.md §4)."""
BASES = {"R": 400, "K": 500, "Y": 600, "B": 800}
"""The round's base by the okey's colour (RULES.md §4)."""
PLAYABLE_DISCARD = 100
"""Cost of trying to discard a tile that fits a meld (×2 for a pairs player)."""
PAIR_IN_AREA_FACTOR = 10 * 2
"""D-12: pair number × 10 × 2 for a pairs player whose area gets a meld player's pair."""
JOKER_FACTOR = 10
"""Adding/swapping another player's joker: represented number × 10 (× 2 per pairs player)."""
DIRECT_FACTOR = 4
"""D-13: in a direct finish every opponent pays base × 4."""


def base_of(indicator: str) -> int:
    """The base (400/500/600/800) for the okey's colour red/black/yellow/blue."""
    return BASES[okey_of(indicator)[0]]


class Okey17(OkeyRuleset):
    """RULES.md §4 on the shared okey base."""

    id, name = "okey17", "Okey 17"
    option_keys = ("rounds",)
    meld_rules = MeldRules("okey17", ace_high=False, pairs=True, descending=True, joker_wild=False, points="values")
    take_then = ("open", "meld")  # a taken discard goes into a new meld only
    pairs_may_add = True  # D-19
    pairs_may_swap = True
    face_down_wilds = True  # RULES.md §6: a joker in the rack may be turned face down (seed 004)
    pairs_in_area = True  # D-12

    def normalize_options(self, options: dict | None) -> dict:
        """``{rounds: 7}`` (RULES.md §4, §7); ValueError on a bad value.  Unknown keys are kept."""
        out = dict(options or {})
        out.setdefault("rounds", 7)
        if not isinstance(out["rounds"], int) or isinstance(out["rounds"], bool) or out["rounds"] < 1:
            raise ValueError("rounds must be a positive integer")
        return out

    def new_turn_state(self) -> dict:
        """``took``, ``opened`` (this turn, for D-13), ``grown`` ([meld id, end] grown
        this turn: one tile per end), ``jokers`` ([meld id, face] laid this turn)."""
        return {"took": None, "opened": False, "grown": [], "jokers": []}

    def threshold(self, pos: dict) -> int:
        """17, then the highest meld opening + 1 (RULES.md §4)."""
        hi = pos.get("highest_opening")
        return BASE_THRESHOLD if hi is None else max(BASE_THRESHOLD, hi + 1)

    def opening_rules(self) -> dict:
        """Open at 17 meld points, or pairs worth ⌈1.5 × 17⌉ = 26 pair points (D-11); both
        rise with the highest meld opening (the view's thresholds)."""
        return {"threshold": BASE_THRESHOLD, "pairs": {"points": self.pairs_threshold({})}}

    def pairs_threshold(self, pos: dict) -> int:
        """⌈1.5 × the current meld threshold⌉ pair points (D-11; first: 26)."""
        return (3 * self.threshold(pos) + 1) // 2

    def pairs_open(self, st: dict, points: int, count: int) -> bool:
        """Pair points (each pair: its number once) must reach the pairs threshold;
        no minimum number of pairs; the meld threshold does not move (D-11)."""
        return points >= self.pairs_threshold(st)

    def may_name_owner(self, position: dict, seat: int, action: dict) -> bool:
        """D-12, D-29: a player who opened with melds may name another seat as the
        ``owner`` of a pair (whether that seat opened with pairs is ``meld_owner``'s)."""
        return (action.get("type") == "meld" and len(action.get("tiles") or ()) == 2
                and position["seats"][seat].get("opened") == "melds")

    def meld_owner(self, st: dict, seat: int, action: dict, tiles: list) -> int:
        """Pairs players lay pairs (D-19); meld players lay a pair only in a pairs
        player's area, named by ``owner`` (D-12); an absent or null owner is the actor."""
        seats = st["seats"]
        owner = seat if action.get("owner") is None else action["owner"]
        pair = len(tiles) == 2
        if seats[seat]["opened"] == "pairs":
            if not pair:
                raise Refused("pairs_only")
            return seat
        if pair and (owner == seat or seats[owner]["opened"] != "pairs"):
            raise Refused("melds_only")
        return owner

    def charge_pair_in_area(self, turn: Turn, owner: int, meld: Meld) -> None:
        """D-12: the pairs player gets pair number × 10 × 2."""
        turn.charge(owner, meld.number * PAIR_IN_AREA_FACTOR, "pair_in_area")

    def _joker_faces(self, st: dict, written: list[str]) -> list[str]:
        okey = self.okey(st)
        out = []
        for w in written:
            physical, represented = split_wild(w)
            if physical == okey:
                out.append(represented or physical)
        return out

    def after_lay(self, st: dict, meld_id: int, laid: list[str], end: str | None) -> None:
        """Record growth per end and the jokers laid this turn."""
        ts = st["turn_state"]
        if end is not None:
            ts["grown"].append([meld_id, end])
        for face in self._joker_faces(st, laid):
            ts["jokers"].append([meld_id, face])

    def check_growth(self, st: dict, meld_id: int, end: str) -> None:
        """One tile per end per turn (a group: one tile), RULES.md §4."""
        if [meld_id, end] in st["turn_state"]["grown"]:
            raise Refused("cannot_add", "one tile per end per turn")

    def _factor(self, st: dict, *seats: int) -> int:
        f = 1
        for s in seats:
            if st["seats"][s]["opened"] == "pairs":
                f *= 2
        return f

    def charge_add(self, turn: Turn, owner: int, written: str, wild: bool) -> None:
        """Adding a joker to another player's meld: represented × 10, ×2 per pairs
        player (a bare okey is a joker standing for itself, D-25)."""
        if wild and owner != turn.seat:
            amount = self.value_of(turn.st, written) * JOKER_FACTOR * self._factor(turn.st, turn.seat, owner)
            turn.charge(owner, amount, "add")

    def charge_swap(self, turn: Turn, owner: int, value: int) -> None:
        """Swapping another player's joker out: represented × 10, ×2 per pairs player."""
        if owner != turn.seat:
            turn.charge(owner, value * JOKER_FACTOR * self._factor(turn.st, turn.seat, owner), "swap")

    def may_swap(self, st: dict, entry: dict, meld: Meld, index: int) -> bool:
        """Not a joker laid this turn; from a group only when it has four tiles and no
        other wild, so that four real colours remain (D-26)."""
        if meld.type == GROUP and (len(meld.tiles) < 4 or sum(meld.wild) > 1):
            return False
        return [entry["id"], meld.faces[index]] not in st["turn_state"]["jokers"]

    def check_discard(self, turn: Turn, tile: str) -> str | None:
        """Refuse a joker discard (base, ×2 pairs) or a playable discard (100, 200
        pairs); the penalty stays and the refusal code is returned (RULES.md §4, D-17).
        D-27: when no rack tile is a legal discard the chosen one is accepted with its
        penalty (None is returned)."""
        st, seat = turn.st, turn.seat
        pairs = st["seats"][seat]["opened"] == "pairs"
        if tile == self.okey(st):  # a joker discard is judged by this rule alone
            code, cost = "joker_discard", base_of(st["indicator"])
        elif self.fits_table(st, tile):
            code, cost = "playable_discard", PLAYABLE_DISCARD
        else:
            return None
        turn.charge(seat, cost * (2 if pairs else 1), code)
        if all(self.discard_penalised(st, seat, other) for other in st["seats"][seat]["rack"]):
            return None
        return code

    def discard_penalised(self, pos: dict, seat: int, tile: str) -> bool:
        """A joker (not the last tile) or a tile that fits a meld."""
        return tile == self.okey(pos) or self.fits_table(pos, tile)

    def end_kind(self, st: dict, finisher, final_discard, direct) -> str:
        """``direct`` (D-13) before the okey51 labels."""
        if finisher is not None and direct:
            return "direct"
        return super().end_kind(st, finisher, final_discard, direct)

    def score(self, options, seats, finisher, indicator=None, final_discard=None, direct=False) -> list[int]:
        """End-of-round amounts (RULES.md §4 "Ending", D-13, D-14).

        Finisher −base ÷ 10; opened opponent 10 × tiles left; unopened opponent base;
        ×2 on a player's amount if they opened with pairs; ×2 on every amount if the
        final discard is a real joker.  ``direct``: every opponent pays base × 4 with
        no other factor (the finisher keeps its factors).  ``finisher`` None (pile
        empty, D-14): everyone pays as an opponent.  Requires ``indicator``.
        """
        if not indicator:
            raise ValueError("okey17 scoring needs the indicator")
        okey = okey_of(indicator)
        base = BASES[okey[0]]
        joker = 2 if finisher is not None and final_discard == okey else 1
        out = []
        for s, seat in enumerate(seats):
            pairs = 2 if seat["opened"] == "pairs" else 1
            if s == finisher:
                out.append(-(base // 10) * pairs * joker)
            elif finisher is not None and direct:
                out.append(base * DIRECT_FACTOR)
            elif seat["opened"] == "no":
                out.append(base * joker)
            else:
                out.append(10 * len(seat["rack"]) * pairs * joker)
        return out

    def view(self, pos: dict, seat: int | None) -> dict:
        """The shared okey view plus ``pairs_threshold`` (docs/engine-api.md)."""
        v = super().view(pos, seat)
        v["pairs_threshold"] = v["threshold"] and self.pairs_threshold(pos)
        return v


OKEY17 = Okey17()
"""The okey17 ruleset object (registered in ``RULESETS``)."""
