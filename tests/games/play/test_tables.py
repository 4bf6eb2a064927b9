"""games.play.tables with real transactions on the test database (PostgreSQL in CI):
creating, joining, leaving, starting and closing tables."""
import hashlib

import pytest
from django.utils import timezone

from games.engine import api, fairdeal
from games.errors import TableError
from games.models import Game, Match, Seat, Table
from games.play import tables
from tests.deals import stored_deal_seed
from tests.games.play.helpers import game_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_creates_a_solo_table_with_three_computers_and_deals(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo", move_time=30, bot_level="easy")
    assert table.status == Table.Status.PLAYING
    seats = list(table.seats.order_by("index"))
    assert [s.user_id for s in seats] == [alice.pk, None, None, None]
    assert [s.bot_level for s in seats[1:]] == ["easy", "easy", "easy"]
    game = game_of(table)
    assert game.version == 1
    assert game.position["turn"] == 0 and len(game.position["seats"][0]["rack"]) == 15
    assert game.deadline_kind == Game.Deadline.MOVE
    assert 29 <= (game.deadline - timezone.now()).total_seconds() <= 30
    rnd = game.round
    assert rnd.algorithm == fairdeal.SHUFFLE_2 and len(rnd.server_seed) == 64 and rnd.chain_tip == table.chain_tip
    assert fairdeal.chain_reaches(rnd.server_seed, 1, table.chain_tip)
    assert rnd.commitment == hashlib.sha256(rnd.server_seed.encode("ascii")).hexdigest()
    assert rnd.client_seeds == ["", "", "", ""]
    # the deal is reproducible from the seeds (docs/fair-deals.md §3): round 1 of this table
    deal_seed = stored_deal_seed(rnd, table)
    assert api.ruleset("okey51").deal(table.options, deal_seed, 4, 0) == rnd.initial_position == game.position


@pytest.mark.parametrize("options, mode, move_time", [
    ({"rounds": 2}, "solo", 30),  # okey51 plays 1 or 3 rounds
    ({}, "tournament", 30),
    ({}, "solo", 4),
    ({}, "solo", 601),
])
def test_bad_table_options_create_nothing(alice, options, mode, move_time):
    with pytest.raises(TableError) as refused:
        tables.create_table(alice, "okey51", options, mode=mode, move_time=move_time)
    assert refused.value.code == "bad_options"
    assert not Table.objects.exists() and not Game.objects.exists()


def test_an_unknown_ruleset_is_bad_options(alice):
    with pytest.raises(TableError) as refused:
        tables.create_table(alice, "chess", {}, mode="solo")
    assert refused.value.code == "bad_options"


def test_it_seats_the_second_human_face_to_face(alice, bob, carol):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    assert tables.join_table(bob, table.pk).index == 2
    assert tables.join_table(carol, table.pk).index == 1
    assert tables.join_table(bob, table.pk).index == 2  # joining again keeps the seat
    assert table.seats.filter(user__isnull=False).count() == 3


def test_players_seated_together_start_at_once_face_to_face_with_computers_in_the_free_seats(alice, bob, carol):
    table = tables.seat_together([alice, bob, carol], "okey51", move_time=40, players=4)
    assert table.status == Table.Status.PLAYING and table.mode == Table.Mode.ONLINE and table.creator_id == alice.pk
    seats = list(table.seats.order_by("index"))
    # as the joins would seat them: the second faces the creator, the third takes the next seat
    assert [s.user_id for s in seats] == [alice.pk, carol.pk, bob.pk, None]
    assert [s.bot_level for s in seats] == ["", "", "", "normal"]
    game = game_of(table)
    assert game.version == 1  # one version, the deal: no join versions before it
    rnd = game.round
    assert rnd.algorithm == fairdeal.SHUFFLE_2 and rnd.chain_tip == table.chain_tip
    assert fairdeal.chain_reaches(rnd.server_seed, 1, table.chain_tip)
    assert api.ruleset("okey51").deal(table.options, stored_deal_seed(rnd, table), 4, 0) == game.position
    assert table.move_time == 40 and game.deadline_kind == Game.Deadline.MOVE


@pytest.mark.parametrize("count, players", [(0, 4), (5, 4), (3, 5)])
def test_seating_more_players_than_seats_or_none_is_refused(make_user, count, players):
    users = [make_user(f"p{k}") for k in range(count)]
    before = Table.objects.count()
    with pytest.raises(TableError) as refused:
        tables.seat_together(users, "okey51", players=players)
    assert refused.value.code == "bad_options" and Table.objects.count() == before


def test_a_taken_seat_or_a_full_table_is_refused(alice, bob, carol, make_user):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    tables.join_table(bob, table.pk, seat_index=1)
    with pytest.raises(TableError) as refused:
        tables.join_table(carol, table.pk, seat_index=1)
    assert refused.value.code == "seat_taken"
    tables.join_table(carol, table.pk)
    tables.join_table(make_user("dave"), table.pk)
    with pytest.raises(TableError) as refused:
        tables.join_table(make_user("erin"), table.pk)
    assert refused.value.code == "table_full"


def test_it_refuses_to_start_for_anyone_but_the_creator(alice, bob):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    tables.join_table(bob, table.pk)
    with pytest.raises(TableError) as err:
        tables.start_match(bob, table.pk)
    assert err.value.code == "not_creator"
    assert not Match.objects.filter(table=table).exists()


def test_start_fills_free_seats_with_computers(alice, bob, carol):
    table = tables.create_table(alice, "okey51", {}, mode="online", bot_level="strong")
    tables.join_table(bob, table.pk)
    tables.start_match(alice, table.pk)
    seats = {s.index: s for s in Seat.objects.filter(table=table)}
    assert seats[0].user_id == alice.pk and seats[2].user_id == bob.pk
    assert seats[1].bot_level == seats[3].bot_level == "strong"
    assert seats[1].user_id is None
    with pytest.raises(TableError) as err:
        tables.join_table(carol, table.pk)
    assert err.value.code == "table_not_open"


def test_leaving_frees_the_seat_and_the_creator_leaving_closes_the_table(alice, bob):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    tables.join_table(bob, table.pk)
    tables.leave_table(bob, table.pk)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    with pytest.raises(TableError) as refused:
        tables.leave_table(bob, table.pk)
    assert refused.value.code == "not_seated"
    tables.leave_table(alice, table.pk)
    assert Table.objects.get(pk=table.pk).status == Table.Status.CLOSED


def test_an_unknown_table_is_not_found(alice):
    for operation in (tables.join_table, tables.leave_table, tables.start_match):
        with pytest.raises(TableError) as refused:
            operation(alice, 987654)
        assert refused.value.code == "not_found"


def test_closing_needs_a_reason_and_happens_once(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    with pytest.raises(ValueError):
        tables.close_table(table.pk, "  ")
    assert tables.close_table(table.pk, "stuck") is True
    assert tables.close_table(table.pk, "stuck again") is False
    table.refresh_from_db()
    assert (table.status, table.closed_reason) == (Table.Status.CLOSED, "stuck")
