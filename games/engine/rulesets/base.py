"""The shape of a ruleset object: its facts and its operations (RULES.md §1-§7).

Every ruleset is one object registered in ``games.engine.rulesets.RULESETS`` (id ->
object).  Callers ask the object — how many seats, who wins, whether it has discards,
its options, its match, its tiles and melds — instead of comparing ruleset ids
(ARCHITECTURE.md layout).  A rule decision lives in one place: a class attribute of
the ruleset it belongs to.
"""
from __future__ import annotations

from typing import Iterator

from .. import fairdeal
from ..melds import MeldRules, classify
from ..tiles import FALSE_JOKER, JOKER


class Ruleset:
    """Base of the three rulesets.  Subclasses set the facts (class attributes) and
    implement the operations.

    Facts: ``id`` (``okey51``/``okey17``/``rami``), ``name`` (display name),
    ``seat_counts`` (seats a table may have), ``default_seats``, ``higher_wins`` (rami:
    the highest match total wins; okey: the lowest), ``has_discards`` and
    ``has_indicator`` (okey rulesets), ``option_keys`` (RULES.md §7 table options),
    ``meld_rules`` (RULES.md §2), ``action_types`` (RULES.md §7), ``extra_tile`` (the
    non-numbered tile of the set, RULES.md §1; the whole set is ``fairdeal.tile_set``),
    ``face_down_wilds`` (a rack joker may be turned face down, RULES.md §6),
    ``pairs_in_area`` (a melds player may lay a pair in a pairs player's area, D-12),
    ``round_penalties`` (in-round penalties exist: okey yes, rami no, RULES.md §5).
    """

    id = ""
    name = ""
    seat_counts: tuple[int, ...] = (2, 3, 4)
    default_seats = 4
    higher_wins = False
    has_discards = True
    has_indicator = True
    option_keys: tuple[str, ...] = ()
    meld_rules: MeldRules
    action_types: tuple[str, ...] = ()
    extra_tile = FALSE_JOKER
    face_down_wilds = False
    pairs_in_area = False
    round_penalties = True

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}>"

    # ----------------------------------------------------------------- facts
    def full_set(self, players: int = 4) -> list[str]:
        """Every physical tile of the set for ``players`` seats, in the order the deal
        shuffles (RULES.md §1, D-1): :func:`games.engine.fairdeal.tile_set`, the one
        definition of the set.  ValueError for a seat count the ruleset does not deal to."""
        return fairdeal.tile_set(self.id, players)

    def opening_rules(self) -> dict:
        """The first opening's thresholds: ``{"threshold": meld points, "pairs": None |
        {"count": N} | {"points": N}}`` (RULES.md §3-§5).  Later openings may need more
        (D-21, D-11): the view's ``threshold`` and ``pairs_threshold`` say how much."""
        raise NotImplementedError

    def client_rules(self) -> dict:
        """The rule facts the table client reads instead of knowing ruleset ids: JSON-shaped

        ``{"ruleset": id, "meld": {"ace_high", "pairs", "descending", "joker_wild",
        "points"} (the ruleset's MeldRules, RULES.md §2), "wild": "J" | "okey" (RULES.md
        §1), "extra_tile": "F" | "J", "opening": opening_rules(), "face_down_wilds",
        "pairs_in_area", "round_penalties", "higher_wins"}``.  Sent with the table page's
        ``table_config`` as ``rules``; the client's meld reader (static/js/table/melds.js)
        follows ``meld`` exactly as :func:`games.engine.melds.classify` does."""
        m = self.meld_rules
        return {
            "ruleset": self.id,
            "meld": {"ace_high": m.ace_high, "pairs": m.pairs, "descending": m.descending,
                     "joker_wild": m.joker_wild, "points": m.points},
            "wild": JOKER if m.joker_wild else "okey",
            "extra_tile": self.extra_tile,
            "opening": self.opening_rules(),
            "face_down_wilds": self.face_down_wilds,
            "pairs_in_area": self.pairs_in_area,
            "round_penalties": self.round_penalties,
            "higher_wins": self.higher_wins,
        }

    def better(self, new: int, old: int) -> bool:
        """True when match total ``new`` (points) beats ``old``: higher in rami, lower in okey."""
        return new > old if self.higher_wins else new < old

    def may_name_owner(self, position: dict, seat: int, action: dict) -> bool:
        """Whether ``seat`` may lay ``action`` in another seat's area (D-29); no by default."""
        return False

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
    def deal(self, options: dict | None, deal_seed: str, players: int = 4, first: int = 0) -> dict:
        """A new round's position (RULES.md §1), laid out by ``okeysite-shuffle-1`` from
        ``deal_seed`` (64 lowercase hex: the round's HMAC of docs/fair-deals.md §3, made by
        :func:`games.engine.fairdeal.deal_seed`); ValueError on bad arguments."""
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

    # ---------------------------------------------------------- scoring, queries
    def score(self, options: dict | None, seats: list[dict], finisher: int | None,
              indicator: str | None = None, final_discard: str | None = None, direct: bool = False) -> list[int]:
        """End-of-round amounts per seat (RULES.md §8 ``score`` vectors; in-round penalties excluded)."""
        raise NotImplementedError

    def meld_info(self, tiles: list[str], indicator: str | None = None) -> dict:
        """RULES.md §8 ``meld`` answer: ``{"valid": False}`` or ``{"valid": True, "type":
        "run"|"group"|"pair", "points": N}`` (RULES.md §2; ``indicator`` for the okey rulesets)."""
        meld = classify(tiles, self.meld_rules, indicator)
        if meld is None:
            return {"valid": False}
        return {"valid": True, "type": meld.type, "points": meld.points}

    def is_over(self, position: dict) -> bool:
        """True when the round has ended."""
        return bool(position.get("result"))

    def round_scores(self, position: dict) -> list[int] | None:
        """End-of-round amounts per seat (no in-round penalties), None while the round runs."""
        result = position.get("result")
        return list(result["scores"]) if result else None

    def penalty_tiles(self, position: dict, seat: int) -> list[str]:
        """Rack tiles of ``seat`` whose discard now would be penalised (assisted table)."""
        return []

    def add_targets(self, position: dict, seat: int, tile: str) -> list[int]:
        """Table melds ``tile`` can be added to by ``seat`` now (assisted one-tap add)."""
        raise NotImplementedError
