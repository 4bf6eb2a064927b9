"""The okey rules shared by okey51 and okey17 (RULES.md §1, §3, §4, §7): the class
:class:`OkeyRuleset`.

It holds what the two rulesets share — the deal, the turn (draw, or take the previous
seat's discard; the table actions open, meld, add and swap; one discard), keeping one
tile, the round's end, the per-seat view and the assisted table's penalised tiles — and
calls hooks for what differs.  ``okey51.py`` and ``okey17.py`` subclass it and set the
rule parameters as class attributes, so a rule decision lives in one place.  The moves a
seat can make (legal actions, the assisted one-tap add) are in ``okey_moves.py``, free
functions taking the ruleset object, as for rami (``rami_moves.py``).

An action is played on a :class:`Turn` (a working copy of the position); each rule raises
:class:`~games.engine.errors.Refused` at the first broken rule in RULES.md §7 order and
charges its penalties on the Turn through the ruleset's ``charge_*`` hooks.

Positions are JSON-shaped dicts (RULES.md §7 plus the extra keys of docs/engine-api.md).
:meth:`OkeyRuleset.step` never mutates its input: it plays on a copy of the parts it changes.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Iterator

from .. import fairdeal
from ..actions import action_problem
from ..errors import Refused
from ..melds import GROUP, Meld, MeldRules, add_tile, can_grow, classify, extensions, tile_face
from ..step import Penalty, Step
from ..tiles import okey_of, physical, split_wild
from . import okey_moves
from .base import Ruleset


class Turn:
    """An action under way.

    - ``st``: the working copy of the position (``OkeyRuleset.clone``), changed in place;
    - ``seat``: the acting seat;
    - ``tile``: the tile the action's penalties name — the taken discard in a
      ``take_discard``, else the ``tile`` of an add, swap or discard, else None;
    - ``penalties``: the :class:`~games.engine.step.Penalty` charged so far, in order.
    """

    __slots__ = ("st", "seat", "tile", "penalties")

    def __init__(self, st: dict, seat: int, tile: str | None):
        self.st = st
        self.seat = seat
        self.tile = tile
        self.penalties: list[Penalty] = []

    def charge(self, seat: int, amount: int, reason: str) -> None:
        """Add ``amount`` points to ``seat``'s running ``penalty`` and record why.

        ``reason``: one of ``step.PENALTY_REASONS``; the Penalty's ``by`` is the actor
        when the charged seat is another one.  Nothing is recorded for 0 points.
        """
        if amount <= 0:
            return
        self.st["seats"][seat]["penalty"] += amount
        self.penalties.append(Penalty(seat, amount, reason, self.tile, None if seat == self.seat else self.seat))

    @property
    def me(self) -> dict:
        """The acting seat's entry of ``st["seats"]``."""
        return self.st["seats"][self.seat]


@lru_cache(maxsize=65536)
def _classify_cached(rules: MeldRules, tiles: tuple[str, ...], indicator: str | None) -> Meld | None:
    return classify(tiles, rules, indicator)


class OkeyRuleset(Ruleset):
    """Rules shared by the okey rulesets; subclasses set the parameters and hooks.

    Parameters (class attributes): ``take_then`` (action types a ``take_discard``'s
    ``then`` may be, D-18, D-23), ``pairs_may_add`` / ``pairs_may_swap`` (what a
    pairs-opened player may do, D-7, D-19).
    """

    action_types = ("draw", "take_discard", "open", "meld", "add", "swap", "discard")
    take_then: tuple[str, ...] = ("open", "meld", "add")
    pairs_may_add = False
    pairs_may_swap = False

    # ------------------------------------------------------------------ setup
    def deal(self, options: dict | None, deal_seed: str, players: int = 4, first: int = 0) -> dict:
        """A new round's position laid out by ``okeysite-shuffle-1`` from ``deal_seed``
        (docs/fair-deals.md §4-§5; RULES.md §1, D-2).

        ``deal_seed``: 64 lowercase hex, from :func:`games.engine.fairdeal.deal_seed`;
        ``players``: 2..4 seats; ``first``: the seat that gets 15 tiles, is ``turn``
        and starts in phase ``play`` (it skips the draw).  The indicator is the
        first pile tile that is not ``F`` (D-2: redraw); it leaves play.
        Raises ValueError for bad arguments.
        """
        options = self.normalize_options(options)
        if not isinstance(players, int) or players not in self.seat_counts:
            raise ValueError("okey rulesets seat 2 to 4 players")
        if not isinstance(first, int) or not 0 <= first < players:
            raise ValueError("first must be a seat")
        if options.get("teams") and players != 4:
            raise ValueError("team play needs 4 players")
        dealt = fairdeal.layout(self.id, players, first, deal_seed)
        return {
            "ruleset": self.id, "options": options, "players": players, "first": first,
            "indicator": dealt["indicator"], "turn": first, "phase": "play", "pile": dealt["pile"],
            "discards": [[] for _ in range(players)],
            "seats": [{"rack": r, "opened": "no", "penalty": 0} for r in dealt["racks"]],
            "table": [], "highest_opening": None, "turn_state": self.new_turn_state(),
            "last_action": None, "result": None,
        }

    def new_turn_state(self) -> dict:
        """Per-turn bookkeeping at the start of a turn (docs/engine-api.md); a loaded
        position without it is at the start of its turn (D-31)."""
        return {"took": None, "opened": False}

    # ------------------------------------------------------------- helpers
    def loaded(self, pos: dict) -> dict:
        """``pos`` itself when complete, else a copy with RULES.md §7 defaults filled
        (options, discards, table, pile, highest_opening) — loaded positions may omit them."""
        opts = pos.get("options")
        if (isinstance(opts, dict) and all(k in opts for k in self.option_keys)
                and all(k in pos for k in ("discards", "table", "pile", "highest_opening"))):
            return pos
        out = dict(pos)
        out["options"] = self.normalize_options(opts)
        out.setdefault("discards", [[] for _ in pos["seats"]])
        out.setdefault("table", [])
        out.setdefault("pile", [])
        out.setdefault("highest_opening", None)
        return out

    def clone(self, pos: dict) -> dict:
        """A working copy: new containers for what actions change; tile strings and
        untouched meld dicts are shared (they are never mutated)."""
        st = dict(pos)
        st["seats"] = [{"opened": "no", "penalty": 0, **s, "rack": list(s["rack"])} for s in pos["seats"]]
        st["discards"] = [list(d) for d in pos["discards"]]
        st["table"] = list(pos["table"])
        st["turn_state"] = ts = {**self.new_turn_state(), **(pos.get("turn_state") or {})}
        for k, v in ts.items():
            if isinstance(v, list):
                ts[k] = list(v)
        st.setdefault("result", None)
        st.setdefault("players", len(pos["seats"]))
        return st

    def okey(self, pos: dict) -> str:
        """The wild tile of a position (RULES.md §1)."""
        return okey_of(pos["indicator"])

    def meld(self, pos: dict, tiles) -> Meld | None:
        """Classification of written meld tiles in this position (cached)."""
        return _classify_cached(self.meld_rules, tuple(tiles), pos.get("indicator"))

    def partner(self, pos: dict, seat: int) -> int | None:
        """The partner seat in team play (0+2, 1+3), else None (RULES.md §1)."""
        if pos["options"].get("teams") and len(pos["seats"]) == 4:
            return (seat + 2) % 4
        return None

    def free_of_charge(self, pos: dict, actor: int, owner: int) -> bool:
        """True when laying on ``owner``'s meld costs nothing: own or partner's meld."""
        return owner == actor or owner == self.partner(pos, actor)

    def threshold(self, pos: dict) -> int:
        """Points a meld opening needs now (RULES.md §3 D-21, §4 D-11)."""
        raise NotImplementedError

    def fits_table(self, pos: dict, tile: str) -> bool:
        """Whether bare ``tile`` could be added to some meld on the table (a wild:
        any meld that can still grow).  The okey51 penalty tile and the okey17
        playable discard (whatever the one-tile-per-end limit)."""
        face = None if tile == self.okey(pos) else tile_face(tile, self.meld_rules, pos["indicator"])
        for m in pos["table"]:
            c = self.meld(pos, m["tiles"])
            if c is None:
                continue
            if face is None:
                if can_grow(c, self.meld_rules):
                    return True
            elif any(f == str(face) for f, _ in extensions(c, self.meld_rules)):
                return True
        return False

    def value_of(self, pos: dict, written: str) -> int:
        """Value in points of a tile as laid: a wild's represented number, ``F`` the
        okey's number, else the number (RULES.md §1)."""
        physical, represented = split_wild(written)
        if represented is not None:
            return int(represented[1:])
        face = tile_face(physical, self.meld_rules, pos["indicator"])
        return face.number if face else 0

    # ------------------------------------------------------------- step
    def step(self, position: dict, action: dict) -> Step:
        """The :class:`~games.engine.step.Step` of ``action`` (RULES.md §3/§4, §7); the input
        is never mutated.

        Refusals follow RULES.md §7 order: ``bad_action`` (D-29), ``round_over``,
        ``not_your_turn``, then the rules of the action.  A refused okey17 playable or
        joker discard is a refused Step carrying the new position and its penalty
        (RULES.md §4).  The penalties are those the rules charged, in seat order.
        """
        if action_problem(self, position, action):
            return Step(position, False, "bad_action")
        if position.get("result"):
            return Step(position, False, "round_over")
        seat = action["seat"]
        if seat != position["turn"]:
            return Step(position, False, "not_your_turn")
        turn = Turn(self.clone(self.loaded(position)), seat, self._event_tile(position, action))
        try:
            kept = self._play(turn, action)
        except Refused as refused:
            return Step(position, False, refused.code)
        penalties = tuple(sorted(turn.penalties, key=lambda p: p.seat))
        if kept:
            return Step(turn.st, False, kept, penalties)
        turn.st["last_action"] = dict(action)
        return Step(turn.st, True, None, penalties, turn.st["result"])

    @staticmethod
    def _event_tile(position: dict, action: dict) -> str | None:
        """The tile the action's penalties name (see ``Turn.tile``)."""
        kind = action["type"]
        if kind == "take_discard":
            discards = position.get("discards") or []
            prev = (action["seat"] - 1) % len(position["seats"])
            return discards[prev][-1] if prev < len(discards) and discards[prev] else None
        return action["tile"] if kind in ("add", "swap", "discard") else None

    def _play(self, turn: Turn, action: dict) -> str | None:
        """Play ``action`` on ``turn``; returns None when accepted, or the refusal code
        whose penalty stays (okey17 discards); raises Refused otherwise."""
        kind = action["type"]
        if kind == "draw":
            self._draw(turn)
        elif kind == "take_discard":
            self._take(turn, action["then"])
        elif kind == "discard":
            return self._discard(turn, action["tile"])
        else:
            if turn.st["phase"] != "play":
                raise Refused("wrong_phase")
            self.table_action(turn, action)
            if not turn.me["rack"]:
                raise Refused("must_keep_tile")
        return None

    def _draw(self, turn: Turn) -> None:
        st = turn.st
        if st["phase"] != "draw":
            raise Refused("wrong_phase")
        if not st["pile"]:
            raise Refused("empty_pile")
        turn.me["rack"].append(st["pile"][0])
        st["pile"] = st["pile"][1:]
        st["phase"] = "play"

    def _take(self, turn: Turn, then: dict) -> None:
        st, seat = turn.st, turn.seat
        if st["phase"] != "draw":
            raise Refused("wrong_phase")
        prev = (seat - 1) % len(st["seats"])
        if not st["discards"][prev]:
            raise Refused("nothing_to_take")
        if then["type"] not in self.take_then:  # D-23: before the then's own errors
            raise Refused("discard_unused", "the taken tile must be laid in the same action")
        tile = st["discards"][prev].pop()
        rack = turn.me["rack"]
        before = rack.count(tile)
        rack.append(tile)
        st["phase"] = "play"
        st["turn_state"]["took"] = tile
        placed = self.table_action(turn, then)
        if rack.count(tile) > before:
            raise Refused("discard_unused", "the taken tile is not on the table")
        if not rack:
            raise Refused("must_keep_tile")
        # D-24: when both copies are placed (two okeys) they are indistinguishable: the higher
        value = max(self.value_of(st, w) for w in placed if split_wild(w)[0] == tile)
        self.charge_taken(turn, prev, value)

    def charge_taken(self, turn: Turn, discarder: int, value: int) -> None:
        """Penalty for the seat whose discard was taken (okey51: value × 10)."""

    def _discard(self, turn: Turn, tile: str) -> str | None:
        st, me = turn.st, turn.me
        if st["phase"] != "play":
            raise Refused("wrong_phase")
        if tile not in me["rack"]:
            raise Refused("tile_not_in_rack")
        final = len(me["rack"]) == 1
        if final and me["opened"] == "no":
            raise Refused("not_opened", "only an opened player may finish")
        if not final:
            kept = self.check_discard(turn, tile)
            if kept:
                return kept
        me["rack"].remove(tile)
        st["discards"][turn.seat].append(tile)
        if final:
            self._end(st, turn.seat, tile)
            return None
        st["turn"] = (turn.seat + 1) % len(st["seats"])
        st["phase"] = "draw"
        st["turn_state"] = self.new_turn_state()
        if not st["pile"]:  # D-10 / D-14: the next turn starts with an empty pile
            self._end(st, None, None)
        return None

    def check_discard(self, turn: Turn, tile: str) -> str | None:
        """Penalty tile (okey51) or refused playable/joker discard (okey17): returns the
        refusal code whose penalty stays, or None when the discard goes on."""
        return None

    def _end(self, st: dict, finisher: int | None, final_discard: str | None) -> None:
        seats = [{"rack": s["rack"], "opened": s["opened"]} for s in st["seats"]]
        direct = bool(finisher is not None and st["turn_state"].get("opened"))
        st["result"] = {
            "finisher": finisher,
            "end": self.end_kind(st, finisher, final_discard, direct),
            "scores": self.score(st["options"], seats, finisher, st["indicator"], final_discard, direct),
            "final_discard": final_discard,
            "racks": [list(s["rack"]) for s in st["seats"]],
        }

    def end_kind(self, st: dict, finisher, final_discard, direct) -> str:
        """Label of the round's end: hand/pairs/okey/draw/direct."""
        if finisher is None:
            return "draw"
        if st["seats"][finisher]["opened"] == "pairs":
            return "pairs"
        if final_discard == self.okey(st):
            return "okey"
        return "hand"

    # ------------------------------------------------------- table actions


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

    def _reach_meld(self, turn: Turn, meld_id: int, tile: str, pairs_may: bool) -> int | None:
        # What an add and a swap check first, in this order: the tile leaves the actor's
        # rack, the actor has opened (with pairs only where `pairs_may`); returns the meld's
        # index in the table, None when there is no such meld.
        me = turn.me
        self.take_from_rack(me["rack"], [tile])
        if me["opened"] == "no":
            raise Refused("not_opened")
        if me["opened"] == "pairs" and not pairs_may:
            raise Refused("pairs_only")
        return self.find(turn.st, meld_id)

    def _add(self, turn: Turn, meld_id: int, tile: str) -> list[str]:
        st = turn.st
        i = self._reach_meld(turn, meld_id, tile, self.pairs_may_add)
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
        i = self._reach_meld(turn, meld_id, tile, self.pairs_may_swap)
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

    # ------------------------------------------------------------- queries

    def view(self, pos: dict, seat: int | None) -> dict:
        """What ``seat`` may see (None: a spectator); never another rack nor the pile
        (docs/engine-api.md "The view", ARCHITECTURE.md invariant 3)."""
        pos = self.loaded(pos)
        seats = pos["seats"]
        me = seats[seat] if seat is not None else None
        return {
            "ruleset": self.id,
            "options": dict(pos["options"]),
            "seat": seat,
            "turn": pos["turn"],
            "phase": pos["phase"],
            "rack": list(me["rack"]) if me else [],
            "rack_counts": [len(s["rack"]) for s in seats],
            "pile_count": len(pos["pile"]),
            "discards": [list(d) for d in pos["discards"]],
            "table": [dict(m, tiles=list(m["tiles"])) for m in pos["table"]],
            "indicator": pos["indicator"],
            "okey": self.okey(pos),
            "opened": [s.get("opened", "no") for s in seats],
            "penalty": [s.get("penalty", 0) for s in seats],
            "highest_opening": pos.get("highest_opening"),
            "threshold": self.threshold(pos) if me and me.get("opened", "no") == "no" else None,
            "turn_state": dict(pos.get("turn_state") or self.new_turn_state()),
            "last_action": dict(pos["last_action"]) if pos.get("last_action") else None,
            "result": pos.get("result"),
        }

    def penalty_tiles(self, pos: dict, seat: int) -> list[str]:
        """Rack tiles of ``seat`` whose discard now would be penalised (assisted table,
        RULES.md §6); empty when the discard would end the round (exempt)."""
        pos = self.loaded(pos)
        rack = pos["seats"][seat]["rack"]
        if len(rack) <= 1 or pos.get("result"):
            return []
        return [t for t in dict.fromkeys(rack) if self.discard_penalised(pos, seat, t)]

    def discard_penalised(self, pos: dict, seat: int, tile: str) -> bool:
        """Whether discarding ``tile`` (not the last) is penalised: it fits the table."""
        return self.fits_table(pos, tile)

    def add_targets(self, pos: dict, seat: int, tile: str) -> list[int]:
        """Ids of table melds ``tile`` can be added to by ``seat`` now (the assisted
        one-tap add, RULES.md §6); see :func:`okey_moves.add_targets`."""
        return okey_moves.add_targets(self, pos, seat, tile)

    def legal_actions(self, pos: dict, seat: int) -> Iterator[dict]:
        """The legal actions of ``seat`` now (RULES.md §7 dicts with ``seat``); see
        :func:`okey_moves.legal_actions` for what is complete and what is bounded."""
        return okey_moves.legal_actions(self, pos, seat)
