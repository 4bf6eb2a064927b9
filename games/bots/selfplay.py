"""Computer-only rounds on the pure engine (no database), for the ``selfplay``
command, the bot tests and ``bench/bot_speed.py``.

Every decision goes through :func:`games.bots.choose_action` with the seat's
``api.view`` only; every action is played by ``games.engine.api.step`` (a refusal
is a Step, never an exception) and the position's invariants
(``games.bots.invariants``) are checked after it.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from games.bots import choose_action, safe_action
from games.bots.invariants import violations
from games.engine import api, fairdeal

MAX_ACTIONS = 4000
"""A round taking more actions than this counts as stuck (a violation)."""
TABLE_ID = "selfplay"
"""The table id in the deal seed of every self-played round (docs/fair-deals.md §3)."""


@dataclass
class RoundResult:
    """One finished self-play round.

    ``totals``: ``api.round_totals`` per seat (points; okey: against, rami: for);
    ``opened``/``penalised``: per seat; ``times``: decision CPU seconds per seat (``time.process_time``: other
    processes on the machine do not inflate them);
    ``illegal``: refused bot actions (with code and action); ``violations``: texts;
    ``scores``: end-of-round amounts; ``penalties``: in-round penalties; ``finisher``: seat or None;
    ``server_seed``: the round's server seed (``fairdeal.seed_from_text(seed)``);
    with ``record``: ``initial`` (the dealt position) and ``moves``, every move that changed
    the game as ``{"seat", "action", "result" ("ok" or the refusal code of a penalty that
    stays), "penalties"}`` (what a game record needs, docs/game-record.md).
    """

    seed: str
    totals: list
    opened: list
    penalised: list
    times: list
    actions: int
    end: str | None
    illegal: list = field(default_factory=list)
    violations: list = field(default_factory=list)
    scores: list = field(default_factory=list)
    penalties: list = field(default_factory=list)
    finisher: int | None = None
    levels: list = field(default_factory=list)
    server_seed: str = ""
    first: int = 0
    initial: dict | None = None
    moves: list | None = None
    final: dict | None = field(default=None, repr=False)


def text_deal_seed(seed: str, players: int) -> tuple[str, str]:
    """``(server seed, deal seed)`` of the self-played round named by the text ``seed``:
    the server seed is ``fairdeal.seed_from_text(seed)``, the deal seed that of round 1 of
    table :data:`TABLE_ID` with an empty client seed per seat (computers send none,
    docs/fair-deals.md §1), so the round's record verifies like a played one."""
    server = fairdeal.seed_from_text(seed)
    return server, fairdeal.deal_seed(server, 1, TABLE_ID, [""] * players)


def play_round(ruleset: str, seed: str, levels: list[str], options: dict | None = None,
               first: int = 0, check: bool = True, on_decision=None, record: bool = False) -> RoundResult:
    """Play one round with computers only, seat ``s`` at ``levels[s]``.

    Args:
        ruleset: ``okey51``/``okey17``/``rami``; seed: a text naming the deal
            (:func:`text_deal_seed`) and the bots' decisions;
        levels: one bot level per seat; options: table options (defaults filled);
        first: the seat that starts; check: run the invariants after each action;
        on_decision: optional ``f(view, action)`` called for every bot decision
            (the tests use it to see exactly what the bot was given);
        record: keep the initial position and the moves (``RoundResult.initial``, ``moves``).
    Returns a :class:`RoundResult`.  A refused bot action is recorded in
    ``illegal`` (its refusal code, the action, the rack and table the bot saw); the
    position it leaves (a penalty that stays, RULES.md §4) is kept and
    :func:`games.bots.safe_action` is played instead; if that is refused too, or the
    round exceeds :data:`MAX_ACTIONS`, a violation is recorded and the round stops.
    """
    n = len(levels)
    server, deal_seed = text_deal_seed(seed, n)
    pos = initial = api.deal(ruleset, options or {}, deal_seed, players=n, first=first)
    moves: list | None = [] if record else None
    times: list[list[float]] = [[] for _ in range(n)]
    illegal: list = []
    problems: list[str] = []
    count = 0
    while not api.is_over(pos):
        if count >= MAX_ACTIONS:
            problems.append("stuck: too many actions")
            break
        seat = pos["turn"]
        v = api.view(pos, seat)
        t0 = time.process_time()
        action = choose_action(v, levels[seat], seed=f"{seed}:{count}")
        times[seat].append(time.process_time() - t0)
        if on_decision is not None:
            on_decision(v, action)
        count += 1
        done = api.step(pos, action)
        _keep(moves, seat, action, done)
        pos = done.position
        if not done.accepted:
            illegal.append((done.code, action, v.get("rack"), v.get("table")))
            safe = safe_action(api.view(pos, seat))
            fallback = api.step(pos, safe)
            if not fallback.accepted:
                problems.append(f"safe action refused: {fallback.code}")
                break
            _keep(moves, seat, safe, fallback)
            pos = fallback.position
        if check:
            problems.extend(violations(pos))
    totals = api.round_totals(pos) or [0] * n
    opened = [s["opened"] not in ("no",) for s in pos["seats"]]
    penalised = [int(s.get("penalty", 0)) > 0 for s in pos["seats"]]
    res = pos.get("result") or {}
    return RoundResult(seed, totals, opened, penalised, times, count, res.get("end"), illegal, problems,
                       api.round_scores(pos) or [0] * n, [int(s.get("penalty", 0)) for s in pos["seats"]],
                       res.get("finisher"), list(levels), server, first,
                       initial if record else None, moves, pos if record else None)


def _keep(moves: list | None, seat: int, action: dict, done) -> None:
    """Append a move that changed the game (accepted, or refused with a penalty that stays)."""
    if moves is not None and done.changed:
        moves.append({"seat": seat, "action": dict(action, seat=seat),
                      "result": "ok" if done.accepted else done.code, "penalties": done.events()})


@dataclass
class LevelStats:
    """Aggregates per level over seat-rounds: scores (points), opening and penalty
    counts, decision times (seconds)."""

    scores: list = field(default_factory=list)
    opened: int = 0
    penalised: int = 0
    times: list = field(default_factory=list)

    def mean_ci(self) -> tuple[float, float]:
        """Mean and the half-width of its 95 % confidence interval (normal approximation)."""
        k = len(self.scores)
        if k == 0:
            return 0.0, 0.0
        mean = sum(self.scores) / k
        if k < 2:
            return mean, float("inf")
        var = sum((x - mean) ** 2 for x in self.scores) / (k - 1)
        return mean, 1.96 * math.sqrt(var / k)

    def percentile_ms(self, p: float) -> float:
        """Decision time percentile ``p`` (0..100) in milliseconds."""
        if not self.times:
            return 0.0
        ts = sorted(self.times)
        i = min(len(ts) - 1, max(0, math.ceil(p / 100 * len(ts)) - 1))
        return ts[i] * 1000


def seatings(levels: list[str]) -> list[list[str]]:
    """Every distinct ordering of ``levels`` (fixed order): playing round ``i`` with
    ``seatings(levels)[i % k]`` puts each level in every seat and behind every
    other level equally often (who sits after whom matters: the next seat takes
    your discards)."""
    from itertools import permutations

    out = []
    for p in permutations(levels):
        if list(p) not in out:
            out.append(list(p))
    return out


def aggregate(results: list[RoundResult], levels: list[str]) -> dict[str, LevelStats]:
    """Per-level :class:`LevelStats` from rounds played with seat levels ``levels``
    (or each round's own ``levels`` when it carries them)."""
    out: dict[str, LevelStats] = {}
    for r in results:
        for s, lv in enumerate(r.levels or levels):
            st = out.setdefault(lv, LevelStats())
            st.scores.append(r.totals[s])
            st.opened += bool(r.opened[s])
            st.penalised += bool(r.penalised[s])
            st.times.extend(r.times[s])
    return out
