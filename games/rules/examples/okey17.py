"""The examples of the okey17 rules page (RULES.md §1, §2, §4), as data (``kinds.py``)."""
from .kinds import indicator, meld, opening, penalty, scoring

R = "okey17"

EXAMPLES = [
    indicator(R, "indicator_k4", "K4", "K5"),
    # melds and their values (RULES.md §2, D-6)
    meld(R, "run", ["B4", "B5", "B6"], "run", 5),
    meld(R, "run_five", ["Y9", "Y10", "Y11", "Y12", "Y13"], "run", 14),
    meld(R, "run_long", ["R1", "R2", "R3", "R4", "R5", "R6", "R7"], "run", 10),
    meld(R, "run_descending", ["R7", "R6", "R5"], "run", 6),
    meld(R, "run_ace_high", ["B12", "B13", "B1"]),
    meld(R, "group", ["K9", "R9", "Y9"], "group", 9),
    meld(R, "group_four", ["K9", "R9", "Y9", "B9"], "group", 10),
    meld(R, "group_13", ["K13", "R13", "Y13"], "group", 13),
    meld(R, "pair", ["Y13", "Y13"], "pair", 13),
    meld(R, "run_okey", ["R8", "K5=R9", "R10"], "run", 9, indicator="K4"),
    # openings: 17, then above the highest opening; pairs at ⌈1.5 × threshold⌉ (D-11)
    opening(R, "open_17", [(["R8", "R9", "R10", "R11"], 11), (["K7", "Y7", "B7"], 7)], 18, 17, True),
    opening(R, "open_short", [(["B4", "B5", "B6"], 5), (["K9", "R9", "Y9"], 9)], 14, 17, False),
    opening(R, "rising_18", [(["R8", "R9", "R10", "R11"], 11), (["K7", "Y7", "B7"], 7)], 18, 19, False,
            highest_opening=18),
    opening(R, "rising_19", [(["R8", "R9", "R10", "R11"], 11), (["K8", "Y8", "B8"], 8)], 19, 19, True,
            highest_opening=18),
    opening(R, "pairs_26", [(["Y13", "Y13"], 13), (["B8", "B8"], 8), (["R5", "R5"], 5)], 26, 26, True),
    opening(R, "pairs_29", [(["Y13", "Y13"], 13), (["B8", "B8"], 8), (["R5", "R5"], 5)], 26, 29, False,
            highest_opening=18),
    # penalties (RULES.md §4); indicator R5: the okey is R6, a red okey, base 400; you are seat 0
    penalty(R, "playable_discard", {"type": "discard", "tile": "B4"}, [(0, 100, "you")], indicator="R5",
            table=[(1, ["B5", "B6", "B7"])], rack=["B4", "K2", "Y11"], opened=("no", "melds", "no", "no"),
            accepted=False),
    penalty(R, "playable_discard_pairs", {"type": "discard", "tile": "B4"}, [(0, 200, "you")], indicator="R5",
            table=[(1, ["B5", "B6", "B7"])], rack=["B4", "K2", "Y11"], opened=("pairs", "melds", "no", "no"),
            accepted=False),
    penalty(R, "joker_discard", {"type": "discard", "tile": "R6"}, [(0, 400, "you")], indicator="R5",
            rack=["R6", "K2", "Y11"], opened=("no", "no", "no", "no"), accepted=False),
    penalty(R, "free_add", {"type": "add", "meld": 1, "tile": "B7"}, [], indicator="R5",
            table=[(1, ["B4", "B5", "B6"])], rack=["B7", "K2", "Y11"]),
    penalty(R, "joker_add", {"type": "add", "meld": 1, "tile": "R6=B7"}, [(1, 70, "owner")], indicator="R5",
            table=[(1, ["B4", "B5", "B6"])], rack=["R6", "K2", "Y11"]),
    penalty(R, "joker_add_pairs", {"type": "add", "meld": 1, "tile": "R6=B7"}, [(1, 140, "owner")],
            indicator="R5", table=[(1, ["B4", "B5", "B6"])], rack=["R6", "K2", "Y11"],
            opened=("pairs", "melds", "no", "no")),
    penalty(R, "joker_swap", {"type": "swap", "meld": 1, "tile": "B8"}, [(1, 80, "owner")], indicator="R5",
            table=[(1, ["B7", "R6=B8", "B9"])], rack=["B8", "K2", "Y11"]),
    penalty(R, "pair_in_area", {"type": "meld", "tiles": ["Y8", "Y8"], "owner": 1}, [(1, 160, "owner")],
            indicator="R5", table=[(1, ["K3", "K3"])], rack=["Y8", "Y8", "K2", "Y11"],
            opened=("melds", "pairs", "no", "no")),
    # end of the round (RULES.md §4 "Ending", D-13, D-14)
    scoring(R, "end_normal", [
        ([], "melds", "−500 ÷ 10"),
        (["R2", "B9", "Y12"], "melds", "10 × 3"),
        (["B1", "B2", "R9", "K9", "Y12", "K4", "R11"], "no", "500"),
        (["K1", "Y6", "Y8", "B13"], "pairs", "10 × 4 × 2"),
    ], [-50, 30, 500, 80], finisher=0, indicator="K4", final_discard="R3"),
    scoring(R, "end_joker", [
        ([], "melds", "−500 ÷ 10 × 2"),
        (["R2", "B9", "Y12"], "melds", "10 × 3 × 2"),
        (["B1", "B2", "R9", "K9", "Y12", "K4", "R11"], "no", "500 × 2"),
        (["K1", "Y6", "Y8", "B13"], "pairs", "10 × 4 × 2 × 2"),
    ], [-100, 60, 1000, 160], finisher=0, indicator="K4", final_discard="K5"),
    scoring(R, "end_direct", [
        ([], "melds", "−800 ÷ 10"),
        (["R2", "B9", "Y12"], "melds", "800 × 4"),
        (["B1", "B2", "R9", "K9", "Y12", "K4", "R11"], "no", "800 × 4"),
        (["K1", "Y6", "Y8", "B13"], "pairs", "800 × 4"),
    ], [-80, 3200, 3200, 3200], finisher=0, indicator="B7", final_discard="R3", direct=True),
    scoring(R, "end_pile_empty", [
        (["R2", "R5", "K12", "B3", "Y9"], "melds", "10 × 5"),
        (["B1", "B2", "R9", "K9", "Y12", "K4", "R11"], "no", "600"),
        (["K1", "Y6"], "pairs", "10 × 2 × 2"),
        (["R1", "R4", "B6", "B10", "K2", "K8", "Y1", "Y5"], "melds", "10 × 8"),
    ], [50, 600, 40, 80], finisher=None, indicator="Y10"),
]
