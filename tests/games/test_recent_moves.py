"""The move history's rows (`snapshot.recent_moves`): a process keeps each round's last
committed rows and afterwards reads only the later moves, and what it returns is always
what a full read of the move log returns — after moves written elsewhere, after more
moves than a view holds, and never with a move whose transaction rolled back."""
import pytest
from django.db import transaction

from games import history
from games.models import Move, Seat
from games.play import turns
from games.play.timers import timer_args
from games.snapshot import MOVE_FIELDS, recent_moves
from tests.games.play.helpers import game_of, play_out, solo_table

pytestmark = pytest.mark.django_db(transaction=True)


def full_read(round_id):
    rows = Move.objects.filter(round_id=round_id).order_by("-number")[:history.LIMIT + 1]
    return [{name: getattr(m, name) for name in MOVE_FIELDS} for m in reversed(rows)]


def log(game, count, start):
    Move.objects.bulk_create([Move(round_id=game.round_id, number=start + i, seat=0, action={"type": "draw", "seat": 0},
                                   version=game.version, draw_no=start + i) for i in range(count)])


def test_each_version_reads_the_rows_a_full_read_gives(alice):
    # three rounds: the round's course is not the same in every run (a round of 27 moves was seen),
    # and one round can end before it outgrows a view
    table = solo_table(alice, options={"rounds": 3})
    Seat.objects.filter(table=table, index=0).update(autoplay=True)  # every seat played by the writer's timers
    game, longest = game_of(table), 0
    for _ in range(400):  # until a round had more moves than a view holds
        game = play_out(table, until=lambda g, v=game.version: g.version > v)
        rows = full_read(game.round_id)
        assert recent_moves(game.round_id, committed=game.version) == rows
        longest = max(longest, rows[-1]["number"] if rows else 0)
        if longest > history.LIMIT + 5:
            break
    assert longest > history.LIMIT + 5


def test_moves_logged_elsewhere_and_more_than_a_view_holds_are_read(alice):
    table = solo_table(alice)
    game = game_of(table)
    assert turns.run_bot_turn(*timer_args(game)) in (True, False)
    first = recent_moves(game.round_id, committed=game_of(table).version)  # kept by this process
    start = (first[-1]["number"] if first else 0) + 1
    log(game, 3, start)  # another process's moves
    assert recent_moves(game.round_id) == full_read(game.round_id)
    log(game, history.LIMIT + 5, start + 3)  # more than the rows kept, all after them
    assert recent_moves(game.round_id, committed=game.version) == full_read(game.round_id)
    assert len(full_read(game.round_id)) == history.LIMIT + 1


def test_a_move_whose_transaction_rolled_back_is_never_returned(alice):
    table = solo_table(alice)
    game = game_of(table)
    before = recent_moves(game.round_id, committed=game.version)
    with pytest.raises(RuntimeError), transaction.atomic():
        game.version += 1
        log(game, 1, (before[-1]["number"] if before else 0) + 1)
        # read inside the transaction with the version committed before it: the new row is
        # returned (it is this transaction's own) but not kept
        assert len(recent_moves(game.round_id, committed=game.version - 1)) == len(before) + 1
        raise RuntimeError("the move is refused after all")
    assert recent_moves(game.round_id, committed=game.version) == full_read(game.round_id) == before


def test_the_next_writer_in_the_process_reads_no_move_rows_and_sees_what_a_full_read_gives(alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = solo_table(alice)
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: Move.objects.filter(round_id=g.round_id).count() >= 3)
    # the last version was committed by this process: its rows were kept after its commit
    with CaptureQueriesContext(connection) as queries:
        rows = recent_moves(game.round_id, committed=game.version, current=True)
    assert rows == full_read(game.round_id) and len(queries) == 0
    # a move logged elsewhere (another process) at a later version: read, never skipped
    log_at = game.version + 1
    Move.objects.create(round_id=game.round_id, number=rows[-1]["number"] + 1, seat=0,
                        action={"type": "draw", "seat": 0}, version=log_at, draw_no=rows[-1]["draw_no"] + 1)
    assert recent_moves(game.round_id, committed=log_at, current=True) == full_read(game.round_id)


def test_a_second_version_in_one_transaction_numbers_its_moves_after_the_first(alice):
    from games.play import commit, computer

    table = solo_table(alice)
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    game = play_out(table, until=lambda g: Move.objects.filter(round_id=g.round_id).count() >= 2)
    with commit.locked(table.pk) as write:
        g = write.game
        for _ in range(2):  # two versions, each one computer turn, before the commit
            seat = write.seats[g.position["turn"]]
            position, played = computer.play_turn(g, seat, seat.bot_level or write.table.bot_level,
                                                  Move.Actor.TIMEOUT)
            if not played:  # the round ended
                break
            write.commit(position, played)
    rows = full_read(game.round_id)
    numbers = [row["number"] for row in rows]
    assert numbers == sorted(set(numbers)) and numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert recent_moves(game.round_id, committed=game_of(table).version, current=True) == rows
