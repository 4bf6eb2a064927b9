"""Each example of ``examples/`` as the figure its page shows (``templates/rules/examples/``).

The pages never write an example's tiles or numbers by hand: they place these figures
(``{{ ex.<id> }}``), so what a player reads is the data the tests check with the engine.
"""
from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import npgettext, pgettext, pgettext_lazy

from games.engine import api
from games.engine.tiles import FALSE_JOKER
from games.errors import error_message

from .examples import examples_of
from .tiles import tile_name, tile_view

DIRECT_NOTES = {
    "okey17": pgettext_lazy("rules", "Direct finish: %(player)s opened in the finishing turn"),
    "rami": pgettext_lazy("rules", "%(player)s laid every tile in one turn, having laid none before"),
}
"""What a ``direct`` end is in each ruleset that has one (RULES.md §4 D-13, §5)."""


def player(seat: int) -> str:
    """A seat as players count them: seat 0 is "Player 1"."""
    return pgettext("rules", "Player %(n)s") % {"n": seat + 1}


def points(n: int) -> str:
    """``n`` points in words ("1 point", "26 points")."""
    return npgettext("rules", "%(n)s point", "%(n)s points", abs(n)) % {"n": n}


def signed(n: int) -> str:
    """A score as a player writes it: ``+40``, ``−500`` (a real minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def meld_types() -> dict:
    return {"run": pgettext("rules", "run"), "group": pgettext("rules", "group"), "pair": pgettext("rules", "pair")}


def opened_labels() -> dict:
    return {"no": pgettext("rules", "not opened"), "melds": pgettext("rules", "opened with melds"),
            "pairs": pgettext("rules", "opened with pairs"), None: ""}


def roles() -> dict:
    return {"you": pgettext("rules", "you"), "owner": pgettext("rules", "the meld's owner"),
            "discarder": pgettext("rules", "who discarded it")}


def _tiles(tiles: list[str], example: dict) -> list[dict]:
    return [tile_view(t, example["ruleset"], example.get("indicator")) for t in tiles]


def _tile(tile: str | None, example: dict) -> dict | None:
    return tile_view(tile, example["ruleset"], example.get("indicator")) if tile else None


def _meld(example: dict) -> dict:
    verdict = meld_types()[example["type"]] if example["valid"] else pgettext("rules", "not a meld")
    return {"tiles": _tiles(example["tiles"], example), "verdict": verdict,
            "points": points(example["points"]) if example["valid"] else "",
            "indicator": _tile(example["indicator"], example)}


def _indicator(example: dict) -> dict:
    return {"indicator": _tile(example["indicator"], example), "okey": _tile(example["okey"], example),
            "false_joker": _tile(FALSE_JOKER, example), "okey_name": tile_name(example["okey"])}


def _opening(example: dict) -> dict:
    pairs = example["unit"] == "pairs"
    amount = (lambda n: npgettext("rules", "%(n)s pair", "%(n)s pairs", n) % {"n": n}) if pairs else points
    context = []
    if example["highest_opening"] is not None:
        context.append(pgettext("rules", "Highest opening so far: %(n)s") % {"n": example["highest_opening"]})
    if example["options"].get("doubling") is False:
        context.append(pgettext("rules", "Table without doubling"))
    return {"melds": [{"tiles": _tiles(m["tiles"], example), "points": "" if pairs else m["points"]}
                      for m in example["melds"]],
            "total": amount(example["total"]), "needs": amount(example["needs"]), "opens": example["opens"],
            "context": context}


def _action(example: dict) -> tuple[str, list]:
    action = example["action"]
    kind = action["type"]
    if kind == "take_discard":
        return pgettext("rules", "Take the discard and add it"), _tiles([action["then"]["tile"]], example)
    if kind == "meld":
        return (pgettext("rules", "Lay a pair in the area of %(player)s") % {"player": player(action["owner"])},
                _tiles(action["tiles"], example))
    label = {"discard": pgettext("rules", "Discard"), "add": pgettext("rules", "Add"),
             "swap": pgettext("rules", "Swap for the okey")}[kind]
    return label, _tiles([action["tile"]], example)


def _penalty(example: dict) -> dict:
    label, tiles = _action(example)
    names = roles()
    teams = bool(example["options"].get("teams"))
    owners = {m["owner"]: player(m["owner"]) for m in example["table"]}
    if teams and 2 in owners:  # partners sit face to face: seats 0 and 2 (RULES.md §1)
        owners[2] = pgettext("rules", "%(player)s, your partner") % {"player": owners[2]}
    previous = len(example["opened"]) - 1  # the seat before seat 0, whose discard seat 0 may take
    return {"indicator": _tile(example["indicator"], example),
            "table": [{"owner": owners[m["owner"]], "tiles": _tiles(m["tiles"], example)} for m in example["table"]],
            "rack": _tiles(example["rack"], example), "discard": _tile(example["discard"], example),
            "discarder": player(previous), "action": label, "action_tiles": tiles,
            "charges": [{"who": f"{player(c['seat'])} ({names[c['role']]})", "amount": signed(c["amount"])}
                        for c in example["charges"]],
            "refused": not example["accepted"]}


def _move(example: dict) -> dict:
    return {"table": [_tiles(m, example) for m in example["table"]], "rack": _tiles(example["rack"], example),
            "play": [_tiles(m, example) for m in example["play"]], "valid": example["valid"],
            "reason": error_message(example["code"]) if example["code"] else "",
            "opened": example["opened"]}


def _scoring(example: dict) -> dict:
    labels = opened_labels()
    finisher = example["finisher"]
    badges = {finisher: pgettext("rules", "finished")}
    if finisher is None and api.ruleset(example["ruleset"]).higher_wins:  # rami blocked: the lowest rack wins (D-15)
        badges = {example["scores"].index(max(example["scores"])): pgettext("rules", "lowest rack: wins the round")}
    rows = [{"player": player(seat), "role": badges.get(seat, ""),
             "opened": labels[row["opened"]], "rack": _tiles(row["rack"], example), "calc": row["calc"],
             "score": signed(score)}
            for seat, (row, score) in enumerate(zip(example["seats"], example["scores"]))]
    notes = []
    options = example["options"]
    if options.get("joker_value") == 50:
        notes.append(pgettext("rules", "Joker worth 50"))
    if options.get("double_one_turn"):
        notes.append(pgettext("rules", "Double for going out in one turn"))
    if example["direct"]:
        notes.append(str(DIRECT_NOTES[example["ruleset"]]) % {"player": player(finisher)})
    if finisher is None:
        notes.append(pgettext("rules", "The pile ran out: nobody finished"))
    return {"rows": rows, "with_opened": any(row["opened"] for row in example["seats"]),
            "indicator": _tile(example["indicator"], example),
            "final_discard": _tile(example["final_discard"], example), "notes": notes}


PREPARE = {"meld": _meld, "indicator": _indicator, "opening": _opening, "penalty": _penalty, "move": _move,
           "scoring": _scoring}


def render_examples(ruleset: str) -> dict[str, SafeString]:
    """Every example of ``ruleset``'s page rendered in the active language: ``{id: html}``.
    KeyError for a ruleset without a rules page."""
    out = {}
    for example in examples_of(ruleset):
        context = {"example": example, **PREPARE[example["kind"]](example)}
        out[example["id"]] = render_to_string(f"rules/examples/{example['kind']}.html", context)
    return out
