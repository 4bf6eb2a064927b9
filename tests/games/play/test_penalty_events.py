"""In-round penalties through the real submit path: each move stores the penalty events
of its engine step; the round's list, the `round_end` frame and the snapshot read them."""
import copy

import pytest
from django.utils import timezone

from games.models import Game, Move, Round, Seat
from games.play import tables, turns
from games.snapshot import snapshot

pytestmark = pytest.mark.django_db(transaction=True)

OKEY51 = {
    "ruleset": "okey51", "options": {"doubling": True, "teams": False, "rounds": 1}, "indicator": "R5",
    "turn": 0, "phase": "play", "pile": ["K3", "B9", "Y4", "R2"], "discards": [[], [], [], []],
    "seats": [{"rack": ["B8", "B4", "K2"], "opened": "melds", "penalty": 0},
              {"rack": ["K1"], "opened": "melds", "penalty": 0},
              {"rack": ["Y3"], "opened": "no", "penalty": 0}, {"rack": ["Y4"], "opened": "no", "penalty": 0}],
    "table": [{"id": 1, "owner": 1, "tiles": ["B5", "B6", "B7"]}], "highest_opening": None,
}
# seat 0 adds B8 to seat 1's run (80 for seat 1), discards B4 which fits the run (penalty tile 100),
# seat 1 takes that B4 into its run (40 for seat 0) and ends the round with K1.
SCRIPT = [
    {"seat": 0, "type": "add", "meld": 1, "tile": "B8"},
    {"seat": 0, "type": "discard", "tile": "B4"},
    {"seat": 1, "type": "take_discard", "then": {"type": "add", "meld": 1, "tile": "B4"}},
    {"seat": 1, "type": "discard", "tile": "K1"},
]
EXPECTED = [
    {"seat": 1, "amount": 80, "reason": "add", "tile": "B8", "by": 0},
    {"seat": 0, "amount": 100, "reason": "penalty_tile", "tile": "B4", "by": None},
    {"seat": 0, "amount": 40, "reason": "discard_taken", "tile": "B4", "by": 1},
]


def scripted_table(alice, bob, position):
    """An online table (alice seat 0, bob seat 1, computers in seats 2 and 3) whose running
    round starts from `position`. Returns (table, game)."""
    table = tables.create_table(alice, position["ruleset"], position["options"], mode="online", move_time=30)
    assert tables.join_table(bob, table.pk, seat_index=1).index == 1
    tables.start_match(alice, table.pk)
    game = Game.objects.select_related("round").get(table=table)
    Round.objects.filter(pk=game.round.pk).update(initial_position=position)
    Game.objects.filter(pk=game.pk).update(position=position, turn=position["turn"], deadline=timezone.now())
    return table, game


def play(users, table, game, actions):
    """Submit `actions` (with "seat", which picks the user) one by one at the current
    version. Returns the outcomes."""
    outcomes = []
    for action in actions:
        version = Game.objects.get(pk=game.pk).version
        move = {k: v for k, v in action.items() if k != "seat"}
        outcomes.append(turns.submit_action(users[action["seat"]], table.pk, move, version))
    return outcomes


def logged_events(game):
    return [list(m.events) for m in Move.objects.filter(round_id=game.round_id).order_by("number")]


def test_a_scripted_round_stores_its_events_and_sends_them_at_the_round_end(alice, bob):
    table, game = scripted_table(alice, bob, OKEY51)
    outcomes = play({0: alice, 1: bob}, table, game, SCRIPT)
    assert all(o.ok for o in outcomes), [o.code for o in outcomes]
    assert logged_events(game) == [[EXPECTED[0]], [EXPECTED[1]], [EXPECTED[2]], []]
    round_end = outcomes[-1].round_end
    assert round_end["penalty_events"] == EXPECTED
    assert round_end["penalties"] == [140, 80, 0, 0]
    assert Round.objects.get(pk=game.round.pk).penalty_events == EXPECTED
    _version, view, _seat = snapshot(table.pk, alice)
    assert view["round_end"]["penalty_events"] == EXPECTED
    assert view["team_totals"] is None and view["round_end"]["team_totals"] is None
    assert Seat.objects.get(table=table, index=2).bot_level  # the other seats were computers


def okey17(rack):
    position = copy.deepcopy(OKEY51)
    position.update(ruleset="okey17", options={"rounds": 7})
    position["seats"][0]["rack"] = rack
    position["seats"][1]["rack"] = ["K1", "K2"]
    return position


def test_okey17_refused_discards_that_cost_a_penalty_are_logged_with_the_refusal_code(alice, bob):
    table, game = scripted_table(alice, bob, okey17(["B8", "K2"]))
    refused, accepted = play({0: alice, 1: bob}, table, game, [{"seat": 0, "type": "discard", "tile": "B8"},
                                                              {"seat": 0, "type": "discard", "tile": "K2"}])
    assert (refused.ok, refused.code) == (False, "playable_discard")
    assert accepted.ok
    moves = list(Move.objects.filter(round_id=game.round_id).order_by("number"))
    assert [(m.result, m.events) for m in moves] == [
        ("playable_discard", [{"seat": 0, "amount": 100, "reason": "playable_discard", "tile": "B8", "by": None}]),
        ("ok", [])]


def test_okey17_a_refused_joker_discard_is_logged_with_its_penalty(alice, bob):
    joker = okey17(["R6", "K2"])  # indicator R5: the okey is R6
    joker["table"] = []
    table, game = scripted_table(alice, bob, joker)
    refused, accepted = play({0: alice, 1: bob}, table, game, [{"seat": 0, "type": "discard", "tile": "R6"},
                                                              {"seat": 0, "type": "discard", "tile": "K2"}])
    assert (refused.code, accepted.ok) == ("joker_discard", True)
    assert logged_events(game) == [
        [{"seat": 0, "amount": 400, "reason": "joker_discard", "tile": "R6", "by": None}], []]


def test_a_round_without_penalties_has_no_events(alice, bob):
    table, game = scripted_table(alice, bob, OKEY51)
    (outcome,) = play({0: alice, 1: bob}, table, game, [{"seat": 0, "type": "discard", "tile": "K2"}])
    assert outcome.ok and logged_events(game) == [[]]
