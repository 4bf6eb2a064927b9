"""Meld classification, points and wild resolution per ruleset (RULES.md §1, §2)."""
import pytest

from games.engine.api import resolve_meld
from games.engine.melds import classify, extensions, rules_for


def info(ruleset, tiles, indicator="R5"):
    m = classify(tiles, ruleset, indicator)
    return None if m is None else (m.type, m.points)


def test_it_accepts_ace_after_13_only_in_okey51():
    assert info("okey51", ["B12", "B13", "B1"]) == ("run", 26)  # D-3: the 1 is worth 1
    assert info("okey17", ["B12", "B13", "B1"]) is None
    assert info("rami", ["B12", "B13", "B1"], None) is None


def test_it_refuses_ace_in_the_middle_of_a_run():
    assert info("okey51", ["B13", "B1", "B2"]) is None


def test_it_accepts_ace_before_two_everywhere():
    assert info("okey51", ["K1", "K2", "K3"]) == ("run", 6)
    assert info("okey17", ["K1", "K2", "K3"]) == ("run", 2)


def test_it_refuses_a_run_of_two_colours_and_a_group_with_a_repeated_colour():
    assert info("okey51", ["B4", "B5", "K6"]) is None
    assert info("okey51", ["B9", "B9", "K9"]) is None
    assert info("okey51", ["B9", "K9", "Y9", "R9", "B9"]) is None


def test_validity_does_not_depend_on_the_given_order():
    assert info("okey51", ["B6", "B4", "B5"]) == ("run", 15)
    assert info("okey51", ["B1", "B13", "B12"]) == ("run", 26)


def test_it_stores_runs_lowest_first_also_descending_okey17_runs():
    assert classify(["R9", "R8", "R7"], "okey17", "R5").tiles == ("R7", "R8", "R9")
    assert classify(["B1", "R6=B13", "B12"], "okey51", "R5").tiles == ("B12", "R6=B13", "B1")


def test_the_false_joker_plays_as_the_okey_identity_not_as_a_wild():
    assert info("okey51", ["B4", "F", "B6"]) is None
    assert info("okey51", ["R5", "F", "R7"]) == ("run", 18)
    assert classify(["R5", "F", "R7"], "okey51", "R5").faces == ("R5", "R6", "R7")


def test_a_bare_okey_stands_for_itself():
    assert info("okey51", ["R5", "R6", "R7"]) == ("run", 18)
    assert info("okey51", ["B5", "R6", "B7"]) is None


def test_an_annotated_wild_must_be_the_okey():
    assert info("okey51", ["B4", "R6=B5", "B6"]) == ("run", 15)
    assert info("okey51", ["B4", "R7=B5", "B6"]) is None
    assert info("okey51", ["B4", "F=B5", "B6"]) is None


def test_it_needs_one_tile_that_is_not_wild():  # D-4
    assert info("okey51", ["R6=B4", "R6=B5", "R6=B6"]) is None
    assert info("rami", ["J=B4", "J=B5", "J=B6"], None) is None
    assert info("rami", ["J=B4", "J=B5", "B6"], None) == ("run", 15)


def test_pairs_are_two_identical_tiles_and_a_wild_pairs_with_any_tile():
    assert info("okey51", ["B9", "B9"]) == ("pair", 18)
    assert info("okey51", ["B9", "K9"]) is None
    assert info("okey51", ["B9", "R6=B9"]) == ("pair", 18)
    assert info("okey51", ["R6", "R6"]) == ("pair", 12)  # the two okeys
    assert info("okey17", ["B9", "B9"]) == ("pair", 9)
    assert info("rami", ["B9", "B9"], None) is None


def test_okey17_meld_values():  # RULES.md §2, D-6
    assert info("okey17", ["R1", "R2", "R3", "R4", "R5", "R6", "R7"], "K5") == ("run", 10)
    assert info("okey17", ["K13", "B13", "Y13"]) == ("group", 13)
    assert info("okey17", ["K13", "B13", "Y13", "R13"]) == ("group", 14)
    assert info("okey17", ["B10", "B11", "B12", "B13"]) == ("run", 13)


def test_a_wild_counts_the_value_it_represents():
    assert info("okey51", ["K9", "R6=B9", "Y9"]) == ("group", 27)


def test_extensions_name_both_ends_and_missing_colours():
    run = classify(["B5", "B6", "B7"], "okey51", "R5")
    assert sorted(extensions(run, rules_for("okey51"))) == [("B4", "low"), ("B8", "high")]
    top = classify(["B12", "B13", "B1"], "okey51", "R5")
    assert extensions(top, rules_for("okey51")) == [("B11", "low")]
    full = classify([f"B{n}" for n in range(1, 14)], "okey51", "R5")
    assert extensions(full, rules_for("okey51")) == []  # 13 tiles: the 1 cannot come again after 13
    group = classify(["K9", "B9", "Y9"], "okey51", "R5")
    assert extensions(group, rules_for("okey51")) == [("R9", "any")]


@pytest.mark.parametrize("ruleset,tiles,indicator,expect", [
    ("okey51", ["R4", "R6", "R6"], "R5", ["R4", "R6=R5", "R6"]),
    ("okey51", ["B4", "R6", "B6"], "R5", ["B4", "R6=B5", "B6"]),
    ("okey51", ["B12", "B13", "R6"], "R5", ["B12", "B13", "R6=B1"]),
    ("okey17", ["B9", "B8", "R6"], "R5", ["B9", "B8", "R6=B7"]),
    ("okey51", ["K5", "R6", "B5"], "R5", ["K5", "R6=R5", "B5"]),
    ("okey51", ["K5", "R6"], "R5", ["K5", "R6=K5"]),
    ("rami", ["R12", "R13", "J"], None, ["R12", "R13", "J=R11"]),
    ("okey51", ["B4", "R6", "K7"], "R5", None),
])
def test_resolve_meld_annotates_bare_wilds_following_the_rack_order(ruleset, tiles, indicator, expect):
    got = resolve_meld(ruleset, tiles, indicator)
    assert got == expect
    if got is not None:
        assert classify(got, ruleset, indicator) is not None
