"""The shared engine of the okey rulesets (RULES.md §1, §3, §4, §7).

:class:`OkeyRuleset` holds what okey51 and okey17 share — the deal, the turn (draw or
take the previous seat's discard, table actions, one discard), keeping one tile, the
round's end — and calls hooks for what differs.  The table actions are in
``okey_table.py``, the view and assisted-table queries in ``okey_queries.py``, the
legal-action generator in ``okey_legal.py``.  ``okey51.py`` and ``okey17.py`` subclass
it and set the rule parameters as class attributes, so a rule decision lives in one place.

Positions are JSON-shaped dicts (RULES.md §7 plus the extra keys of docs/engine-api.md).
:meth:`OkeyRuleset.step` never mutates its input: it plays on a copy of the parts it changes.
"""
from __future__ import annotations

from functools import lru_cache

from .. import fairdeal
from ..actions import action_problem
from ..errors import Refused
from ..melds import Meld, MeldRules, can_grow, classify, extensions, tile_face
from ..step import Step
from ..tiles import okey_of, split_wild
from .base import Ruleset
from .okey_queries import OkeyQueries
from .okey_table import OkeyTableActions
from .okey_turn import Turn


@lru_cache(maxsize=65536)
def _classify_cached(rules: MeldRules, tiles: tuple[str, ...], indicator: str | None) -> Meld | None:
    return classify(tiles, rules, indicator)


class OkeyRuleset(OkeyTableActions, OkeyQueries, Ruleset):
    """Rules shared by the okey rulesets; subclasses set the parameters and hooks.

    Parameters (class attributes): ``take_then`` (action types a ``take_discard``'s
    ``then`` may be, D-18, D-23), ``pairs_may_add`` / ``pairs_may_swap``.
    """

    action_types = ("draw", "take_discard", "open", "meld", "add", "swap", "discard")
    take_then: tuple[str, ...] = ("open", "meld", "add")

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
