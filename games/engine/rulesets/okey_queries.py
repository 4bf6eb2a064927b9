"""What the okey rulesets answer about a position without playing it: the per-seat
view (ARCHITECTURE.md invariant 3), the assisted table's penalised tiles and add
targets (RULES.md §6), and the legal actions (``okey_legal.py``).  A part of
:class:`~games.engine.rulesets.okey_base.OkeyRuleset`."""
from __future__ import annotations

from typing import Iterator

from ..melds import extensions
from . import okey_legal


class OkeyQueries:
    """View, penalty tiles, add targets and legal actions of an okey position."""

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
        """Ids of table melds ``tile`` (bare, or ``okey=face``) can be added to by ``seat``
        now; a bare wild counts where some represented face fits (RULES.md §6 one-tap add)."""
        if pos.get("result"):
            return []
        pos = self.loaded(pos)
        okey = self.okey(pos)
        out = []
        for m in pos["table"]:
            candidates = [tile]
            if tile == okey:
                c = self.meld(pos, m["tiles"])
                candidates += [f"{okey}={f}" for f, _ in extensions(c, self.meld_rules)] if c else []
            for cand in candidates:
                done = self.step(pos, {"seat": seat, "type": "add", "meld": m["id"], "tile": cand})
                if done.code == "must_keep_tile":
                    break
                if done.accepted:
                    out.append(m["id"])
                    break
        return out

    def legal_actions(self, pos: dict, seat: int) -> Iterator[dict]:
        """The legal actions of ``seat`` now (RULES.md §7 dicts with ``seat``); see
        :func:`~games.engine.rulesets.okey_legal.legal_actions` for what is complete
        and what is bounded."""
        return okey_legal.legal_actions(self, pos, seat)
