"""Computer play (games.play.computer) on engine positions: the bot's choice checked by
the engine, and the fallback taken from the engine's legal actions."""
import pytest

from games.engine import api, fairdeal
from games.models import Move
from games.play import computer
from tests.deals import text_deal
from tests.games.play.test_penalty_events import OKEY51


def test_the_fallback_draws_when_the_phase_asks_for_it():
    position = dict(OKEY51, phase="draw", turn=1)
    action, step = computer.fallback(position, 1)
    assert action == {"seat": 1, "type": "draw"} and step.accepted


def test_the_fallback_discards_a_tile_that_costs_no_penalty():
    position = dict(OKEY51, seats=[dict(OKEY51["seats"][0], rack=["B4", "K2"])] + OKEY51["seats"][1:])
    assert "B4" in api.penalty_tiles(position, 0)  # B4 fits seat 1's run B5 B6 B7 (RULES.md §3)
    action, step = computer.fallback(position, 0)
    assert action == {"seat": 0, "type": "discard", "tile": "K2"}
    assert step.accepted and step.penalties == ()


def test_the_fallback_discards_a_penalty_tile_when_nothing_else_is_legal():
    position = dict(OKEY51, seats=[dict(OKEY51["seats"][0], rack=["B4", "B8"])] + OKEY51["seats"][1:])
    action, step = computer.fallback(position, 0)  # both tiles fit seat 1's run B5 B6 B7
    assert action["tile"] in ("B4", "B8") and step.accepted and [p.reason for p in step.penalties] == ["penalty_tile"]


def test_a_seat_without_a_legal_action_is_a_broken_position():
    with pytest.raises(RuntimeError):
        computer.fallback(OKEY51, 2)  # not seat 2's turn


@pytest.mark.parametrize("ruleset", list(api.RULESETS))
def test_the_computer_plays_a_whole_turn_with_accepted_actions(ruleset):
    class Stored:  # the fields of a stored game that computer play reads
        position = text_deal(ruleset, f"turn-{ruleset}")
        version = 1

        class round:
            server_seed = fairdeal.seed_from_text(f"turn-{ruleset}")

    class Seat:
        index = 0

    position, played = computer.play_turn(Stored, Seat, "normal", Move.Actor.TIMEOUT)
    assert played and all(p.step.accepted and p.seat == 0 and p.actor == "timeout" for p in played)
    assert api.is_over(position) or position["turn"] != 0
    assert api.replay_all(Stored.position, [p.action for p in played]).position == position


def test_bot_seeds_never_reveal_the_round_seed():
    seeds = {computer.bot_seed("round-seed", version, n) for version in range(3) for n in range(3)}
    assert len(seeds) == 9 and all("round-seed" not in s and len(s) == 16 for s in seeds)
