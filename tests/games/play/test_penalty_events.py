"""In-round penalty events (issue 2): replayed from scripted rounds, stored with the round
results and sent in `round_end` and the snapshot."""
import copy

import pytest
from django.utils import timezone

from games import penalty_events, services
from games.models import Game, Round, Seat

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


def test_okey51_events_name_the_reason_the_tile_and_the_acting_seat():
    assert penalty_events.replay_events(OKEY51, [(a, "ok") for a in SCRIPT]) == EXPECTED


def okey17(rack):
    position = copy.deepcopy(OKEY51)
    position.update(ruleset="okey17", options={"rounds": 7})
    position["seats"][0]["rack"] = rack
    position["seats"][1]["rack"] = ["K1", "K2"]
    return position


def test_okey17_refused_discards_that_cost_a_penalty_are_listed_with_the_refusal_code():
    moves = [({"seat": 0, "type": "discard", "tile": "B8"}, "playable_discard"),
             ({"seat": 0, "type": "discard", "tile": "K2"}, "ok")]
    assert penalty_events.replay_events(okey17(["B8", "K2"]), moves) == [
        {"seat": 0, "amount": 100, "reason": "playable_discard", "tile": "B8", "by": None}]
    joker = okey17(["R6", "K2"])
    joker["table"] = []
    moves = [({"seat": 0, "type": "discard", "tile": "R6"}, "joker_discard"),
             ({"seat": 0, "type": "discard", "tile": "K2"}, "ok")]
    assert penalty_events.replay_events(joker, moves) == [
        {"seat": 0, "amount": 400, "reason": "joker_discard", "tile": "R6", "by": None}]


def test_a_round_without_penalties_has_no_events():
    moves = [({"seat": 0, "type": "discard", "tile": "K2"}, "ok")]
    assert penalty_events.replay_events(OKEY51, moves) == []


@pytest.mark.django_db(transaction=True)
def test_a_scripted_round_stores_its_events_and_sends_them_at_the_round_end(alice, bob):
    table = services.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=30)
    assert services.join_table(bob, table.pk, seat_index=1).index == 1
    services.start_match(alice, table.pk)
    game = Game.objects.select_related("round").get(table=table)
    Round.objects.filter(pk=game.round.pk).update(initial_position=OKEY51)
    Game.objects.filter(pk=game.pk).update(position=OKEY51, turn=0, deadline=timezone.now())
    outcome = None
    for action in SCRIPT:
        user = alice if action["seat"] == 0 else bob
        version = Game.objects.get(pk=game.pk).version
        outcome = services.submit_action(user, table.pk, {k: v for k, v in action.items() if k != "seat"}, version)
        assert outcome.ok, outcome.code
    assert outcome.round_end["penalty_events"] == EXPECTED
    assert outcome.round_end["penalties"] == [140, 80, 0, 0]
    assert Round.objects.get(pk=game.round.pk).penalty_events == EXPECTED
    _version, view, _seat = services.snapshot(table.pk, alice)
    assert view["round_end"]["penalty_events"] == EXPECTED
    assert view["team_totals"] is None and view["round_end"]["team_totals"] is None
    assert Seat.objects.get(table=table, index=2).bot_level  # the other seats were computers
