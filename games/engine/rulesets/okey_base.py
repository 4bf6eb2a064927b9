"""The shared engine of the okey rulesets (RULES.md §1, §3, §4, §7).

:class:`OkeyRuleset` holds everything okey51 and okey17 share — the deal, the
turn (draw or take the previous seat's discard, table actions, one discard),
opening, laying, adding, swapping, keeping one tile, the round's end, the view —
and calls hooks for what differs.  ``okey51.py`` and ``okey17.py`` subclass it
and set the rule parameters as class attributes, so a rule decision lives in
one place.

Positions are JSON-shaped dicts (RULES.md §7 plus the extra keys of
docs/engine-api.md).  :meth:`OkeyRuleset.apply` never mutates its input: it
copies the parts it changes.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from ..errors import IllegalAction
from ..melds import GROUP, Meld, MeldRules, add_tile, can_grow, classify, extensions, rules_for, tile_face
from ..tiles import FALSE_JOKER, full_set, okey_of, split_wild

ACTIONS = ("draw", "take_discard", "open", "meld", "add", "swap", "discard")


@lru_cache(maxsize=65536)
def _classify_cached(ruleset: str, tiles: tuple[str, ...], indicator: str | None) -> Meld | None:
    return classify(tiles, ruleset, indicator)


def _physical(text: object) -> str | None:
    """The physical part of a written tile (``"R6=B5"`` -> ``"R6"``); None if not a string."""
    if not isinstance(text, str):
        return None
    return text.partition("=")[0]


def _fail(code: str, detail: str = "") -> IllegalAction:
    return IllegalAction(code, detail)


class OkeyRuleset:
    """Rules shared by the okey rulesets; subclasses set the parameters and hooks.

    Parameters (class attributes):
    ``name``; ``base_threshold`` (points of the first meld opening);
    ``take_then`` (action types allowed as a ``take_discard``'s ``then``);
    ``pairs_may_add`` / ``pairs_may_swap`` (what a pairs-opened player may do).
    """

    name = "okey"
    option_keys: tuple[str, ...] = ()
    base_threshold = 51
    take_then: tuple[str, ...] = ("open", "meld", "add")
    pairs_may_add = False
    pairs_may_swap = False

    # ------------------------------------------------------------------ setup
    @property
    def rules(self) -> MeldRules:
        """This ruleset's :class:`MeldRules`."""
        return rules_for(self.name)

    def normalize_options(self, options: dict | None) -> dict:
        """Options with defaults filled (RULES.md §7); ValueError on bad values."""
        raise NotImplementedError

    def deal(self, options: dict, seed: str, players: int = 4, first: int = 0) -> dict:
        """A new round's position, dealt from ``random.Random(seed)`` (RULES.md §1, D-2).

        ``players``: 2..4 seats; ``first``: the seat that gets 15 tiles, is ``turn``
        and starts in phase ``play`` (it skips the draw).  The indicator is the
        first pile tile that is not ``F`` (D-2: redraw); it leaves play.
        Raises ValueError for bad arguments.
        """
        options = self.normalize_options(options)
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise ValueError("okey rulesets seat 2 to 4 players")
        if not isinstance(first, int) or not 0 <= first < players:
            raise ValueError("first must be a seat")
        if options.get("teams") and players != 4:
            raise ValueError("team play needs 4 players")
        rng = random.Random(seed)
        tiles = full_set(self.name)
        rng.shuffle(tiles)
        racks: list[list[str]] = [[] for _ in range(players)]
        pos = 0
        for k in range(players):
            s = (first + k) % players
            count = 15 if s == first else 14
            racks[s] = tiles[pos:pos + count]
            pos += count
        pile = tiles[pos:]
        i = next(j for j, t in enumerate(pile) if t != FALSE_JOKER)
        indicator = pile[i]
        pile = pile[:i] + pile[i + 1:]
        return {
            "ruleset": self.name,
            "options": options,
            "players": players,
            "first": first,
            "indicator": indicator,
            "turn": first,
            "phase": "play",
            "pile": pile,
            "discards": [[] for _ in range(players)],
            "seats": [{"rack": r, "opened": "no", "penalty": 0} for r in racks],
            "table": [],
            "highest_opening": None,
            "turn_state": self.new_turn_state(),
            "last_action": None,
            "result": None,
        }

    def new_turn_state(self) -> dict:
        """Per-turn bookkeeping at the start of a turn (docs/engine-api.md)."""
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

    def okey(self, pos: dict) -> str:
        """The wild tile of a position (RULES.md §1)."""
        return okey_of(pos["indicator"])

    def meld(self, pos: dict, tiles) -> Meld | None:
        """Classification of written meld tiles in this position (cached)."""
        return _classify_cached(self.name, tuple(tiles), pos.get("indicator"))

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
        okey = self.okey(pos)
        face = None if tile == okey else tile_face(tile, self.rules, pos["indicator"])
        for m in pos["table"]:
            c = self.meld(pos, m["tiles"])
            if c is None:
                continue
            if face is None:
                if can_grow(c, self.rules):
                    return True
            elif any(f == str(face) for f, _ in extensions(c, self.rules)):
                return True
        return False

    def value_of(self, pos: dict, written: str) -> int:
        """Value in points of a tile as laid: a wild's represented number, ``F`` the
        okey's number, else the number (RULES.md §1)."""
        physical, represented = split_wild(written)
        if represented is not None:
            return int(represented[1:])
        face = tile_face(physical, self.rules, pos["indicator"])
        return face.number if face else 0

    # ------------------------------------------------------------- apply
    def apply(self, position: dict, action: dict) -> dict:
        """The position after ``action`` (RULES.md §3/§4, §7); the input is not mutated.

        Raises :class:`IllegalAction` with the first broken rule in RULES.md §7
        order; ``bad_action`` for a malformed or unknown action.
        """
        if not isinstance(action, dict):
            raise _fail("bad_action", "action must be an object")
        if position.get("result"):
            raise _fail("round_over")
        seat, kind = action.get("seat"), action.get("type")
        if type(seat) is not int or not 0 <= seat < len(position["seats"]):
            raise _fail("bad_action", "seat must be a seat number")
        if seat != position["turn"]:
            raise _fail("not_your_turn")
        if kind not in ACTIONS:
            raise _fail("bad_action", f"unknown action type {kind!r}")
        st = self._clone(self.loaded(position))
        if kind == "draw":
            self._draw(st, seat)
        elif kind == "take_discard":
            self._take(st, seat, action)
        elif kind == "discard":
            self._discard(position, st, seat, action)
        else:
            if st["phase"] != "play":
                raise _fail("wrong_phase")
            self._table_action(st, seat, action)
            if not st["seats"][seat]["rack"]:
                raise _fail("must_keep_tile")
        st["last_action"] = self._public_action(action)
        return st

    def _public_action(self, action: dict) -> dict:
        return {k: v for k, v in action.items()}

    def _clone(self, pos: dict) -> dict:
        """A working copy: new containers for what actions change; tile strings and
        untouched meld dicts are shared (they are never mutated)."""
        st = dict(pos)
        st["options"] = pos["options"]
        st["seats"] = [{"opened": "no", "penalty": 0, **s, "rack": list(s["rack"])} for s in pos["seats"]]
        st["discards"] = [list(d) for d in pos["discards"]]
        st["table"] = list(pos["table"])
        st["turn_state"] = dict(pos.get("turn_state") or self.new_turn_state())
        for k, v in self.new_turn_state().items():
            st["turn_state"].setdefault(k, v)
            if isinstance(st["turn_state"][k], list):
                st["turn_state"][k] = list(st["turn_state"][k])
        st.setdefault("result", None)
        st.setdefault("players", len(pos["seats"]))
        return st

    def _draw(self, st: dict, seat: int) -> None:
        if st["phase"] != "draw":
            raise _fail("wrong_phase")
        if not st["pile"]:
            raise _fail("empty_pile")
        st["seats"][seat]["rack"].append(st["pile"][0])
        st["pile"] = st["pile"][1:]
        st["phase"] = "play"

    def _take(self, st: dict, seat: int, action: dict) -> None:
        if st["phase"] != "draw":
            raise _fail("wrong_phase")
        prev = (seat - 1) % len(st["seats"])
        if not st["discards"][prev]:
            raise _fail("nothing_to_take")
        then = action.get("then")
        if not isinstance(then, dict) or then.get("type") not in self.take_then:
            raise _fail("discard_unused", "the taken tile must be laid in the same action")
        tile = st["discards"][prev].pop()
        rack = st["seats"][seat]["rack"]
        before = rack.count(tile)
        rack.append(tile)
        st["phase"] = "play"
        st["turn_state"]["took"] = tile
        placed = self._table_action(st, seat, dict(then, seat=seat))
        if rack.count(tile) > before:
            raise _fail("discard_unused", "the taken tile is not on the table")
        if not rack:
            raise _fail("must_keep_tile")
        written = next((w for w in placed if _physical(w) == tile), tile)
        self.charge_taken(st, prev, seat, self.value_of(st, written))

    def charge_taken(self, st: dict, discarder: int, taker: int, value: int) -> None:
        """Penalty for the seat whose discard was taken (okey51: value × 10)."""

    def _table_action(self, st: dict, seat: int, action: dict) -> list[str]:
        """Run an open/meld/add/swap on ``st``; returns the written tiles placed."""
        kind = action.get("type")
        if kind == "open":
            return self._open(st, seat, action)
        if kind == "meld":
            return self._meld(st, seat, action)
        if kind == "add":
            return self._add(st, seat, action)
        if kind == "swap":
            return self._swap(st, seat, action)
        raise _fail("bad_action", "not a table action")

    @staticmethod
    def _take_from_rack(rack: list[str], written: list[str]) -> None:
        """Remove the physical tiles of ``written`` from ``rack`` or raise tile_not_in_rack."""
        need = Counter(_physical(w) for w in written)
        have = Counter(rack)
        if None in need or any(have[t] < c for t, c in need.items()):
            raise _fail("tile_not_in_rack")
        for w in written:
            rack.remove(_physical(w))

    def _next_id(self, st: dict) -> int:
        return max((m["id"] for m in st["table"]), default=0) + 1

    def _place(self, st: dict, owner: int, meld: Meld) -> int:
        mid = self._next_id(st)
        st["table"].append({"id": mid, "owner": owner, "tiles": list(meld.tiles)})
        self.after_lay(st, mid, list(meld.tiles), None)
        return mid

    def after_lay(self, st: dict, meld_id: int, laid: list[str], end: str | None) -> None:
        """Hook after written tiles ``laid`` went on meld ``meld_id``: a new meld
        (``end`` None) or an add at ``end`` (``"low"``/``"high"``/``"group"``)."""

    # ----- open
    def _open(self, st: dict, seat: int, action: dict) -> list[str]:
        me = st["seats"][seat]
        if me["opened"] != "no":
            raise _fail("wrong_phase", "already opened: lay with meld")
        melds = action.get("melds")
        if not isinstance(melds, list) or not all(isinstance(m, list) for m in melds):
            raise _fail("bad_action", "melds must be a list of lists")
        written = [t for m in melds for t in m]
        self._take_from_rack(me["rack"], written)
        if any(len(m) < 2 for m in melds):
            raise _fail("invalid_meld")
        pairs = [len(m) == 2 for m in melds]
        if any(pairs) and not all(pairs):
            raise _fail("invalid_meld", "an opening is all pairs or all runs/groups")
        read = [self.meld(st, m) for m in melds]
        if any(r is None for r in read):
            raise _fail("invalid_meld")
        total = sum(r.points for r in read)
        if melds and all(pairs):
            self.check_pairs_opening(st, read)
            me["opened"] = "pairs"
        else:
            if total < self.threshold(st):
                raise _fail("below_threshold", f"{total} points")
            me["opened"] = "melds"
            hi = st.get("highest_opening")
            st["highest_opening"] = total if hi is None else max(hi, total)
        for r in read:
            self._place(st, seat, r)
        st["turn_state"]["opened"] = True
        return written

    def check_pairs_opening(self, st: dict, pairs: list[Meld]) -> None:
        """Raise below_threshold when ``pairs`` do not open (ruleset-specific)."""
        raise NotImplementedError

    # ----- meld
    def _meld(self, st: dict, seat: int, action: dict) -> list[str]:
        me = st["seats"][seat]
        tiles = action.get("tiles")
        if not isinstance(tiles, list):
            raise _fail("bad_action", "tiles must be a list")
        self._take_from_rack(me["rack"], tiles)
        if me["opened"] == "no":
            raise _fail("not_opened")
        owner = self.meld_owner(st, seat, action, tiles)
        if len(tiles) < 2:
            raise _fail("invalid_meld")
        read = self.meld(st, tiles)
        if read is None:
            raise _fail("invalid_meld")
        self._place(st, owner, read)
        if owner != seat:
            self.charge_pair_in_area(st, seat, owner, read)
        return list(tiles)

    def meld_owner(self, st: dict, seat: int, action: dict, tiles: list) -> int:
        """Check who may lay this shape and return the meld's owner (RULES.md §3, D-7)."""
        me = st["seats"][seat]
        owner = seat if action.get("owner") is None else action["owner"]  # null = the actor (§7)
        if owner != seat:
            raise _fail("bad_action", "owner is only for okey17 pairs")
        if me["opened"] == "pairs" and len(tiles) != 2:
            raise _fail("pairs_only")
        if me["opened"] == "melds" and len(tiles) == 2:
            raise _fail("melds_only")
        return seat

    def charge_pair_in_area(self, st: dict, seat: int, owner: int, meld: Meld) -> None:
        """okey17 D-12 hook."""

    # ----- add
    def _find(self, st: dict, meld_id) -> int | None:
        if type(meld_id) is not int:
            return None
        for i, m in enumerate(st["table"]):
            if m["id"] == meld_id:
                return i
        return None

    def _add(self, st: dict, seat: int, action: dict) -> list[str]:
        me = st["seats"][seat]
        tile = action.get("tile")
        self._take_from_rack(me["rack"], [tile])
        if me["opened"] == "no":
            raise _fail("not_opened")
        if me["opened"] == "pairs" and not self.pairs_may_add:
            raise _fail("pairs_only")
        i = self._find(st, action.get("meld"))
        if i is None:
            raise _fail("cannot_add", "no such meld")
        entry = st["table"][i]
        old = self.meld(st, entry["tiles"])
        new = add_tile(old, tile, self.rules, st["indicator"]) if old else None
        if new is None:
            raise _fail("cannot_add")
        end = "group" if new.type == GROUP else ("low" if new.low < old.low else "high")
        self.check_growth(st, entry["id"], end)
        st["table"][i] = dict(entry, tiles=list(new.tiles))
        self.after_lay(st, entry["id"], [tile], end)
        self.charge_add(st, seat, entry["owner"], tile, _physical(tile) == self.okey(st))
        return [tile]

    def check_growth(self, st: dict, meld_id: int, end: str) -> None:
        """okey17 one-tile-per-end hook; raise cannot_add to refuse."""

    def charge_add(self, st: dict, actor: int, owner: int, written: str, wild: bool) -> None:
        """Penalty for the owner of a meld grown by ``actor`` (ruleset-specific)."""

    # ----- swap
    def _swap(self, st: dict, seat: int, action: dict) -> list[str]:
        me = st["seats"][seat]
        tile = action.get("tile")
        self._take_from_rack(me["rack"], [tile])
        if me["opened"] == "no":
            raise _fail("not_opened")
        if me["opened"] == "pairs" and not self.pairs_may_swap:
            raise _fail("pairs_only")
        i = self._find(st, action.get("meld"))
        if i is None or "=" in tile or tile == self.okey(st):
            raise _fail("cannot_swap")
        entry = st["table"][i]
        m = self.meld(st, entry["tiles"])
        face = tile_face(tile, self.rules, st["indicator"])
        if m is None or face is None:
            raise _fail("cannot_swap")
        for j, f in enumerate(m.faces):
            if m.wild[j] and f == str(face) and self.may_swap(st, entry, m, j):
                break
        else:
            raise _fail("cannot_swap")
        tiles = list(m.tiles)
        tiles[j] = tile
        st["table"][i] = dict(entry, tiles=tiles)
        me["rack"].append(_physical(m.tiles[j]))
        self.charge_swap(st, seat, entry["owner"], face.number)
        return [tile]

    def may_swap(self, st: dict, entry: dict, meld: Meld, index: int) -> bool:
        """okey17 hook: a joker laid this turn / a 3-tile group's joker stays."""
        return True

    def charge_swap(self, st: dict, actor: int, owner: int, value: int) -> None:
        """Penalty for the owner of a meld whose wild ``actor`` took (ruleset-specific)."""

    # ----- discard
    def _discard(self, original: dict, st: dict, seat: int, action: dict) -> None:
        if st["phase"] != "play":
            raise _fail("wrong_phase")
        me = st["seats"][seat]
        tile = action.get("tile")
        if not isinstance(tile, str) or tile not in me["rack"]:
            raise _fail("tile_not_in_rack")
        final = len(me["rack"]) == 1
        if final and me["opened"] == "no":
            raise _fail("not_opened", "only an opened player may finish")
        if not final:
            self.check_discard(original, st, seat, tile)
        me["rack"].remove(tile)
        st["discards"][seat].append(tile)
        if final:
            self._end(st, seat, tile)
            return
        n = len(st["seats"])
        st["turn"] = (seat + 1) % n
        st["phase"] = "draw"
        st["turn_state"] = self.new_turn_state()
        if not st["pile"]:  # D-10 / D-14: the next turn starts with an empty pile
            self._end(st, None, None)

    def check_discard(self, original: dict, st: dict, seat: int, tile: str) -> None:
        """Penalty tile (okey51) or refused playable/joker discard (okey17)."""

    def _end(self, st: dict, finisher: int | None, final_discard: str | None) -> None:
        seats = [{"rack": s["rack"], "opened": s["opened"]} for s in st["seats"]]
        direct = bool(finisher is not None and st["turn_state"].get("opened"))
        scores = self.score(st["options"], seats, finisher, st["indicator"], final_discard, direct)
        st["result"] = {
            "finisher": finisher,
            "end": self.end_kind(st, finisher, final_discard, direct),
            "scores": scores,
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

    def score(self, options, seats, finisher, indicator=None, final_discard=None, direct=False) -> list[int]:
        """End-of-round amounts per seat (RULES.md §3/§4 tables; in-round penalties excluded)."""
        raise NotImplementedError

    # ------------------------------------------------------------- queries
    def is_over(self, pos: dict) -> bool:
        """True when the round has ended."""
        return bool(pos.get("result"))

    def round_scores(self, pos: dict) -> list[int] | None:
        """End-of-round amounts, or None while the round runs."""
        res = pos.get("result")
        return list(res["scores"]) if res else None

    def meld_info(self, tiles, indicator=None) -> dict:
        """RULES.md §8 ``meld`` answer: ``{"valid": False}`` or type and points."""
        m = classify(tiles, self.rules, indicator)
        if m is None:
            return {"valid": False}
        return {"valid": True, "type": m.type, "points": m.points}

    def penalty_tiles(self, pos: dict, seat: int) -> list[str]:
        """Rack tiles whose discard now would be penalised (assisted table, RULES.md §6).
        Empty when the discard would end the round (exempt)."""
        pos = self.loaded(pos)
        rack = pos["seats"][seat]["rack"]
        if len(rack) <= 1 or pos.get("result"):
            return []
        out = []
        for t in dict.fromkeys(rack):
            if self.discard_penalised(pos, seat, t):
                out.append(t)
        return out

    def discard_penalised(self, pos: dict, seat: int, tile: str) -> bool:
        """Whether discarding ``tile`` (not the last) is penalised."""
        return self.fits_table(pos, tile)

    def add_targets(self, pos: dict, seat: int, tile: str) -> list[int]:
        """Ids of table melds ``tile`` (bare, or ``okey=face``) can be added to by ``seat``
        now; a bare wild counts where some represented face fits."""
        if pos.get("result"):
            return []
        pos = self.loaded(pos)
        okey = self.okey(pos)
        out = []
        for m in pos["table"]:
            candidates = [tile]
            if tile == okey:
                c = self.meld(pos, m["tiles"])
                candidates += [f"{okey}={f}" for f, _ in extensions(c, self.rules)] if c else []
            for cand in candidates:
                try:
                    self.apply(pos, {"seat": seat, "type": "add", "meld": m["id"], "tile": cand})
                except IllegalAction as e:
                    if e.code == "must_keep_tile":
                        break
                    continue
                out.append(m["id"])
                break
        return out

    def view(self, pos: dict, seat: int | None) -> dict:
        """What ``seat`` may see (None: a spectator); never another rack nor the pile
        (docs/engine-api.md, ARCHITECTURE.md invariant 3)."""
        pos = self.loaded(pos)
        seats = pos["seats"]
        me = seats[seat] if seat is not None else None
        v = {
            "ruleset": self.name,
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
            "last_action": self.public_last_action(pos.get("last_action"), seat),
            "result": pos.get("result"),
        }
        return v

    def public_last_action(self, action: dict | None, seat: int | None) -> dict | None:
        """The last action as ``seat`` may see it (a draw never shows the tile)."""
        if not action:
            return None
        return {k: v for k, v in action.items()}

