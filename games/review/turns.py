"""A round's move log cut into the turns of one seat, each with the views the seat had.

The review's judges read only these views (``games.engine.api.view`` of the seat), so
what another rack or the pile held never reaches a judgement (ARCHITECTURE.md
invariant 3).  Positions come from the engine's one replay loop (``api.replay``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.engine import api


@dataclass
class Turn:
    """One turn of ``seat``: its consecutive moves in the log.

    ``number``: the seat's turn count from 1; ``moves``: the log's move numbers (from 1);
    ``actions``: the RULES.md §7 actions played; ``start``: the seat's view when the turn
    began; ``play``: its view after the first move when that was a draw or take (okey;
    None otherwise); ``before_discard``: its view before the turn's last discard (okey;
    None without a discard); ``end``: its view after the turn; ``discard``: the tile
    discarded last (None); ``finished``: the seat went out in this turn."""

    seat: int
    number: int
    moves: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    start: dict | None = None
    play: dict | None = None
    before_discard: dict | None = None
    end: dict | None = None
    discard: str | None = None
    finished: bool = False

    @property
    def first_type(self) -> str | None:
        """The type of the turn's first action (``draw``, ``take_discard``, ``play``...)."""
        return self.actions[0].get("type") if self.actions else None


def seat_turns(initial: dict, actions: list[dict], seat: int) -> list[Turn]:
    """The turns of ``seat`` in a round played from ``initial`` by ``actions`` (RULES.md §7
    dicts with ``seat``, in log order; refused moves that kept a penalty included).

    Returns the list of :class:`Turn`, oldest first.  Raises what ``api.step`` raises on a
    malformed position or action."""
    turns: list[Turn] = []
    position = initial
    current: Turn | None = None
    for number, action in enumerate(actions, start=1):
        acting = action.get("seat")
        if acting != seat:
            current = None
            position = api.step(position, action).position
            continue
        if current is None:
            current = Turn(seat, len(turns) + 1, start=api.view(position, seat))
            turns.append(current)
        if action.get("type") == "discard":
            current.before_discard = api.view(position, seat)
            current.discard = action.get("tile")
        position = api.step(position, action).position
        current.moves.append(number)
        current.actions.append(action)
        if len(current.actions) == 1 and action.get("type") in ("draw", "take_discard") and "phase" in position:
            current.play = api.view(position, seat)
        elif len(current.actions) == 1 and current.start.get("phase") == "play":
            current.play = current.start  # the first seat of an okey round skips the draw
        current.end = api.view(position, seat)
        result = position.get("result") or {}
        current.finished = api.is_over(position) and result.get("finisher") == seat
    return turns
