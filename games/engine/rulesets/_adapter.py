"""Ruleset objects over today's ruleset modules, until each ruleset is a class of its own.

``step`` is built on the module's ``apply`` and reads the penalties off the seats'
running ``penalty`` before and after the action.
"""
from __future__ import annotations

from types import ModuleType
from typing import Iterator

from ..errors import IllegalAction
from ..step import Penalty, Step
from .base import Ruleset


def _penalties(position: dict) -> list[int]:
    return [int(seat.get("penalty", 0) or 0) for seat in position["seats"]]


class ModuleRuleset(Ruleset):
    """A :class:`Ruleset` whose operations are a ruleset module's functions."""

    module: ModuleType

    def normalize_options(self, options):
        return self.module.normalize_options(options)

    def deal(self, options, seed, players=4, first=0):
        return self.module.deal(options, seed, players, first)

    def view(self, position, seat):
        return self.module.view(position, seat)

    def step(self, position: dict, action: dict) -> Step:
        try:
            after = self.module.apply(position, action)
        except IllegalAction as exc:
            if exc.position is None:
                return Step(position, False, exc.code)
            return Step(exc.position, False, exc.code, self.penalty_events(position, exc.position, action, exc.code))
        ended = after.get("result") if not position.get("result") else None
        return Step(after, True, None, self.penalty_events(position, after, action, None), ended or None)

    def penalty_reason(self, action: dict, code: str | None, seat: int, actor: int, players: int) -> str:
        """Why ``seat``'s penalty rose when ``actor`` played ``action`` (refused with ``code``)."""
        return code or action.get("type") or "unknown"

    def penalty_events(self, before: dict, after: dict, action: dict, code: str | None) -> tuple[Penalty, ...]:
        actor = action.get("seat")
        tile = action.get("tile")
        if tile is None and action.get("type") == "take_discard":
            discards = before.get("discards") or []
            previous = (actor - 1) % len(before["seats"])
            if previous < len(discards) and discards[previous]:
                tile = discards[previous][-1]
        out = []
        for seat, (old, new) in enumerate(zip(_penalties(before), _penalties(after))):
            if new > old:
                out.append(Penalty(seat, new - old, self.penalty_reason(action, code, seat, actor, len(before["seats"])),
                                   tile if isinstance(tile, str) else None, actor if actor != seat else None))
        return tuple(out)

    def legal_actions(self, position: dict, seat: int) -> Iterator[dict]:
        if position.get("result") or position.get("turn") != seat:
            return
        if position.get("phase", "draw") == "draw" or not self.has_discards:
            action = {"seat": seat, "type": "draw"}
            if self.step(position, action).accepted:
                yield action
            if not self.has_discards:
                return
        for tile in dict.fromkeys(position["seats"][seat]["rack"]):
            action = {"seat": seat, "type": "discard", "tile": tile}
            if self.step(position, action).accepted:
                yield action
