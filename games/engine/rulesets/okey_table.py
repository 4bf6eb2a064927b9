"""The okey table actions — open, meld, add, swap (RULES.md §3, §4, §7) — as a part of
:class:`~games.engine.rulesets.okey_base.OkeyRuleset`.

Each action works on a :class:`~games.engine.rulesets.okey_turn.Turn` (a working copy),
raises :class:`~games.engine.errors.Refused` at the first broken rule in RULES.md §7
order, and charges its penalties through the ruleset's ``charge_*`` hooks.  The hooks
and parameters that differ between okey51 and okey17 are the ruleset's own.
"""
from __future__ import annotations

from collections import Counter

from ..errors import Refused
from ..melds import GROUP, Meld, add_tile, tile_face
from ..tiles import split_wild
from .okey_turn import Turn, physical


class OkeyTableActions:
    """Open, meld, add and swap.  Parameters: ``pairs_may_add`` / ``pairs_may_swap``
    (what a pairs-opened player may do, D-7, D-19)."""

    pairs_may_add = False
    pairs_may_swap = False

    def table_action(self, turn: Turn, action: dict) -> list[str]:
        """Play an open/meld/add/swap on ``turn``; returns the written tiles placed.
        Any other type is ``discard_unused`` (only a ``take_discard``'s ``then`` gets here
        with one, D-23)."""
        kind = action["type"]
        if kind == "open":
            return self._open(turn, action["melds"])
        if kind == "meld":
            return self._meld(turn, action)
        if kind == "add":
            return self._add(turn, action["meld"], action["tile"])
        if kind == "swap":
            return self._swap(turn, action["meld"], action["tile"])
        raise Refused("discard_unused", "not a table action")

    @staticmethod
    def take_from_rack(rack: list[str], written: list[str]) -> None:
        """Remove the physical tiles of ``written`` from ``rack``, or refuse tile_not_in_rack."""
        need = Counter(physical(w) for w in written)
        have = Counter(rack)
        if any(have[t] < c for t, c in need.items()):
            raise Refused("tile_not_in_rack")
        for w in written:
            rack.remove(physical(w))

    def place(self, st: dict, owner: int, meld: Meld) -> int:
        """Put a new meld (stored order, D-5) on the table under ``owner``; returns its id
        (highest id + 1, RULES.md §7)."""
        mid = max((m["id"] for m in st["table"]), default=0) + 1
        st["table"].append({"id": mid, "owner": owner, "tiles": list(meld.tiles)})
        self.after_lay(st, mid, list(meld.tiles), None)
        return mid

    def after_lay(self, st: dict, meld_id: int, laid: list[str], end: str | None) -> None:
        """Hook after written tiles ``laid`` went on meld ``meld_id``: a new meld
        (``end`` None) or an add at ``end`` (``"low"``/``"high"``/``"group"``)."""

    # ----- open
    def _open(self, turn: Turn, melds: list[list[str]]) -> list[str]:
        st, me = turn.st, turn.me
        if me["opened"] != "no":
            raise Refused("wrong_phase", "already opened: lay with meld")
        written = [t for m in melds for t in m]
        self.take_from_rack(me["rack"], written)
        pairs = [len(m) == 2 for m in melds]
        if any(len(m) < 2 for m in melds) or (any(pairs) and not all(pairs)):
            raise Refused("invalid_meld", "an opening is all pairs or all runs/groups")
        read = [self.meld(st, m) for m in melds]
        if any(r is None for r in read):
            raise Refused("invalid_meld")
        total = sum(r.points for r in read)
        if melds and all(pairs):
            if not self.pairs_open(st, total, len(read)):
                raise Refused("below_threshold", f"{len(read)} pairs, {total} points")
            me["opened"] = "pairs"
        else:  # D-28: no melds at all is below the threshold
            if total < self.threshold(st):
                raise Refused("below_threshold", f"{total} points")
            me["opened"] = "melds"
            hi = st.get("highest_opening")
            st["highest_opening"] = total if hi is None else max(hi, total)
        for r in read:
            self.place(st, turn.seat, r)
        st["turn_state"]["opened"] = True
        return written

    def pairs_open(self, st: dict, points: int, count: int) -> bool:
        """Whether ``count`` pairs worth ``points`` open now (ruleset-specific)."""
        raise NotImplementedError

    # ----- meld
    def _meld(self, turn: Turn, action: dict) -> list[str]:
        tiles = action["tiles"]
        self.take_from_rack(turn.me["rack"], tiles)
        if turn.me["opened"] == "no":
            raise Refused("not_opened")
        owner = self.meld_owner(turn.st, turn.seat, action, tiles)
        read = self.meld(turn.st, tiles) if len(tiles) >= 2 else None
        if read is None:
            raise Refused("invalid_meld")
        self.place(turn.st, owner, read)
        if owner != turn.seat:
            self.charge_pair_in_area(turn, owner, read)
        return list(tiles)

    def meld_owner(self, st: dict, seat: int, action: dict, tiles: list) -> int:
        """Who may lay this shape (RULES.md §3, D-7); returns the meld's owner.  An
        ``owner`` other than the actor was refused as ``bad_action`` before (D-29)."""
        opened = st["seats"][seat]["opened"]
        if opened == "pairs" and len(tiles) != 2:
            raise Refused("pairs_only")
        if opened == "melds" and len(tiles) == 2:
            raise Refused("melds_only")
        return seat

    def charge_pair_in_area(self, turn: Turn, owner: int, meld: Meld) -> None:
        """okey17 D-12 hook."""

    # ----- add
    @staticmethod
    def find(st: dict, meld_id: int) -> int | None:
        """Index in ``st["table"]`` of the meld with id ``meld_id``, or None."""
        for i, m in enumerate(st["table"]):
            if m["id"] == meld_id:
                return i
        return None

    def _add(self, turn: Turn, meld_id: int, tile: str) -> list[str]:
        st, me = turn.st, turn.me
        self.take_from_rack(me["rack"], [tile])
        if me["opened"] == "no":
            raise Refused("not_opened")
        if me["opened"] == "pairs" and not self.pairs_may_add:
            raise Refused("pairs_only")
        i = self.find(st, meld_id)
        if i is None:
            raise Refused("cannot_add", "no such meld")
        entry = st["table"][i]
        old = self.meld(st, entry["tiles"])
        new = add_tile(old, tile, self.meld_rules, st["indicator"]) if old else None
        if new is None:
            raise Refused("cannot_add")
        end = "group" if new.type == GROUP else ("low" if new.low < old.low else "high")
        self.check_growth(st, entry["id"], end)
        st["table"][i] = dict(entry, tiles=list(new.tiles))
        self.after_lay(st, entry["id"], [tile], end)
        self.charge_add(turn, entry["owner"], tile, physical(tile) == self.okey(st))
        return [tile]

    def check_growth(self, st: dict, meld_id: int, end: str) -> None:
        """okey17 one-tile-per-end hook; refuse cannot_add."""

    def charge_add(self, turn: Turn, owner: int, written: str, wild: bool) -> None:
        """Penalty for the owner of a meld grown by the actor (ruleset-specific)."""

    # ----- swap
    def _swap(self, turn: Turn, meld_id: int, tile: str) -> list[str]:
        st, me = turn.st, turn.me
        self.take_from_rack(me["rack"], [tile])
        if me["opened"] == "no":
            raise Refused("not_opened")
        if me["opened"] == "pairs" and not self.pairs_may_swap:
            raise Refused("pairs_only")
        i = self.find(st, meld_id)
        face = None if tile == self.okey(st) else tile_face(tile, self.meld_rules, st["indicator"])
        if i is None or face is None:
            raise Refused("cannot_swap")
        entry = st["table"][i]
        m = self.meld(st, entry["tiles"])
        # D-25: any wild standing for the tile, bare or written, may be swapped out
        j = next((j for j, f in enumerate(m.faces) if m.wild[j] and f == str(face)
                  and self.may_swap(st, entry, m, j)), None) if m else None
        if j is None:
            raise Refused("cannot_swap")
        tiles = list(m.tiles)
        tiles[j] = tile
        st["table"][i] = dict(entry, tiles=tiles)
        me["rack"].append(split_wild(m.tiles[j])[0])
        self.charge_swap(turn, entry["owner"], face.number)
        return [tile]

    def may_swap(self, st: dict, entry: dict, meld: Meld, index: int) -> bool:
        """okey17 hook: a joker laid this turn, or a group's joker with another wild, stays."""
        return True

    def charge_swap(self, turn: Turn, owner: int, value: int) -> None:
        """Penalty for the owner of a meld whose wild the actor took (ruleset-specific)."""
