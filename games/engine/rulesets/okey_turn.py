"""One okey action being played: the working copy of the position and the penalties
the rules charge while playing it (ARCHITECTURE.md invariant 1: the rules report what
the move caused; nothing is read back from the positions afterwards)."""
from __future__ import annotations

from ..step import Penalty


def physical(text: object) -> str | None:
    """The physical part of a written tile (``"R6=B5"`` -> ``"R6"``); None if not a string."""
    if not isinstance(text, str):
        return None
    return text.partition("=")[0]


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
