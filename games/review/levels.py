"""The computer levels' accuracy, measured by the review itself (docs/review.md).

Shown beside a player's accuracy on the match page and the profile, so a figure such as
"92" reads against something.  Measured by ``python -m bench.review`` (200 self-played
rounds per ruleset, every seat reviewed, the levels turning round the seats; the mean
round accuracy and its 95 % interval); run it again and copy its table here when a
judgement or a bot changes.
"""

LEVEL_ACCURACY = {
    "okey51": {
        "strong": {"accuracy": 99.4, "low": 98.8, "high": 100.0, "rounds": 268},
        "normal": {"accuracy": 97.9, "low": 97.4, "high": 98.4, "rounds": 268},
        "easy": {"accuracy": 88.9, "low": 87.3, "high": 90.4, "rounds": 264},
    },
    "okey17": {
        "strong": {"accuracy": 99.5, "low": 99.2, "high": 99.8, "rounds": 268},
        "normal": {"accuracy": 98.5, "low": 98.1, "high": 98.8, "rounds": 268},
        "easy": {"accuracy": 93.8, "low": 92.3, "high": 95.3, "rounds": 264},
    },
    "rami": {
        "strong": {"accuracy": 99.7, "low": 99.6, "high": 99.9, "rounds": 400},
        "normal": {"accuracy": 71.7, "low": 69.5, "high": 73.9, "rounds": 400},
        "easy": {"accuracy": 53.9, "low": 50.9, "high": 56.8, "rounds": 400},
    },
}
"""{ruleset: {level: {"accuracy" (mean round accuracy, 0-100), "low", "high" (its 95 %
interval), "rounds" (seat-rounds measured)}}}, strongest first."""
