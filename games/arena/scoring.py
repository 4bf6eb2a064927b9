"""How an arena scores a match and ranks its players (the arena page's rules).

Per match, by place among the table's humans (computers never score): 1st 4 points, 2nd
2, 3rd 1, 4th 0; at a two-seat table 4 / 0. Two wins in a row start a streak in which
each place scores double until a match is not won. A player who left the match (the
site's one definition of leaving) scores 0 and ends their streak. The standings rank by
score, then points per match, then the earliest to reach the score.
"""
PLACE_POINTS = (4, 2, 1, 0)
TWO_SEAT_POINTS = (4, 0)
STREAK_FROM = 2  # wins in a row before places score double


def place_points(place, seats):
    """Points of `place` (1 = best among the table's humans) at a table of `seats` seats,
    before any streak doubling (int)."""
    table = TWO_SEAT_POINTS if seats == 2 else PLACE_POINTS
    return table[place - 1] if 0 < place <= len(table) else 0


def score_match(place, seats, streak, left=False):
    """One match of one player: (points (int), streak after it (int), doubled (bool)).

    `place`: 1 = best among the table's humans; `seats`: the table's seats; `streak`: the
    player's wins in a row before this match; `left`: the player left the match (0 points,
    streak ended)."""
    if left:
        return 0, 0, False
    doubled = streak >= STREAK_FROM
    points = place_points(place, seats) * (2 if doubled else 1)
    return points, streak + 1 if place == 1 else 0, doubled


def on_fire(streak):
    """Whether a player with `streak` wins in a row scores double in their next match (the
    🔥 mark)."""
    return streak >= STREAK_FROM


def standing_key(score, matches, reached):
    """Sort key of one player in the standings (ascending = better): highest `score`,
    then the most points per match (`matches` scored), then the earliest `reached` (aware
    datetime at which the score was reached)."""
    per_match = score / matches if matches else 0.0
    return (-score, -per_match, reached)
