"""What an okey bot reads from its view, decoded once per decision (RULES.md §3, §4, §7).

Only the seat's own view is used (docs/engine-api.md "The view"): the rack, the
table, the discards and the public counters.  Never another rack, never the pile.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games.bots.faces import WILD, TableMeld, TileContext, can_grow, fitting_faces, read_meld
from games.engine import api


@dataclass
class Seen:
    """A decoded okey view.

    ``rack``: tile strings; ``codes``: their face codes (``WILD`` for okeys);
    ``melds``: :class:`TableMeld` per table meld, same order as ``table``;
    ``fit_faces``: faces that fit some table meld now; ``any_growable``: a wild fits somewhere;
    ``partner_seat``: the partner in team play, else ``None``.
    """

    view: dict
    ctx: TileContext
    seat: int
    players: int
    rack: list
    codes: list
    opened: str
    table: list
    melds: list
    fit_faces: set = field(default_factory=set)
    any_growable: bool = False
    partner_seat: int | None = None

    @property
    def ruleset(self) -> str:
        return self.view["ruleset"]

    def partner(self) -> int | None:
        """Partner seat in team play (okey51 teams: seats 0+2, 1+3, RULES.md §3), else ``None``."""
        return self.partner_seat

    def friendly(self, owner) -> bool:
        """True when adding/swapping on ``owner``'s meld costs nobody (self or partner, RULES.md §3)."""
        return owner == self.seat or (owner is not None and owner == self.partner())

    def fits(self, code: int) -> bool:
        """True when a tile of this code fits some table meld (a penalty/playable discard)."""
        if code == WILD:
            return self.any_growable
        return code in self.fit_faces

    def previous_seat(self) -> int:
        return (self.seat - 1) % self.players

    def next_seat(self) -> int:
        return (self.seat + 1) % self.players

    def top_discard(self) -> str | None:
        """The previous seat's last discard (the one this seat may take), or ``None``."""
        pile = (self.view.get("discards") or [[]] * self.players)[self.previous_seat()]
        return pile[-1] if pile else None


def decode(view: dict) -> Seen:
    """Decode an okey view into a :class:`Seen` (RULES.md §7 view keys)."""
    ctx = TileContext.for_view(view)
    seat = view["seat"]
    rack = list(view.get("rack") or [])
    melds = [read_meld(ctx, m["tiles"], m.get("id"), m.get("owner")) for m in view.get("table") or []]
    fit = set()
    growable = False
    for m in melds:
        ff = fitting_faces(ctx, m)
        fit.update(ff)
        if ff:
            growable = True
    players = len(view.get("rack_counts") or view.get("opened") or [0, 0, 0, 0])
    return Seen(view, ctx, seat, players, rack, [ctx.rack_code(t) for t in rack],
                (view.get("opened") or ["no"] * players)[seat], list(view.get("table") or []),
                melds, fit, growable, _partner(view, seat, players))


def _partner(view: dict, seat: int, players: int) -> int | None:
    """The partner of ``seat`` when the ruleset plays this table in teams: its
    ``team_totals`` pairs seats 0+2 and 1+3 (RULES.md §3), else ``None``."""
    teams = api.ruleset(view["ruleset"]).team_totals(view.get("options") or {}, [0] * players)
    return (seat + 2) % players if teams is not None else None


def meld_accepts(seen: Seen, m: TableMeld, code: int) -> bool:
    """True when a rack tile of ``code`` can be added to meld ``m`` (wild: any growable meld)."""
    if code == WILD:
        return can_grow(seen.ctx, m)
    return code in fitting_faces(seen.ctx, m)
