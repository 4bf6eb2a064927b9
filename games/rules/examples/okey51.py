"""The examples of the okey51 rules page (RULES.md §1-§3), as data (``kinds.py``)."""
from .kinds import indicator, meld, opening, penalty, scoring

R = "okey51"

EXAMPLES = [
    indicator(R, "indicator_r5", "R5", "R6"),
    indicator(R, "indicator_k13", "K13", "K1"),
    # melds (RULES.md §2): points are the sum of the numbers
    meld(R, "run", ["R4", "R5", "R6"], "run", 15),
    meld(R, "run_ace_low", ["Y1", "Y2", "Y3", "Y4"], "run", 10),
    meld(R, "run_ace_high", ["B12", "B13", "B1"], "run", 26),
    meld(R, "run_ace_middle", ["K13", "K1", "K2"]),
    meld(R, "group", ["B9", "R9", "K9"], "group", 27),
    meld(R, "group_four", ["R11", "B11", "K11", "Y11"], "group", 44),
    meld(R, "group_same_colour", ["R7", "R7", "K7"]),
    meld(R, "run_okey", ["Y3", "R6=Y4", "Y5"], "run", 12, indicator="R5"),
    meld(R, "group_false_joker", ["K6", "B6", "F"], "group", 18, indicator="R5"),
    meld(R, "pair", ["B9", "B9"], "pair", 18),
    meld(R, "pair_okey", ["K3", "R6=K3"], "pair", 6, indicator="R5"),
    # openings (RULES.md §3, D-21)
    opening(R, "open_51", [(["R10", "R11", "R12"], 33), (["K9", "B9", "Y9"], 27)], 60, 51, True),
    opening(R, "open_short", [(["Y5", "Y6", "Y7"], 18), (["K8", "R8", "B8"], 24)], 42, 51, False),
    opening(R, "doubling_68", [(["R10", "R11", "R12", "R13"], 46), (["Y4", "Y5", "Y6", "Y7"], 22)], 68, 69, False,
            highest_opening=68),
    opening(R, "doubling_69", [(["R9", "R10", "R11", "R12", "R13"], 55), (["K2", "K3", "K4", "K5"], 14)], 69, 69,
            True, highest_opening=68),
    opening(R, "no_doubling", [(["R10", "R11", "R12"], 33), (["K9", "B9", "Y9"], 27)], 60, 51, True,
            highest_opening=68, options={"doubling": False}),
    opening(R, "pairs_five", [(["R3", "R3"], 6), (["B8", "B8"], 16), (["K11", "K11"], 22), (["Y1", "Y1"], 2),
                              (["B13", "B13"], 26)], 5, 5, True, unit="pairs", highest_opening=68),
    opening(R, "pairs_four", [(["R3", "R3"], 6), (["B8", "B8"], 16), (["K11", "K11"], 22), (["Y1", "Y1"], 2)],
            4, 5, False, unit="pairs"),
    # penalties during the round (RULES.md §3); you are seat 0
    penalty(R, "penalty_tile", {"type": "discard", "tile": "B4"}, [(0, 100, "you")], indicator="Y2",
            table=[(1, ["B5", "B6", "B7"])], rack=["B4", "K2", "Y11"], opened=("no", "melds", "no", "no")),
    penalty(R, "taken_discard", {"type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "K8"}},
            [(3, 80, "discarder")], indicator="Y2", table=[(0, ["K5", "K6", "K7"])], rack=["R2", "Y11", "B13"],
            discard="K8"),
    penalty(R, "add", {"type": "add", "meld": 1, "tile": "B7"}, [(1, 70, "owner")], indicator="Y2",
            table=[(1, ["B4", "B5", "B6"])], rack=["B7", "K2", "Y11"]),
    penalty(R, "add_okey", {"type": "add", "meld": 1, "tile": "R6=B3"}, [(1, 30, "owner")], indicator="R5",
            table=[(1, ["B4", "B5", "B6"])], rack=["R6", "K2", "Y11"]),
    penalty(R, "swap", {"type": "swap", "meld": 1, "tile": "B8"}, [(1, 180, "owner")], indicator="R5",
            table=[(1, ["B7", "R6=B8", "B9"])], rack=["B8", "K2", "Y11"]),
    penalty(R, "partner_add", {"type": "add", "meld": 1, "tile": "B7"}, [], indicator="Y2",
            table=[(2, ["B4", "B5", "B6"])], rack=["B7", "K2", "Y11"], options={"teams": True}),
    # end of the round (RULES.md §3 table, D-20); indicator Y2 makes Y3 the okey
    scoring(R, "end_hand", [
        ([], "melds", "−500"),
        (["R3", "K5"], "melds", "(3 + 5) × 5"),
        (["B1", "B2", "R9", "K9", "Y12", "K4"], "no", "500"),
        (["B10", "Y3", "F"], "melds", "(10 + 3) × 5 + 500"),
    ], [-500, 40, 500, 565], finisher=0, indicator="Y2", final_discard="R8"),
    scoring(R, "end_okey", [
        ([], "melds", "−1000"),
        (["R3", "K5"], "melds", "(3 + 5) × 10"),
        (["B1", "B2", "R9", "K9", "Y12", "K4"], "no", "1000"),
        (["B10", "B12"], "pairs", "(10 + 12) × 10"),
    ], [-1000, 80, 1000, 220], finisher=0, indicator="Y2", final_discard="Y3"),
    scoring(R, "end_pairs", [
        ([], "pairs", "−1000"),
        (["K13"], "melds", "13 × 10"),
        (["Y3", "R1"], "melds", "1 × 10 + 500"),
        (["B1", "B2", "R9", "K9", "Y12", "K4"], "no", "1000"),
    ], [-1000, 130, 510, 1000], finisher=0, indicator="Y2", final_discard="K6"),
    scoring(R, "end_draw", [
        (["R2", "R5", "K12"], "melds", "(2 + 5 + 12) × 5"),
        (["B1", "B2", "R9", "K9", "Y12", "K4"], "no", "500"),
        (["B7", "B8", "Y3"], "pairs", "(7 + 8) × 10 + 1000"),
        (["Y3", "K1"], "melds", "1 × 5 + 500"),
    ], [95, 500, 1150, 505], finisher=None, indicator="Y2"),
]
