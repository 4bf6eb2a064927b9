"""Ratings, leaderboards and solo records (RULES.md §6 "Records").

`record_result(match)` records one finished match (the commit path calls it after the
match's commit, the sweeper for any it missed); the work is in `leaderboards.recording`.
"""


def record_result(match):
    """Record a finished `games.models.Match` in the ratings or solo records (idempotent).

    See `leaderboards.recording.record_result`. Returns what it returns.
    """
    from leaderboards.recording import record_result as record

    return record(match)
