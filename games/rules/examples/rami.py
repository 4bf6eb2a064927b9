"""The examples of the rami rules page (RULES.md §1, §2, §5), as data (``kinds.py``)."""
from .kinds import meld, move, opening, scoring

R = "rami"

EXAMPLES = [
    # melds (RULES.md §2)
    meld(R, "run", ["R4", "R5", "R6"], "run", 15),
    meld(R, "run_ace_low", ["Y1", "Y2", "Y3"], "run", 6),
    meld(R, "run_joker", ["R4", "J=R5", "R6"], "run", 15),
    meld(R, "run_ace_high", ["B12", "B13", "B1"]),
    meld(R, "group", ["K7", "B7", "Y7"], "group", 21),
    meld(R, "group_four", ["R12", "B12", "K12", "Y12"], "group", 48),
    meld(R, "group_same_colour", ["R7", "R7", "K7"]),
    # the initial meld: 30 from your own rack
    opening(R, "open_33", [(["R10", "R11", "R12"], 33)], 33, 30, True),
    opening(R, "open_30", [(["K5", "K6", "K7"], 18), (["B4", "R4", "Y4"], 12)], 30, 30, True),
    opening(R, "open_joker", [(["K9", "J=K10", "K11"], 30)], 30, 30, True),
    opening(R, "open_short", [(["Y1", "Y2", "Y3", "Y4"], 10), (["K6", "B6", "R6"], 18)], 28, 30, False),
    # rearranging the table after the initial meld (RULES.md §5)
    move(R, "split", [["B5", "B6", "B7", "B8"]], ["K5", "Y5", "R2"], [["B6", "B7", "B8"], ["B5", "K5", "Y5"]]),
    move(R, "joker_reused", [["R4", "J=R5", "R6"]], ["R5", "K9", "Y9", "B1"],
         [["R4", "R5", "R6"], ["J=B9", "K9", "Y9"]]),
    move(R, "joker_kept", [["R4", "J=R5", "R6"]], ["R5", "K2"], [["R4", "R5", "R6"]], code="table_mismatch"),
    move(R, "leftover", [["B5", "B6", "B7"]], ["K5", "Y5", "R2"], [["B6", "B7"], ["B5", "K5", "Y5"]],
         code="invalid_meld"),
    move(R, "initial_touches_table", [["B5", "B6", "B7"]], ["B8", "R10", "R11", "R12"],
         [["B5", "B6", "B7", "B8"], ["R10", "R11", "R12"]], code="initial_meld_touches_table", opened=False),
    # end of the round (RULES.md §5 "End", D-15, D-22)
    scoring(R, "end_rami", [
        ([], "13 + 35 + 26"),
        (["R3", "K10"], "−(3 + 10)"),
        (["J", "B5"], "−(30 + 5)"),
        (["Y12", "Y13", "K1"], "−(12 + 13 + 1)"),
    ], [74, -13, -35, -26], finisher=0),
    scoring(R, "end_joker_50", [
        ([], "13 + 55 + 26"),
        (["R3", "K10"], "−(3 + 10)"),
        (["J", "B5"], "−(50 + 5)"),
        (["Y12", "Y13", "K1"], "−(12 + 13 + 1)"),
    ], [94, -13, -55, -26], finisher=0, options={"joker_value": 50}),
    scoring(R, "end_blocked", [
        (["R2", "K3"], "(10 − 5) + (45 − 5) + (7 − 5)"),
        (["B10"], "−(10 − 5)"),
        (["Y7", "Y8", "J"], "−(45 − 5)"),
        (["K1", "K2", "K4"], "−(7 − 5)"),
    ], [47, -5, -40, -2], finisher=None),
    scoring(R, "end_one_turn", [
        ([], "(13 + 5 + 26) × 2"),
        (["R3", "K10"], "−(3 + 10) × 2"),
        (["B5"], "−5 × 2"),
        (["Y12", "Y13", "K1"], "−(12 + 13 + 1) × 2"),
    ], [88, -26, -10, -52], finisher=0, direct=True, options={"double_one_turn": True}),
]
