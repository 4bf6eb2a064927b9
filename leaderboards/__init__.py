"""Ratings and records (RULES.md §6 "Records").

`record_result(match)` is called once per finished match by `games.services`, after
the commit. It is a no-op until the ratings are built.
"""


def record_result(match):
    """Record a finished `games.models.Match` (totals, standings) in the rankings. Returns None."""
    return None
