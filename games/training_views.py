""""Find the better move" (`/training/`): a player's own reviewed mistakes as puzzles, with
no clock; the answer is judged as the review judged the turn (games/training.py)."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import review_text, training
from games.rules.tiles import tile_view, tile_words


def _tiles(tiles, ruleset, indicator):
    return [tile_view(t, ruleset, indicator) for t in tiles]


def _board(row, turn, view):
    """What the page draws of the puzzle's position (the seat's own view)."""
    ruleset, seat = row.ruleset, row.seat
    indicator = view.get("indicator")
    table = view.get("table") or []
    melds = [_tiles(m["tiles"] if isinstance(m, dict) else m, ruleset, indicator) for m in table]
    rack = sorted(view["rack"])
    opened = view.get("opened") or []
    players = len(opened)
    others = []
    for k in range(1, players):
        other = (seat + k) % players
        discards = (view.get("discards") or [[]] * players)[other]
        others.append({"seat": other + 1, "next": k == 1, "opened": opened[other], "tiles": view["rack_counts"][other],
                       "discards": _tiles(discards[-4:], ruleset, indicator)})
    replay = reverse("replay", args=[row.round.match.table_id])
    return {"ruleset": ruleset, "melds": melds,
            "indicator": tile_view(indicator, ruleset, indicator) if indicator else None,
            "okey": tile_view(view["okey"], ruleset, indicator) if view.get("okey") else None,
            "rack": [{"tile": t, "view": tile_view(t, ruleset, indicator), "index": i} for i, t in enumerate(rack)],
            "opened": opened[seat] if seat < players else "no", "others": others,
            "multiple": training.kind_of(row, turn) in ("open", "finish", "take", "lay"),
            "take": _take_choice(row, turn, view),
            "pile": view.get("pile_count"),
            "replay": f"{replay}?round={row.round.number}&move={turn['moves'][-1] - 1}"}


def _take_choice(row, turn, view):
    """The previous seat's discard a take puzzle offers (drawn like a rack tile), or None."""
    if training.kind_of(row, turn) != "take":
        return None
    players = len(view.get("opened") or [])
    pile = (view.get("discards") or [[]] * players)[(row.seat - 1) % players]
    return {"tile": pile[-1], "view": tile_view(pile[-1], row.ruleset, view.get("indicator"))} if pile else None


def _verdict(row, turn, view, answer, judged):
    indicator = view.get("indicator")
    best = judged["best"]
    names = ", ".join(tile_words(t) for t in best)
    kind = training.kind_of(row, turn)
    if not judged["valid"]:
        summary = {"discard": _("Choose one tile of your rack to discard."),
                   "open": _("These tiles do not open: runs and groups reaching the threshold, or five pairs, "
                             "with a tile left to discard.") if row.ruleset == "okey51" else
                   _("These tiles do not open: runs and groups reaching the threshold, or pairs reaching the "
                     "pairs threshold, with a tile left to discard."),
                   "finish": _("These tiles do not all go to the table: lay melds (and adds once opened) "
                               "keeping one tile to discard."),
                   "take": _("The discard cannot be placed with these tiles: it must go into a new meld, "
                             "an opening or an add in the same move, with a tile left to discard."),
                   "swap": _("Choose one tile of your rack to swap for the okey.")}.get(
            kind, _("The table cannot take all of these tiles: choose tiles it can take."))
    elif judged["solved"]:
        summary = _("Solved: your move gives nothing away against the solver's (%(best)s).") % {"best": names}
    else:
        summary = _("Not the best move: it gives away %(points)s points against %(best)s.") % {
            "points": judged["cost"], "best": names}
    return {"valid": judged["valid"], "solved": judged["solved"], "summary": summary,
            "why": [review_text.reason_text(r) for r in judged["reasons"]],
            "better": _tiles(best, row.ruleset, indicator) if judged["valid"] and not judged["solved"] else [],
            "answer": answer}


@login_required
@require_http_methods(["GET", "POST"])
def training_page(request):
    """GET: the puzzle `?p=<id>` (default: the first one not solved yet); POST (`p`, the
    chosen rack tiles `tile`, and for a take puzzle `take`: the previous seat's discard when
    taken): the same puzzle with the verdict, the points it gives away explained, and the
    next puzzle's link; a solved puzzle is stored for the player (`SolvedPuzzle`). A puzzle
    id that is not the player's is 404."""
    from django.http import Http404

    ids = training.puzzle_ids(request.user)
    solved = training.solved_ids(request.user)
    wanted = request.POST.get("p") or request.GET.get("p")
    if not ids:
        return render(request, "games/training.html", {"puzzle": None, "count": 0})
    if wanted is None:
        wanted = next((p for p in ids if p not in solved), ids[0])
    found = training.parse_id(wanted, request.user)
    if found is None:
        raise Http404("no such puzzle")
    row, turn = found
    view = training.position(row, turn)
    verdict = None
    if request.method == "POST":
        answer = request.POST.getlist("tile")
        taken = request.POST.get("take") or None
        judged = training.check(row, turn, view, answer, taken=taken)
        verdict = dict(_verdict(row, turn, view, answer, judged), taken=taken)
        if judged["solved"]:
            training.mark_solved(request.user, row, turn)
            solved.add(wanted)
    later = ids[ids.index(wanted) + 1:] + ids[:ids.index(wanted)] if wanted in ids else ids
    following = next((p for p in later if p not in solved), None)
    question = {"discard": _("Which tile do you discard?"),
                "open": _("Which tiles do you lay to open?"),
                "finish": _("Which tiles do you lay to go out? One tile stays for the last discard."),
                "take": _("Do you take the previous player's discard? Tick it with the rack tiles it goes "
                          "into a meld with, or leave it to draw from the pile."),
                "swap": _("Which tile of your rack do you swap for an okey on the table?")}.get(
        training.kind_of(row, turn), _("Which tiles of your rack do you lay on the table?"))
    return render(request, "games/training.html", {
        "puzzle": {"id": wanted, "question": question, "round": row.round.number,
                   "table_id": row.round.match.table_id, "turn": turn["number"], **_board(row, turn, view)},
        "verdict": verdict, "count": len(ids), "solved_count": len(solved & set(ids)),
        "next_id": following, "position": ids.index(wanted) + 1 if wanted in ids else None,
        "all_solved": set(ids) <= solved,
    })
