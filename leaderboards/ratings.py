"""Pure rating maths over openskill's Plackett–Luce model (no Django; who wins comes from
the ruleset object, `games.engine.api.ruleset`).

A rating is `(mu, sigma)` in openskill units (a new player: mu 25, sigma 25/3).
Players see `display(mu, sigma)`: 1000 + 40 × (mu − 3 σ), the conservative estimate,
so a new player starts at 1000 and only climbs as the system gets sure of them.
"""
from openskill.models import PlackettLuce

from games.engine import api

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
PROVISIONAL_MATCHES = 5  # rated matches before a player leaves the provisional list


def display(mu, sigma):
    """Shown rating (int points) of `(mu, sigma)`: 1000 + 40 × (mu − 3σ)."""
    return round(1000 + 40 * (mu - 3 * sigma))


def places(ruleset, totals, abandoned=()):
    """Place (1 = best) of each seat from the match `totals` (list of int points per seat).

    Rulesets whose `higher_wins` (rami) rank the highest total first, the others (okey)
    the lowest (RULES.md §3–5).
    Equal totals share a place (dense: the next place is the next number). Seats in `abandoned`
    (a computer finished the match for them) take a shared last place behind everyone else, whatever their total.
    Returns a list of ints, one per seat.
    """
    sign = -1 if api.ruleset(ruleset).higher_wins else 1
    keys = [(1, 0) if seat in abandoned else (0, sign * total) for seat, total in enumerate(totals)]
    ordered = sorted(set(keys))
    return [ordered.index(key) + 1 for key in keys]


def rate(teams, ranks):
    """New ratings after one match.

    Args: `teams` — list of teams, each a list of `(mu, sigma)` (one team per player in an
    individual match); `ranks` — one int per team, lower is better, equal ranks are ties.
    Returns the same nested shape with the new `(mu, sigma)`.
    Raises ValueError with fewer than two teams.
    """
    if len(teams) < 2:
        raise ValueError("a rated match needs at least two teams")
    model_teams = [[MODEL.create_rating([mu, sigma]) for mu, sigma in team] for team in teams]
    rated = MODEL.rate(model_teams, ranks=list(ranks))
    return [[(r.mu, r.sigma) for r in team] for team in rated]
