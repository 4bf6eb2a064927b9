"""What a move did: :class:`Step` (the engine's answer to one action), :class:`Penalty`
(one in-round penalty it caused) and :class:`Replay` (a whole move log played again).

ARCHITECTURE.md invariant 1: ``step(position, action) -> Step``; nothing is mutated and
no state travels inside an exception.  A refused action whose penalty stays (okey17
playable or joker discard, RULES.md §4) is an ordinary refused Step that carries the
new position.
"""
from __future__ import annotations

from dataclasses import dataclass, field

PENALTY_REASONS = (
    "penalty_tile", "discard_taken", "add", "swap", "pair_in_area", "playable_discard", "joker_discard",
)
"""Why a seat's in-round penalty rose (RULES.md §3, §4): okey51 penalty tile, a taken
discard, an add or swap on the seat's meld, okey17's pair laid in a pairs player's area
(D-12), okey17's refused playable or joker discard."""


@dataclass(frozen=True)
class Penalty:
    """One in-round penalty (points against ``seat``).

    - ``seat``: the seat charged; ``amount``: points (> 0);
    - ``reason``: one of :data:`PENALTY_REASONS`;
    - ``tile``: the tile concerned (the discard, the added/swapped tile, the taken
      discard) or None;
    - ``by``: the acting seat when it is not ``seat`` (an add on ``seat``'s meld), else None.
    """

    seat: int
    amount: int
    reason: str
    tile: str | None = None
    by: int | None = None

    def as_dict(self) -> dict:
        """JSON form ``{"seat", "amount", "reason", "tile", "by"}`` (stored with each Move)."""
        return {"seat": self.seat, "amount": self.amount, "reason": self.reason, "tile": self.tile, "by": self.by}


@dataclass(frozen=True)
class Step:
    """The engine's answer to one action.

    - ``position``: the position after the action — the input itself when nothing changed;
    - ``accepted``: True when the action was played;
    - ``code``: None, or the RULES.md §7 refusal code;
    - ``penalties``: the in-round penalties the action caused (also on a refused okey17
      discard whose penalty stays);
    - ``round_result``: ``position["result"]`` when this action ended the round, else None.
    """

    position: dict = field(repr=False)
    accepted: bool
    code: str | None = None
    penalties: tuple[Penalty, ...] = ()
    round_result: dict | None = None

    @property
    def changed(self) -> bool:
        """True when the position moved on: accepted, or refused with a penalty that stays."""
        return self.accepted or bool(self.penalties)

    def events(self) -> list[dict]:
        """The penalties as JSON dicts (what a stored Move keeps)."""
        return [p.as_dict() for p in self.penalties]


@dataclass
class Replay:
    """A move log played again from its initial position (``games.engine.api.replay``).

    - ``position``: the position after the last move;
    - ``steps``: one :class:`Step` per move, in order.
    """

    position: dict = field(repr=False)
    steps: list[Step] = field(default_factory=list)

    @property
    def penalties(self) -> list[Penalty]:
        """Every penalty of the replayed moves, in play order."""
        return [p for s in self.steps for p in s.penalties]
