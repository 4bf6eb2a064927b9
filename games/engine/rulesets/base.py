"""The shape of a ruleset object: its facts and its operations (RULES.md §1-§7).

Every ruleset is one object registered in ``games.engine.rulesets.RULESETS`` (id ->
object).  Callers ask the object — how many seats, who wins, whether it has discards,
its options, its match — instead of comparing ruleset ids (ARCHITECTURE.md layout).
"""
from __future__ import annotations

from typing import Iterator

from ..melds import MeldRules, rules_for


class Ruleset:
    """Base of the three rulesets.  Subclasses set the facts (class attributes) and
    implement the operations.

    Facts: ``id`` (``okey51``/``okey17``/``rami``), ``name`` (display name),
    ``seat_counts`` (seats a table may have), ``default_seats``, ``higher_wins`` (rami:
    the highest match total wins; okey: the lowest), ``has_discards`` and
    ``has_indicator`` (okey rulesets), ``option_keys`` (RULES.md §7 table options).
    """

    id = ""
    name = ""
    seat_counts: tuple[int, ...] = (2, 3, 4)
    default_seats = 4
    higher_wins = False
    has_discards = True
    has_indicator = True
    option_keys: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}>"

    # ----------------------------------------------------------------- facts
    @property
    def meld_rules(self) -> MeldRules:
        """The ruleset's meld rules (RULES.md §2)."""
        return rules_for(self.id)

    def better(self, new: int, old: int) -> bool:
        """True when match total ``new`` (points) beats ``old``: higher in rami, lower in okey."""
        return new > old if self.higher_wins else new < old

    def normalize_options(self, options: dict | None) -> dict:
        """Options with RULES.md §7 defaults filled in; ValueError on a bad value."""
        raise NotImplementedError

    # ----------------------------------------------------------------- match
    def match_length(self, options: dict | None, players: int) -> int | None:
        """Rounds in a match, or None when the match is played to a target score."""
        return self.normalize_options(options)["rounds"]

    def match_over(self, options: dict | None, players: int, totals: list[int], rounds_played: int) -> bool:
        """Whether the match has ended after ``rounds_played`` rounds with ``totals`` (points per seat)."""
        return rounds_played >= self.match_length(options, players)

    def team_totals(self, options: dict | None, totals: list[int]) -> list[int] | None:
        """Team totals ``[seat0 + seat2, seat1 + seat3]`` in team play, else None (RULES.md §3)."""
        return None

    def standings(self, options: dict | None, totals: list[int]) -> list[int]:
        """Seats best first by match total; ties by seat.  In team play the better team's
        seats come first, partners next to each other, the better seat first within a team."""
        teams = self.team_totals(options, totals)
        sign = -1 if self.higher_wins else 1
        if teams is None:
            return sorted(range(len(totals)), key=lambda s: (sign * totals[s], s))
        return sorted(range(len(totals)), key=lambda s: (sign * teams[s % 2], s % 2, sign * totals[s], s))

    # ------------------------------------------------------------- playing
    def deal(self, options: dict | None, seed: str, players: int = 4, first: int = 0) -> dict:
        """A new round's position (RULES.md §1); ValueError on bad arguments."""
        raise NotImplementedError

    def step(self, position: dict, action: dict):
        """The :class:`~games.engine.step.Step` of ``action`` (RULES.md §7 with ``seat``)."""
        raise NotImplementedError

    def legal_actions(self, position: dict, seat: int) -> Iterator[dict]:
        """Legal actions of ``seat`` now (complete for draw/take/discard)."""
        raise NotImplementedError

    def view(self, position: dict, seat: int | None) -> dict:
        """What ``seat`` may see (None: a spectator)."""
        raise NotImplementedError
