"""How much database work one live change costs: queries per action and per computer
step (the writer builds every seat's view itself, so no socket reads the game back),
and a lobby list whose cost does not grow with the tables listed. Counted with
`CaptureQueriesContext` on the test database (PostgreSQL in CI)."""
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import tasks
from games.models import Game
from games.play import tables, turns
from games.play.lobby import lobby_frame
from games.play.timers import timer_args
from games.snapshot import open_tables
from tests.games.play.helpers import game_of, online_table

pytestmark = pytest.mark.django_db(transaction=True)

# One accepted action, its views included: BEGIN, the game locked with its table, match
# and round, the seats with their users, the last move number, the move, the game row,
# the round's recent moves (once for every seat's view), COMMIT.
MAX_ACTION_QUERIES = 8


def test_an_accepted_action_and_its_views_take_a_bounded_number_of_queries(alice, bob):
    table = online_table(alice, bob)
    game = game_of(table)
    turn = game.position["turn"]
    user = {0: alice, 2: bob}[turn]  # the match opens on a human seat (seat 0 deals first)
    action = {"type": "discard", "tile": game.position["seats"][turn]["rack"][0]}
    with CaptureQueriesContext(connection) as queries:
        outcome = turns.submit_action(user, table.pk, action, game.version)
    assert outcome.ok and outcome.text is not None
    assert json.loads(outcome.text[0])["version"] == outcome.version
    assert len(queries) <= MAX_ACTION_QUERIES, [q["sql"][:120] for q in queries]


def test_a_computer_step_takes_a_bounded_number_of_queries(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = game_of(table)
    seat = game.position["seats"][0]["rack"][0]
    turns.submit_action(alice, table.pk, {"type": "discard", "tile": seat}, game.version)
    game = Game.objects.get(table=table)
    assert game.deadline_kind == Game.Deadline.BOT
    with CaptureQueriesContext(connection) as queries:
        assert tasks.bot_turn(*timer_args(game))
    assert len(queries) <= MAX_ACTION_QUERIES, [q["sql"][:120] for q in queries]


def _open_tables(users):
    for user in users:
        table = tables.create_table(user, "okey51", {}, mode="online")
        tables.join_table(users[0] if user != users[0] else users[-1], table.pk)


@pytest.mark.parametrize("build", [open_tables, lobby_frame], ids=["open_tables", "lobby_frame"])
def test_the_lobby_list_costs_the_same_queries_for_2_and_20_tables(make_user, build):
    users = [make_user(f"p{i}") for i in range(20)]
    _open_tables(users[:2])
    with CaptureQueriesContext(connection) as few:
        listed = build()
    _open_tables(users[2:])
    with CaptureQueriesContext(connection) as many:
        more = build()
    assert len(open_tables()) == 20 and len(more) > len(listed)
    assert len(many) == len(few) <= 2, [q["sql"][:120] for q in many]


def test_a_seeding_windows_views_read_its_round_once_whatever_the_number_of_seats(make_user, settings):
    # the window opens at the start of a table whose players' pages are not open yet (an
    # arena's): each of the four views shows the same seeding frame, read once
    settings.OKEY_SEED_WINDOW = 3
    users = [make_user(f"window{k}") for k in range(4)]
    with CaptureQueriesContext(connection) as queries:
        table = tables.seat_together(users, "okey51", seed_wait=20)
    assert game_of(table).deadline_kind == Game.Deadline.SEED
    round_reads = [q["sql"] for q in queries if q["sql"].startswith('SELECT "games_round"')]
    assert len(round_reads) == 2, round_reads  # opening the round, the window's frame
