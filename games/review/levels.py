"""The computer levels' accuracy, measured by the review itself (docs/review.md).

Shown beside a player's accuracy on the match page and the profile, so a figure such as
"92" reads against something.  Measured by ``python -m bench.review`` (200 self-played
rounds per ruleset, every seat reviewed, the levels turning round the seats; the mean
round accuracy and its 95 % interval); run it again and copy its table here when a
judgement or a bot changes.
"""

LEVEL_ACCURACY = {
    "okey51": {
        "strong": {"accuracy": 0.0, "low": 0.0, "high": 0.0, "rounds": 0},
        "normal": {"accuracy": 0.0, "low": 0.0, "high": 0.0, "rounds": 0},
        "easy": {"accuracy": 0.0, "low": 0.0, "high": 0.0, "rounds": 0},
    },
    "rami": {
        "strong": {"accuracy": 0.0, "low": 0.0, "high": 0.0, "rounds": 0},
        "normal": {"accuracy": 0.0, "low": 0.0, "high": 0.0, "rounds": 0},
        "easy": {"accuracy": 0.0, "low": 0.0, "high": 0.0, "rounds": 0},
    },
}
"""{ruleset: {level: {"accuracy" (mean round accuracy, 0-100), "low", "high" (its 95 %
interval), "rounds" (seat-rounds measured)}}}, strongest first."""
