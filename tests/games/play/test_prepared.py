"""The writer's per-version reads compiled once per process (`games.prepared`) return
what the ORM returns: the same rows, fields, related objects and deferred fields, on the
second call as on the first, and a shape they cannot serve is refused when first compiled."""
import threading

import pytest
from django.db import DataError, transaction

from games import snapshot
from games.models import Game, Move, Seat
from games.play import commit, tables
from games.prepared import Prepared, PreparedRows
from games.snapshot import MOVE_FIELDS, recent_moves
from tests.games.play.helpers import fixed_deal, game_of, online_table, play_out

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = commit._SEATS


def test_the_locked_game_is_the_one_the_orm_reads_with_its_table_match_and_round(alice, bob):
    table = online_table(alice, bob)
    expected = game_of(table)
    for _ in range(2):  # compiled on the first call, reused on the second
        with transaction.atomic():
            game = commit._LOCK_BY_TABLE.get(table.pk)
        assert (game.pk, game.version, game.position, game.deadline) == (
            expected.pk, expected.version, expected.position, expected.deadline)
        assert game.table.options == expected.table.options and game.table.status == expected.table.status
        assert game.match.totals == expected.match.totals
        assert game.round.initial_position == expected.round.initial_position
        assert game.round.started == expected.round.started


def test_seats_come_in_order_with_their_users_and_none_for_an_unknown_table(alice, bob):
    table = online_table(alice, bob)
    orm = list(Seat.objects.filter(table=table).order_by("index"))
    for _ in range(2):
        seats = SEATS.fetch(table.pk)
        assert [(s.index, s.user_id, s.bot_level) for s in seats] == [(s.index, s.user_id, s.bot_level) for s in orm]
        assert seats[0].user.username == alice.username
    assert SEATS.fetch(table.pk + 1000) == []
    with transaction.atomic():
        assert commit._LOCK_BY_TABLE.get(table.pk + 1000) is None


def test_threads_share_the_compiled_sql_and_each_reads_on_its_own_connection(alice, bob):
    # every HTTP request runs on a new thread: a per-thread compilation would be paid per request
    table = online_table(alice, bob)
    expected = game_of(table)
    SEATS.fetch(table.pk)
    with transaction.atomic():
        commit._LOCK_BY_TABLE.get(table.pk)
    compiled = (SEATS._compiled["default"], commit._LOCK_BY_TABLE._compiled["default"])
    found = []

    def read():
        from django.db import connection
        try:
            with transaction.atomic():  # the lock needs this thread's own transaction
                game = commit._LOCK_BY_TABLE.get(table.pk)
            found.append(([s.index for s in SEATS.fetch(table.pk)], game.position == expected.position,
                          game.table.options == expected.table.options))
        finally:
            connection.close()

    threads = [threading.Thread(target=read) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [([0, 1, 2, 3], True, True)] * 3
    assert SEATS._compiled["default"] is compiled[0]
    assert commit._LOCK_BY_TABLE._compiled["default"] is compiled[1]


def test_recent_moves_hold_the_draw_count_of_the_round(alice, bob):
    table = online_table(alice, bob)
    # A dealt round may be over before its 40th move (about one deal in thirteen): a known
    # deal, the same whatever table id the tests before left, lasts 106 moves.
    fixed_deal(table, "fixed", table_key="recent-moves")
    # timeouts log a draw and a discard in one commit, computers one move per commit
    game = play_out(table, until=lambda g: Move.objects.filter(round_id=g.round_id).count() >= 40)
    rows = list(Move.objects.filter(round_id=game.round_id).order_by("number").values(*MOVE_FIELDS))
    assert len(rows) >= 40 and recent_moves(game.round_id) == rows[-31:]
    assert all(row["draw_no"] == sum(r["action"].get("type") == "draw" for r in rows[:i + 1])
               for i, row in enumerate(rows))


def test_an_argument_that_is_not_an_id_falls_back_to_the_orm(alice, bob):
    table = online_table(alice, bob)
    assert [s.index for s in SEATS.fetch(str(table.pk))] == [0, 1, 2, 3]


def test_a_shape_whose_parameters_are_not_the_arguments_is_refused():
    shape = Prepared(lambda game_id: Game.objects.filter(pk=game_id, version__gte=3))
    with pytest.raises(ValueError):
        shape.fetch(1)


def test_the_game_row_written_with_its_built_update_reads_back_as_saved(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    from games.prepared import save_row

    table = online_table(alice, bob)
    game = game_of(table)
    for n in range(2):  # the statement is built once, then reused
        game.version += 1
        game.position = dict(game.position, note=["ünïcode", n, None])
        game.deadline, game.deadline_kind, game.turn = timezone.now() + timedelta(seconds=n + 7), "bot", n
        save_row(game)
        stored = game_of(table)
        assert (stored.version, stored.position, stored.deadline, stored.deadline_kind, stored.turn) == (
            game.version, game.position, game.deadline, "bot", n)
        assert stored.round_id == game.round_id and stored.match_id == game.match_id
    game.deadline = None
    save_row(game)
    assert game_of(table).deadline is None
    with pytest.raises(ValueError):
        save_row(Game(pk=game.pk + 1000, table_id=table.pk, version=1))


def test_moves_inserted_in_one_statement_read_back_as_bulk_create_writes_them(alice, bob):
    from games.prepared import insert_rows

    table = online_table(alice, bob)
    game = game_of(table)
    for count in (1, 3, 3):  # one statement per number of rows, built once each
        start = Move.objects.filter(round_id=game.round_id).count()
        made = [Move(round_id=game.round_id, number=start + i + 1, seat=i % 4, action={"type": "draw", "seat": i % 4},
                     result="ok", actor="computer", version=game.version, events=None if i else [{"amount": 5}],
                     draw_no=i) for i in range(count)]
        insert_rows(made)
        stored = list(Move.objects.filter(round_id=game.round_id, number__gt=start).order_by("number"))
        assert [(m.number, m.seat, m.action, m.result, m.actor, m.events, m.draw_no) for m in stored] == [
            (m.number, m.seat, m.action, m.result, m.actor, m.events, m.draw_no) for m in made]
        assert all(m.created is not None for m in stored)
    insert_rows([])


def test_lobby_rows_read_with_compiled_sql_are_the_rows_the_orm_returns(alice, bob):
    running = online_table(alice, bob, options={"rounds": 3})
    waiting = tables.create_table(bob, "rami", {}, mode="online", move_time=60)
    queries = (snapshot._LOBBY_WAITING, snapshot._LOBBY_RUNNING, snapshot._LOBBY_RUNNING_SEATS)
    for _ in range(2):  # compiled on the first call, reused on the second
        for prepared in queries:
            assert prepared.rows() == list(prepared.build())
    assert [row["id"] for row in snapshot._LOBBY_WAITING.rows()] == [waiting.pk]
    (row,) = snapshot._LOBBY_RUNNING.rows()
    assert (row["id"], row["options"]["rounds"], row["round_index"], row["taken"]) == (running.pk, 3, 0, 2)
    assert [r["index"] for r in snapshot._LOBBY_RUNNING_SEATS.rows()] == [0, 1, 2, 3]


def test_rows_of_a_queryset_that_is_not_values_are_refused():
    with pytest.raises(ValueError):
        PreparedRows(lambda: Seat.objects.all()).rows()


def _fields(obj, seen=()):
    # every loaded field of a model instance and, recursively, of the related objects it
    # holds (select_related), plus which fields are deferred; a back reference to an
    # object already on the path (a one-to-one's reverse side) is named, not followed
    loaded = {k: v for k, v in vars(obj).items() if not k.startswith("_")}
    seen = (*seen, id(obj))
    related = {name: None if other is None else "(back)" if id(other) in seen else _fields(other, seen)
               for name, other in obj._state.fields_cache.items()}
    return type(obj).__name__, loaded, related, sorted(obj.get_deferred_fields())


def test_every_registered_read_returns_what_the_orm_returns_field_by_field(alice, bob):
    import inspect

    from games import prepared

    # a table in play, with moves, spectators' lobby rows and a second waiting table
    table = online_table(alice, bob)
    fixed_deal(table, "fixed", table_key="prepared-orm")
    game = play_out(table, until=lambda g: Move.objects.filter(round_id=g.round_id).count() >= 6)
    tables.create_table(alice, "rami", {}, mode="online")
    args = {"table_id": table.pk, "game_id": game.pk, "round_id": game.round_id, "number": 2}
    product = [read for read in prepared.REGISTERED if read.build.__module__.startswith("games.")]
    assert len(product) >= 8  # the writer's and the snapshot's reads are imported above
    for read in product:  # (a test's own shapes are registered too, and left out)
        names = list(inspect.signature(read.build).parameters)
        assert set(names) <= set(args), f"no value for a read's arguments {names}: add one to `args`"
        call = [args[name] for name in names]
        with transaction.atomic():  # the game row's read takes its lock
            if isinstance(read, PreparedRows):
                orm, mine = list(read.build()), read.rows()
                assert orm and mine == orm
            else:
                orm = [_fields(o) for o in read.build(*call)]
                for _ in range(2):  # compiled on the first call, reused on the second
                    assert [_fields(o) for o in read.fetch(*call)] == orm
                assert orm


@pytest.mark.parametrize("text", [
    '{"turn":2,"racks":[["R1","K13"],[]],"pile":["J=K7"],"score":-12.5,"done":false,"x":null}',
    "123456789012345678901234567890", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    '{"big":[99999999999999999999,1]}', "1e400", "-Infinity", "NaN", '"\\ud800"', '"caf\\u00e9 \\ud83d\\ude00"',
    '{"a":1,"a":2}', "-0.0", "1E5", '"1234567890123456789012"',
])
def test_json_columns_decode_to_what_the_standard_library_reads(text):
    import json

    from games.prepared import json_loads

    expected, mine = json.loads(text), json_loads(text)
    assert repr(mine) == repr(expected) and type(mine) is type(expected)


@pytest.mark.parametrize("text", ["", "{", "[1,]", "{'a': 1}", "tru"])
def test_text_that_is_not_json_is_refused_as_the_standard_library_refuses_it(text):
    import json

    from games.prepared import json_loads

    with pytest.raises(json.JSONDecodeError):
        json_loads(text)


def test_the_writers_reads_decode_their_json_columns_without_the_standard_decoder(alice, bob):
    from django.db.models import JSONField

    table = online_table(alice, bob)
    expected = game_of(table)
    with transaction.atomic():
        game = commit._LOCK_BY_TABLE.get(table.pk)
    assert game.position == expected.position and game.round.initial_position == expected.round.initial_position
    converters = commit._LOCK_BY_TABLE._compiled["default"][7]
    functions = [f for _pos, (fs, _e) in converters for f in fs]
    assert functions and not any(getattr(f, "__func__", None) is JSONField.from_db_value for f in functions)


@pytest.mark.parametrize("value", [
    {"turn": 1, "racks": [["R1", "K13"], []], "note": "ünïcode 😀", "x": None, "ok": True, "n": -3.25},
    {1: "integer key", "2": [1, 2]}, [10**30, -(10**20)], "\ud800",
])
def test_json_columns_are_written_as_the_standard_library_writes_them(alice, bob, value):
    import json

    from django.db import connection

    from games.prepared import json_dumps

    table = online_table(alice, bob)
    game = game_of(table)
    if value == "\ud800":  # what json writes and PostgreSQL refuses is refused the same
        with pytest.raises(DataError), transaction.atomic():
            game.position = value
            commit.prepared.save_row(game)
        return
    text = json_dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    adapted = Game._meta.get_field("position").get_db_prep_save(value, connection)
    assert commit.prepared._json_by_orjson([adapted])[0].dumps is json_dumps  # the writer's writes use it
    game.position = value
    commit.prepared.save_row(game)
    with connection.cursor() as cursor:  # the stored jsonb, compared as PostgreSQL reads it
        cursor.execute("SELECT position = %s::jsonb FROM games_game WHERE id = %s", [json.dumps(value), game.pk])
        assert cursor.fetchone() == (True,)


def test_a_datetime_in_a_json_column_is_refused_as_before(alice, bob):
    from django.utils import timezone

    table = online_table(alice, bob)
    game = game_of(table)
    game.position = {"at": timezone.now()}
    with pytest.raises(TypeError), transaction.atomic():
        commit.prepared.save_row(game)
