"""The move history in every view (`view["moves"]`, games/history.py) built from the real
logged moves: what each seat, and a spectator, may see of them (ARCHITECTURE.md
invariant 3), checked against scripted rounds and against the engine's replay of whole
rounds the computers played."""
import copy
from collections import Counter

import pytest

from games import history
from games.engine import api
from games.models import Game, Move, Seat
from games.play import tables
from games.snapshot import MOVE_FIELDS, snapshot
from tests.games.play.helpers import fixed_deal, play_out
from tests.games.play.test_penalty_events import OKEY51, okey17, play, scripted_table

pytestmark = pytest.mark.django_db(transaction=True)

# seat 0 draws K3, adds B8 to seat 1's run, discards B4 (a penalty tile); seat 1 takes that
# B4 into the same run and ends the round with K1
DRAWN = dict(copy.deepcopy(OKEY51), phase="draw")
SCRIPT = [
    {"seat": 0, "type": "draw"},
    {"seat": 0, "type": "add", "meld": 1, "tile": "B8"},
    {"seat": 0, "type": "discard", "tile": "B4"},
    {"seat": 1, "type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "B4"}},
    {"seat": 1, "type": "discard", "tile": "K1"},
]


def moves_seen_by(table, user):
    _version, view, _seat = snapshot(table.pk, user)
    return view["moves"]


def test_a_drawn_tile_is_named_only_to_the_drawer_and_the_rest_to_everyone(alice, bob, carol):
    table, game = scripted_table(alice, bob, DRAWN)
    assert all(o.ok for o in play({0: alice, 1: bob}, table, game, SCRIPT))
    mine, his, spectator = (moves_seen_by(table, u) for u in (alice, bob, carol))
    assert [m["type"] for m in mine] == [a["type"] for a in SCRIPT]
    assert [(m["number"], m["seat"], m["actor"], m["result"]) for m in mine] == [
        (1, 0, "human", "ok"), (2, 0, "human", "ok"), (3, 0, "human", "ok"), (4, 1, "human", "ok"),
        (5, 1, "human", "ok")]
    assert mine[0]["tile"] == "K3"
    assert "tile" not in his[0] and "tile" not in spectator[0]
    for seen in (mine, his, spectator):
        assert seen[1:] == mine[1:]  # everything but the draw is public
    add, discard, take, last = mine[1:]
    assert (add["meld"], add["tile"]) == (1, "B8")
    assert add["penalties"] == [{"seat": 1, "amount": 80, "reason": "add", "tile": "B8", "by": 0}]
    assert discard["tile"] == "B4" and discard["penalties"][0]["reason"] == "penalty_tile"
    assert take["tile"] == "B4" and take["then"] == {"type": "add", "meld": 1, "tile": "B4"}
    assert take["penalties"] == [{"seat": 0, "amount": 40, "reason": "discard_taken", "tile": "B4", "by": 1}]
    assert last["tile"] == "K1"


def test_a_refused_okey17_discard_shows_its_tile_only_to_the_player_who_still_holds_it(alice, bob, carol):
    table, game = scripted_table(alice, bob, okey17(["B8", "K2"]))
    refused, accepted = play({0: alice, 1: bob}, table, game, [{"seat": 0, "type": "discard", "tile": "B8"},
                                                              {"seat": 0, "type": "discard", "tile": "K2"}])
    assert (refused.code, accepted.ok) == ("playable_discard", True)
    mine, his, spectator = (moves_seen_by(table, u) for u in (alice, bob, carol))
    assert (mine[0]["result"], mine[0]["tile"]) == ("playable_discard", "B8")
    assert mine[0]["penalties"] == [{"seat": 0, "amount": 100, "reason": "playable_discard", "tile": "B8", "by": None}]
    for other in (his, spectator):
        assert other[0]["result"] == "playable_discard" and "tile" not in other[0]
        assert other[0]["penalties"] == [{"seat": 0, "amount": 100, "reason": "playable_discard", "tile": None,
                                          "by": None}]
        assert other[1]["tile"] == "K2"  # the accepted discard is on the pile for all to see


def computer_round(user, ruleset):
    """A solo table of `user` on autoplay whose first round the computers play to its end.
    Returns (game, all its moves as history rows, the round's dealt position)."""
    table = tables.create_table(user, ruleset, {"rounds": 1}, mode="solo")
    fixed_deal(table)
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: g.position and api.is_over(g.position))
    rows = list(Move.objects.filter(round_id=game.round_id).order_by("number").values(*MOVE_FIELDS))
    assert rows and rows[0]["number"] == 1
    return game, rows, game.round.initial_position


@pytest.mark.parametrize("ruleset", ["okey51", "rami"])
def test_every_move_of_a_computers_round_names_what_the_replay_shows(alice, ruleset):
    game, rows, initial = computer_round(alice, ruleset)
    views = {viewer: history.public_moves(rows, viewer, initial["pile"], limit=len(rows)) for viewer in (0, 1, None)}
    position = initial
    kinds = Counter()
    for i, row in enumerate(rows):
        before = position
        position = api.step(before, row["action"]).position
        seat = row["seat"]
        gained = Counter(position["seats"][seat]["rack"]) - Counter(before["seats"][seat]["rack"])
        lost = Counter(before["seats"][seat]["rack"]) - Counter(position["seats"][seat]["rack"])
        for viewer, moves in views.items():
            move = moves[i]
            assert (move["number"], move["seat"], move["actor"]) == (row["number"], seat, row["actor"])
            kind = move["type"]
            kinds[kind] += viewer == 0
            if kind == "draw" and not gained:
                assert move.get("pass") is True and "tile" not in move
            elif kind == "draw":
                assert move.get("tile") == (next(iter(gained)) if viewer == seat else None)
            elif kind == "take_discard":
                prev = (seat - 1) % len(before["seats"])
                assert move["tile"] == before["discards"][prev][-1]
            elif kind == "discard":
                assert move["tile"] == row["action"]["tile"]
            elif kind == "play":
                assert move["laid"] == sorted(lost.elements()) and move["table"] == row["action"]["table"]
    assert position == Game.objects.get(pk=game.pk).position
    assert kinds["draw"] > 0 and (kinds["discard"] > 0 or kinds["play"] > 0)


def test_a_view_keeps_the_last_thirty_moves_oldest_first(alice):
    # the deal depends on the table's id, and a quick round can end within thirty moves:
    # play new tables until a round is longer than the view's history
    for _attempt in range(8):
        game, rows, _initial = computer_round(alice, "okey51")
        if len(rows) > history.LIMIT:
            break
    assert len(rows) > history.LIMIT
    _version, view, _seat = snapshot(game.table_id, alice)
    numbers = [m["number"] for m in view["moves"]]
    assert numbers == [r["number"] for r in rows[-history.LIMIT:]]
    assert Move.objects.filter(round_id=game.round_id).count() == len(rows)


def test_the_views_of_one_version_built_together_show_each_seat_what_it_alone_would_see():
    # The writer builds every seat's history of a version with one `shared` dict: a drawn
    # tile and a refused discard's tile still reach only the seat that may see them.
    rows = [
        {"number": 1, "seat": 0, "actor": "human", "action": {"seat": 0, "type": "draw"}, "result": "ok",
         "events": None, "draw_no": 1, "version": 2},
        {"number": 2, "seat": 0, "actor": "human", "action": {"seat": 0, "type": "discard", "tile": "R5"},
         "result": "ok", "events": None, "draw_no": 1, "version": 3},
        {"number": 3, "seat": 1, "actor": "computer", "action": {"seat": 1, "type": "take_discard"},
         "result": "ok", "events": None, "draw_no": 1, "version": 4},
        {"number": 4, "seat": 1, "actor": "computer", "action": {"seat": 1, "type": "discard", "tile": "B8"},
         "result": "playable_discard", "events": [{"seat": 1, "amount": 10, "reason": "playable_discard",
                                                    "tile": "B8", "by": None}], "draw_no": 1, "version": 5},
    ]
    pile = ("K3", "Y7")
    shared = {}
    together = {viewer: history.public_moves(rows, viewer, pile, shared=shared) for viewer in (None, 0, 1, 2, 3)}
    for viewer, moves in together.items():
        assert moves == history.public_moves(rows, viewer, pile)
    assert together[0][0]["tile"] == "K3" and all("tile" not in together[v][0] for v in (None, 1, 2, 3))
    assert together[1][3]["tile"] == "B8" and together[1][3]["penalties"][0]["tile"] == "B8"
    assert all("tile" not in together[v][3] and together[v][3]["penalties"][0]["tile"] is None
               for v in (None, 0, 2, 3))
