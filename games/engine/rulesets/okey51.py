"""``okey51``: 101-style Okey — open at 51 with the doubling chain, add to anyone's
melds for penalties, penalty tiles, pairs opening, −500/−1000 endings (RULES.md §3).

The class holds every okey51 fact and rule decision; the shared okey rules are in
``okey.py``.
"""
from __future__ import annotations

from ..melds import MeldRules
from ..tiles import okey_of, parse_face
from .okey import OkeyRuleset, Turn

BASE_THRESHOLD = 51
"""Points of a meld opening without an earlier one (RULES.md §3)."""
MIN_PAIRS = 5
"""Pairs needed in a pairs opening (RULES.md §3)."""
TAKEN_FACTOR = 10
"""Penalty for the seat whose discard was taken: value × 10 (RULES.md §3)."""
ADD_FACTOR = 10
"""Owner's penalty per add: value × 10 (RULES.md §3)."""
SWAP_BASE = 100
"""Owner's penalty per swap: 100 + value × 10 (RULES.md §3)."""
PENALTY_TILE = 100
"""Cost of discarding a tile that fits a meld on the table (RULES.md §3, D-17)."""


class Okey51(OkeyRuleset):
    """RULES.md §3 on the shared okey base."""

    id, name = "okey51", "Okey 51"
    option_keys = ("doubling", "teams", "rounds")
    meld_rules = MeldRules("okey51", ace_high=True, pairs=True, descending=False, joker_wild=False, points="sum")
    take_then = ("open", "meld", "add")  # D-18
    pairs_may_add = False  # D-7
    pairs_may_swap = False

    def normalize_options(self, options: dict | None) -> dict:
        """``{doubling: bool = True, teams: bool = False, rounds: 1|3 = 1}`` (RULES.md §6, §7).
        Unknown keys are kept as they are.  ValueError on a bad value."""
        out = dict(options or {})
        out.setdefault("doubling", True)
        out.setdefault("teams", False)
        out.setdefault("rounds", 1)
        if not isinstance(out["doubling"], bool) or not isinstance(out["teams"], bool):
            raise ValueError("doubling and teams are booleans")
        if out["rounds"] not in (1, 3) or isinstance(out["rounds"], bool):
            raise ValueError("okey51 plays 1 or 3 rounds")
        return out

    def team_totals(self, options: dict | None, totals: list[int]) -> list[int] | None:
        """Team play (RULES.md §3): ``[seat0 + seat2, seat1 + seat3]``, lowest wins; None
        when the table is not played in teams."""
        if not self.normalize_options(options).get("teams") or len(totals) != 4:
            return None
        return [totals[0] + totals[2], totals[1] + totals[3]]

    def threshold(self, pos: dict) -> int:
        """max(51, highest opening + 1) with doubling, else 51 (RULES.md §3, D-21)."""
        hi = pos.get("highest_opening")
        if pos["options"].get("doubling", True) and hi is not None:
            return max(BASE_THRESHOLD, hi + 1)
        return BASE_THRESHOLD

    def opening_rules(self) -> dict:
        """Open at 51 meld points (more with doubling, D-21), or with at least 5 pairs."""
        return {"threshold": BASE_THRESHOLD, "pairs": {"count": MIN_PAIRS}}

    def pairs_open(self, st: dict, points: int, count: int) -> bool:
        """At least 5 pairs; no points threshold, no doubling chain (RULES.md §3)."""
        return count >= MIN_PAIRS

    def charge_taken(self, turn: Turn, discarder: int, value: int) -> None:
        """The discarder gets value × 10 (a wild: the value it represents where used;
        both okeys placed: the higher, D-24)."""
        turn.charge(discarder, value * TAKEN_FACTOR, "discard_taken")

    def charge_add(self, turn: Turn, owner: int, written: str, wild: bool) -> None:
        """The owner gets value × 10, unless the owner is the actor or partner."""
        if not self.free_of_charge(turn.st, turn.seat, owner):
            turn.charge(owner, self.value_of(turn.st, written) * ADD_FACTOR, "add")

    def charge_swap(self, turn: Turn, owner: int, value: int) -> None:
        """The owner gets 100 + value × 10 (``B8`` given, okey taken: +180)."""
        if not self.free_of_charge(turn.st, turn.seat, owner):
            turn.charge(owner, SWAP_BASE + value * ADD_FACTOR, "swap")

    def check_discard(self, turn: Turn, tile: str) -> None:
        """Penalty tile: +100 when the tile fits a meld on the table; the discard
        stands (RULES.md §3, D-17).  The round-ending discard never gets here."""
        if self.fits_table(turn.st, tile):
            turn.charge(turn.seat, PENALTY_TILE, "penalty_tile")

    def score(self, options, seats, finisher, indicator=None, final_discard=None, direct=False) -> list[int]:
        """End-of-round amounts (RULES.md §3 table, D-9, D-10, D-20).

        ``seats``: ``[{"rack": [...], "opened": "no"|"melds"|"pairs"}]``; ``finisher``:
        seat or None (pile empty: a draw).  Finisher −500, or −1000 when they opened
        with pairs or the final discard is a wild (both: still −1000).  Opened
        opponents pay rack values × 5 (× 10 in a big end; a pairs player always × 10);
        each wild in their rack is left out and adds a flat 500 (melds) / 1000
        (pairs).  Unopened opponents pay 500 (1000 in a big end).  ``F`` counts its
        identity.  Returns points per seat (positive = against).
        """
        okey = okey_of(indicator) if indicator else None
        false_value = parse_face(okey).number if okey else 0
        big = finisher is not None and (
            seats[finisher]["opened"] == "pairs" or (final_discard is not None and final_discard == okey)
        )
        out = []
        for s, seat in enumerate(seats):
            if s == finisher:
                out.append(-1000 if big else -500)
                continue
            if seat["opened"] == "no":
                out.append(1000 if big else 500)
                continue
            pairs = seat["opened"] == "pairs"
            factor = 10 if (big or pairs) else 5
            total, flat = 0, 0
            for t in seat["rack"]:
                if t == okey:
                    flat += 1000 if pairs else 500
                elif t == "F":
                    total += false_value
                else:
                    total += parse_face(t).number
            out.append(total * factor + flat)
        return out


OKEY51 = Okey51()
"""The okey51 ruleset object (registered in ``RULESETS``)."""
