"""The rules pages: every example they show is what the engine says, every example is on
its page in each language, and each page renders for visitors and players alike."""
from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from games.engine import api
from games.engine.rulesets.okey51 import MIN_PAIRS
from games.engine.tiles import COLOURS, okey_of, split_wild
from games.rules.examples import EXAMPLES
from games.rules.examples.kinds import ROLES

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("fr", "es", "en", "tr")
ALL = [example for examples in EXAMPLES.values() for example in examples]


def ids(example):
    return f"{example['ruleset']}-{example['id']}"


def of_kind(kind):
    return [example for example in ALL if example["kind"] == kind]


def spare_indicator(tiles):
    """An indicator whose okey is none of ``tiles`` (so that no tile of an example turns wild)."""
    physical = {split_wild(t)[0] for t in tiles}
    return next(f"{c}{n}" for c in COLOURS for n in range(1, 14) if okey_of(f"{c}{n}") not in physical)


def okey_position(ruleset, indicator, racks, opened, table=(), phase="play", options=None, discard=None,
                  highest_opening=None):
    """A loaded okey position (RULES.md §7) with seat 0 to move."""
    discards = [[] for _ in racks]
    if discard:
        discards[-1] = [discard]
    return {"ruleset": ruleset, "options": dict(options or {}), "indicator": indicator, "turn": 0, "phase": phase,
            "pile": ["K13", "Y13", "R13"], "discards": discards,
            "seats": [{"rack": list(rack), "opened": o, "penalty": 0} for rack, o in zip(racks, opened)],
            "table": [dict(meld) for meld in table], "highest_opening": highest_opening}


def rami_position(rack, table=(), opened=False):
    return {"ruleset": "rami", "turn": 0, "pile": ["K13", "Y13"], "table": [list(m) for m in table],
            "seats": [{"rack": list(rack), "opened": "yes" if opened else "no"}]
            + [{"rack": ["Y13", "K12"], "opened": "no"} for _ in range(3)]}


def evaluate(calc):
    """The value of a worked sum as the page writes it (× ÷ + − and brackets)."""
    expression = calc.replace("×", "*").replace("÷", "//").replace("−", "-")
    assert re.fullmatch(r"[\d\s()+\-*/]+", expression), calc
    return eval(expression, {"__builtins__": {}})  # noqa: S307 - digits and operators only, checked above


# ------------------------------------------------------------------ the examples against the engine
def test_example_ids_are_unique_within_a_page_and_kinds_are_known():
    for ruleset, examples in EXAMPLES.items():
        api.ruleset(ruleset)
        names = [example["id"] for example in examples]
        assert len(names) == len(set(names)), ruleset
        assert all(re.fullmatch(r"[a-z0-9_]+", name) for name in names)
        assert all(example["ruleset"] == ruleset for example in examples)
    assert {example["kind"] for example in ALL} == {"meld", "indicator", "opening", "penalty", "move", "scoring"}


@pytest.mark.parametrize("example", of_kind("meld"), ids=ids)
def test_a_meld_example_is_what_the_engine_says(example):
    info = api.meld_info(example["ruleset"], example["tiles"], example["indicator"])
    if example["valid"]:
        assert info == {"valid": True, "type": example["type"], "points": example["points"]}
    else:
        assert info == {"valid": False}
        assert example["points"] is None


@pytest.mark.parametrize("example", of_kind("indicator"), ids=ids)
def test_an_indicator_example_names_the_okey_and_the_false_joker_plays_as_it(example):
    okey = example["okey"]
    assert okey_of(example["indicator"]) == okey
    colour, number = okey[0], int(okey[1:])
    others = [c for c in COLOURS if c != colour][:2]
    # F is an ordinary tile with the okey's identity: it completes a group of the okey's number
    group = [f"{c}{number}" for c in others]
    as_false_joker = api.meld_info(example["ruleset"], group + ["F"], example["indicator"])
    assert as_false_joker["valid"] and as_false_joker == api.meld_info(example["ruleset"], group + [okey])


@pytest.mark.parametrize("example", of_kind("opening"), ids=ids)
def test_an_opening_example_reaches_the_threshold_it_claims(example):
    ruleset, melds = example["ruleset"], [meld["tiles"] for meld in example["melds"]]
    for meld in example["melds"]:
        info = api.meld_info(ruleset, meld["tiles"], example["indicator"])
        assert info["valid"] and info["points"] == meld["points"], meld
    pairs = all(len(tiles) == 2 for tiles in melds)
    if example["unit"] == "pairs":
        assert pairs and example["total"] == len(melds)
    else:
        assert example["total"] == sum(meld["points"] for meld in example["melds"])
    rack = [split_wild(t)[0] for tiles in melds for t in tiles] + ["K13"]
    if api.ruleset(ruleset).has_indicator:
        indicator = example["indicator"] or spare_indicator(rack)
        position = okey_position(ruleset, indicator, [rack] + [["Y13", "K12"]] * 3, ["no"] * 4,
                                 options=example["options"], highest_opening=example["highest_opening"])
        view = api.view(position, 0)
        if example["unit"] == "pairs":
            assert example["needs"] == MIN_PAIRS
        else:
            assert example["needs"] == (view.get("pairs_threshold") if pairs else view["threshold"])
        done = api.step(position, {"seat": 0, "type": "open", "melds": melds})
    else:
        position = rami_position(rack)
        assert example["needs"] == api.view(position, 0)["threshold"]
        done = api.step(position, {"seat": 0, "type": "play", "table": melds})
    assert (done.accepted, done.code) == ((True, None) if example["opens"] else (False, "below_threshold"))
    assert example["opens"] == (example["total"] >= example["needs"])


@pytest.mark.parametrize("example", of_kind("penalty"), ids=ids)
def test_a_penalty_example_charges_what_the_engine_charges(example):
    others = [["Y13", "K12", "R1"]] * 3
    phase = "draw" if example["action"]["type"] == "take_discard" else "play"
    position = okey_position(example["ruleset"], example["indicator"], [example["rack"]] + others,
                             example["opened"], example["table"], phase, example["options"], example["discard"])
    done = api.step(position, {"seat": 0, **example["action"]})
    assert done.accepted == example["accepted"], done.code
    assert [(p.seat, p.amount) for p in done.penalties] == [(c["seat"], c["amount"]) for c in example["charges"]]
    if not example["accepted"]:
        assert done.position["seats"][0]["rack"] == position["seats"][0]["rack"]  # the tile stays in the rack
    owner = next((m["owner"] for m in example["table"] if m["id"] == example["action"].get("meld")),
                 example["action"].get("owner"))
    for charge in example["charges"]:
        assert charge["role"] in ROLES
        expected = {"you": 0, "owner": owner, "discarder": len(position["seats"]) - 1}[charge["role"]]
        assert charge["seat"] == expected, charge


@pytest.mark.parametrize("example", of_kind("move"), ids=ids)
def test_a_rami_move_example_is_accepted_or_refused_as_it_says(example):
    position = rami_position(example["rack"], example["table"], example["opened"])
    done = api.step(position, {"seat": 0, "type": "play", "table": example["play"]})
    assert (done.accepted, done.code) == (example["valid"], example["code"])


@pytest.mark.parametrize("example", of_kind("scoring"), ids=ids)
def test_a_scoring_example_is_what_the_engine_scores(example):
    seats = [{"rack": seat["rack"], "opened": seat["opened"] or "yes"} for seat in example["seats"]]
    scores = api.score(example["ruleset"], example["options"], seats, example["finisher"], example["indicator"],
                       example["final_discard"], example["direct"])
    assert scores == example["scores"]
    assert [evaluate(seat["calc"]) for seat in example["seats"]] == scores
    if example["finisher"] is not None:
        assert example["seats"][example["finisher"]]["rack"] == []


# ------------------------------------------------------------------ the pages
def page(client, path, language):
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (path, language)
    return response.content.decode()


def figure(html, example):
    """The figure of ``example`` on a rendered page (None when it is not there)."""
    found = re.findall(rf'<figure class="rx[^"]*" data-example="{example["id"]}">(.*?)</figure>', html, re.S)
    assert len(found) <= 1, f"{example['id']} is shown {len(found)} times"
    return found[0] if found else None


def tiles_shown(kind_html):
    return re.findall(r'data-tile="([^"]+)"', kind_html)


def tiles_of(example):
    """The tiles an example's figure draws, in order."""
    kind = example["kind"]
    if kind == "meld":
        return example["tiles"] + ([example["indicator"]] if example["indicator"] else [])
    if kind == "indicator":
        return [example["indicator"], example["okey"], example["okey"], "F", "F"]
    if kind == "opening":
        return [t for meld in example["melds"] for t in meld["tiles"]]
    if kind == "penalty":
        action = example["action"]
        played = ([action["then"]["tile"]] if "then" in action else action.get("tiles") or [action["tile"]])
        return ([example["indicator"]] + [t for meld in example["table"] for t in meld["tiles"]]
                + ([example["discard"]] if example["discard"] else []) + example["rack"] + played)
    if kind == "move":
        return ([t for meld in example["table"] for t in meld] + example["rack"]
                + [t for meld in example["play"] for t in meld])
    return ([t for t in (example["indicator"], example["final_discard"]) if t]
            + [t for seat in example["seats"] for t in seat["rack"]])


def numbers_of(example):
    """Numbers an example's figure must show (as the page writes them)."""
    def signed(n):
        return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"
    kind = example["kind"]
    if kind == "meld":
        return [str(example["points"])] if example["valid"] else []
    if kind == "opening":
        return [str(example["total"]), str(example["needs"])] + [str(m["points"]) for m in example["melds"]
                                                                 if example["unit"] == "points"]
    if kind == "penalty":
        return [signed(c["amount"]) for c in example["charges"]]
    if kind == "scoring":
        return [signed(s) for s in example["scores"]] + [seat["calc"] for seat in example["seats"]]
    return []


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", list(EXAMPLES))
def test_every_example_is_on_its_page_in_every_language(client, ruleset, language):
    html = page(client, reverse("rules", args=[ruleset]), language)
    assert f'<html lang="{language}">' in html
    assert f'data-lang="{language}"' in html  # the page's own language text, not the English fallback
    for example in EXAMPLES[ruleset]:
        shown = figure(html, example)
        assert shown is not None, f"{example['id']} is missing from the {language} page"
        assert tiles_shown(shown) == tiles_of(example), example["id"]
        text = unescape(re.sub(r"<[^>]+>", " ", shown))
        for number in numbers_of(example):
            assert number in text, (example["id"], number)
        verdict = {"meld": "valid", "opening": "opens", "move": "valid"}.get(example["kind"])
        if verdict:
            assert ('class="verdict ok"' in shown) == example[verdict], example["id"]


def test_the_page_texts_place_only_examples_that_exist():
    for ruleset, examples in EXAMPLES.items():
        names = {example["id"] for example in examples}
        for language in LANGUAGES:
            source = (ROOT / "templates" / "rules" / ruleset / f"{language}.html").read_text()
            placed = re.findall(r"\{\{\s*ex\.(\w+)\s*\}\}", source)
            assert set(placed) <= names, (ruleset, language, set(placed) - names)
            assert len(placed) == len(set(placed)), (ruleset, language)
            assert "{{" not in re.sub(r"\{\{\s*ex\.\w+\s*\}\}", "", source), (ruleset, language)


def rules_catalogue(language):
    """``{msgid: msgstr}`` of the rules pages' entries (msgctxt "rules") in a django.po."""
    text = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text()
    entries = {}
    for block in text.split("\n\n"):
        if 'msgctxt "rules"' not in block:
            continue
        assert "fuzzy" not in block, block
        join = lambda part: "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', part))  # noqa: E731
        msgid = join(re.search(r'^msgid ((?:".*"\n?)+)', block, re.M).group(1))
        strs = re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block, re.M)
        entries[msgid] = [join(s) for s in strs]
    return entries


def test_every_rules_string_is_translated_in_french_spanish_and_turkish():
    english = rules_catalogue("en")
    assert len(english) > 50
    for language in ("fr", "es", "tr"):
        entries = rules_catalogue(language)
        assert set(entries) == set(english), language
        assert all(s for strs in entries.values() for s in strs), [k for k, v in entries.items() if not all(v)]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ("fr", "es", "tr"))
def test_no_english_is_left_on_the_other_languages_pages(client, language):
    with translation.override(language):
        from django.utils.translation import pgettext
        english = [msgid for msgid in rules_catalogue("en") if len(msgid) >= 12 and "%(" not in msgid
                   and pgettext("rules", msgid) != msgid]
    assert english
    for path in [reverse("rules_index")] + [reverse("rules", args=[r]) for r in EXAMPLES]:
        html = unescape(page(client, path, language))
        left = [msgid for msgid in english if msgid in html]
        assert not left, (path, left)
        assert not re.search(r"\{[{%]|\bTODO\b|\bFIXME\b", html), path


@pytest.mark.django_db
def test_the_index_names_each_game_and_links_to_its_rules(client):
    html = page(client, reverse("rules_index"), "en")
    for ruleset in EXAMPLES:
        assert f'href="/rules/{ruleset}/"' in html
        assert api.ruleset(ruleset).name in html
    # linked from the nav of every page
    assert f'href="{reverse("rules_index")}"' in page(client, reverse("lobby"), "en")


@pytest.mark.django_db
def test_the_pages_are_open_to_players_as_well_as_visitors(client, make_user):
    client.force_login(make_user("rulesreader"))
    for path in [reverse("rules_index")] + [reverse("rules", args=[r]) for r in EXAMPLES]:
        html = page(client, path, "en")
        assert "rulesreader" in html  # the signed-in nav


@pytest.mark.django_db
def test_a_game_without_rules_is_a_404(client):
    assert client.get("/rules/chess/").status_code == 404


def test_every_game_has_its_rules_in_the_four_languages():
    for ruleset in EXAMPLES:
        for language in LANGUAGES:
            get_template(f"rules/{ruleset}/{language}.html")
        assert reverse("rules", args=[ruleset]) == f"/rules/{ruleset}/"


@pytest.mark.parametrize("text, indicator, label, classes, mark", [
    ("R5", "Y2", "5", {"tile", "c-R"}, "●"),
    ("R6=Y4", "R5", "4", {"tile", "wild", "c-Y"}, "◆"),
    ("R6", "R5", "6", {"tile", "wild", "c-R"}, "●"),
    ("F", "R5", "✦", {"tile", "false-joker", "c-R"}, "●"),
    ("B13", None, "13", {"tile", "c-B"}, "■"),
    ("K1", "Y2", "1", {"tile", "c-K"}, "▲"),
])
def test_an_okey_tile_is_drawn_as_at_the_table_with_its_colour_mark(text, indicator, label, classes, mark):
    from games.rules.tiles import tile_view
    view = tile_view(text, "okey51", indicator)
    assert (view["label"], set(view["classes"].split()), view["mark"]) == (label, classes, mark)


def test_a_rami_joker_is_drawn_as_at_the_table():
    from games.rules.tiles import tile_view
    with translation.override("en"):
        bare, standing = tile_view("J", "rami"), tile_view("J=K7", "rami")
    assert (bare["label"], set(bare["classes"].split()), bare["title"]) == (
        "☺", {"tile", "wild", "joker", "c-K"}, "joker")
    assert (standing["label"], standing["mark"], standing["title"]) == ("7", "▲", "joker as black 7")
    assert {"wild", "joker", "c-K"} <= set(standing["classes"].split())
