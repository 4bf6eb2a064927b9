"""Ratings, leaderboards and solo records (RULES.md §6 "Records", issue 5).

`record_result(match)` is the hook `games.services` calls once per finished match, after
the commit; the work is in `leaderboards.recording`.
"""


def record_result(match):
    """Record a finished `games.models.Match` in the ratings or solo records (idempotent).

    See `leaderboards.recording.record_result`. Returns what it returns.
    """
    from leaderboards.recording import record_result as record

    return record(match)
