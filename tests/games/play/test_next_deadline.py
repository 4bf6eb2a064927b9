"""The deadline rule on its own (`timers.next_deadline`): every branch from plain values,
no database. The writer's tests (test_deadlines, test_disconnect_grace, test_solo_waits)
check that `Write` applies what it decides."""
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Game
from games.play.timers import Deadline, Delays, Reached, SeatToMove, next_deadline

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
DELAYS = Delays(move_time=30, bot=1.0, bot_step=0.2, grace=5.0, next_round=8.0)
CLOCK = NOW + timedelta(seconds=12)  # the move deadline a seat had in its turn


def at(seconds):
    return NOW + timedelta(seconds=seconds)


HUMAN = SeatToMove(computer_plays=False)
COMPUTER = SeatToMove(computer_plays=True, is_computer=True)
AUTOPLAY = SeatToMove(computer_plays=True, autoplay=True)
LEFT = SeatToMove(computer_plays=True, left=True, connected=False)
GONE = SeatToMove(computer_plays=True, autoplay=True, connected=False)  # last socket closed on turn

MOVE, BOT, NEXT, SEED, NONE = (Game.Deadline.MOVE, Game.Deadline.BOT, Game.Deadline.NEXT_ROUND,
                               Game.Deadline.SEED, Game.Deadline.NONE)
IN_TURN = Reached(playing=True, dealt=True, turn=2)
NEW_TURN = Reached(playing=True, dealt=True, turn=2, new_turn=True)
COMPUTER_ACTED = Reached(playing=True, dealt=True, turn=2, computer_acted=True)

CASES = [
    # (what, stored, reached, seat, expected)
    ("a human's new turn gets the move time",
     Deadline(BOT, at(3), 1), NEW_TURN, HUMAN, Deadline(MOVE, at(30), 2)),
    ("a refused discard's penalty keeps the human's clock",
     Deadline(MOVE, at(17), 2), IN_TURN, HUMAN, Deadline(MOVE, at(17), 2)),
    ("a computer's new turn waits the computer delay",
     Deadline(MOVE, at(9), 1), NEW_TURN, COMPUTER, Deadline(BOT, at(1.0), 2)),
    ("an autoplayed seat waits three delays, so its player can come back",
     Deadline(MOVE, at(9), 1), NEW_TURN, AUTOPLAY, Deadline(BOT, at(3.0), 2)),
    ("a seat whose page closed before the start gets the computer at the first deal, within the grace",
     Deadline(NONE), Reached(playing=True, dealt=True, turn=2, new_turn=True), GONE, Deadline(BOT, at(3.0), 2)),
    ("a seat whose player left waits one delay: they never come back",
     Deadline(MOVE, at(9), 1), NEW_TURN, LEFT, Deadline(BOT, at(1.0), 2)),
    ("the last socket closing on turn gives the disconnect grace",
     Deadline(MOVE, at(25), 2), IN_TURN, GONE, Deadline(BOT, at(5.0), 2)),
    ("the grace never outlasts the player's own clock",
     Deadline(MOVE, at(2), 2), IN_TURN, GONE, Deadline(BOT, at(2), 2)),
    ("a computer taking over within the turn plays one step later",
     Deadline(MOVE, at(25), 2), IN_TURN, AUTOPLAY, Deadline(BOT, at(0.2), 2)),
    ("a computer's armed deadline stays while it fits",
     Deadline(BOT, at(0.7), 2), IN_TURN, COMPUTER, Deadline(BOT, at(0.7), 2)),
    ("a computer that acted in the turn plays its next step one step later",
     Deadline(BOT, at(0.7), 2), COMPUTER_ACTED, COMPUTER, Deadline(BOT, at(0.2), 2)),
    ("a player back before the computer acted keeps the turn's clock",
     Deadline(BOT, at(3), 2), IN_TURN, HUMAN, Deadline(MOVE, CLOCK, 2)),
    ("a player back after the computer acted gets a full move time",
     Deadline(BOT, at(3), 2), COMPUTER_ACTED, HUMAN, Deadline(MOVE, at(30), 2)),
    ("a round just over arms the next round's deal",
     Deadline(MOVE, at(9), 2), Reached(playing=True, dealt=True, over=True, round_ended=True), None,
     Deadline(NEXT, at(8.0))),
    ("a round over whose next deal is armed keeps it",
     Deadline(NEXT, at(4), None), Reached(playing=True, dealt=True, over=True), None, None),
    ("an open seeding window keeps its deadline",
     Deadline(SEED, at(2), None), Reached(playing=True, dealt=True, turn=0, new_turn=True), HUMAN, None),
    ("a stopped table has no deadline",
     Deadline(MOVE, at(9), 2), Reached(playing=False, dealt=True, turn=2), None, Deadline(NONE)),
    ("nothing is due before a deal",
     Deadline(NONE), Reached(playing=True, dealt=False), None, Deadline(NONE)),
]


@pytest.mark.parametrize(("stored", "reached", "seat", "expected"), [case[1:] for case in CASES],
                         ids=[case[0] for case in CASES])
def test_next_deadline(stored, reached, seat, expected):
    assert next_deadline(stored, reached, seat, DELAYS, NOW, lambda: CLOCK) == expected


def test_a_player_back_whose_turn_clock_is_gone_gets_a_full_move_time():
    got = next_deadline(Deadline(BOT, at(3), 2), IN_TURN, HUMAN, DELAYS, NOW, lambda: None)
    assert got == Deadline(MOVE, at(30), 2)


def test_a_player_back_after_their_clock_ran_out_plays_now():
    late = NOW - timedelta(seconds=4)
    assert next_deadline(Deadline(BOT, at(3), 2), IN_TURN, HUMAN, DELAYS, NOW, lambda: late) == Deadline(MOVE, NOW, 2)


@pytest.mark.parametrize("reached", [NEW_TURN, IN_TURN, COMPUTER_ACTED])
def test_a_practice_table_gives_a_human_no_clock(reached):
    practice = Delays(move_time=30, bot=1.0, bot_step=0.2, grace=5.0, next_round=8.0, practice=True)
    got = next_deadline(Deadline(MOVE, at(9), 2), reached, HUMAN, practice, NOW, lambda: CLOCK)
    assert got == Deadline(NONE, None, 2)


def test_a_practice_table_still_times_its_computers():
    practice = Delays(move_time=30, bot=1.0, bot_step=0.2, grace=5.0, next_round=8.0, practice=True)
    assert next_deadline(Deadline(MOVE, at(9), 1), NEW_TURN, COMPUTER, practice, NOW) == Deadline(BOT, at(1.0), 2)


def test_the_turn_clock_is_read_only_when_a_player_takes_the_seat_back():
    def unread():
        raise AssertionError("the turn's clock was read where no player came back")

    for _what, stored, reached, seat, _expected in CASES:
        if not (seat is HUMAN and stored.kind == BOT and reached is IN_TURN):
            next_deadline(stored, reached, seat, DELAYS, NOW, unread)
