"""Leaving a running match for good (a computer plays the seat, rated last) and practice
tables without a move clock."""
import pytest
from django.urls import reverse

from games.errors import TableError
from games.models import Game, Seat, Table
from games.play import presence, tables, turns
from games.snapshot import open_tables
from leaderboards.models import RatingChange, SoloRecord
from leaderboards.recording import record_result
from tests.games.play.helpers import game_of, online_table, play_out, solo_table

pytestmark = pytest.mark.django_db


def test_a_player_who_leaves_is_played_by_a_computer_and_rated_last(alice, bob):
    table = online_table(alice, bob)
    tables.leave_match(bob, table.pk)
    seat = Seat.objects.get(table=table, user=bob)
    assert seat.left and seat.autoplay
    # the lobby's running list marks the player who left (the computers' names say so)
    listed = {s["name"]: s for s in next(t for t in open_tables() if t["id"] == table.pk)["seats"]}
    assert listed["bob"]["computer"] and listed["bob"]["left"] and not listed["alice"]["left"]
    assert [s["left"] for name, s in listed.items() if s["computer"] and name != "bob"] == [False, False]
    # coming back changes nothing: the seat stays the computer's, the socket is a spectator's
    assert presence.set_connected(bob, table.pk, True) is None
    assert presence.resume_seat(bob, table.pk) is None
    game = game_of(table)
    outcome = turns.submit_action(bob, table.pk, {"type": "draw"}, game.version)
    assert outcome.code == "not_seated"
    assert Seat.objects.get(pk=seat.pk).autoplay
    presence.set_connected(alice, table.pk, True)  # alice stays at the table, socket open
    game = play_out(table)  # alice's turns time out too, putting her on autoplay: not leaving
    assert game.match.finished is not None
    assert Seat.objects.get(table=table, user=alice).autoplay
    assert presence.resume_seat(bob, table.pk) is None
    record_result(game.match)
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=game.match)}
    assert changes[bob.pk].abandoned and changes[bob.pk].place == 2
    assert not changes[alice.pk].abandoned and changes[alice.pk].place == 1


def test_leaving_on_ones_own_turn_hands_the_turn_to_the_computer(alice, bob):
    table = online_table(alice, bob)
    game = game_of(table)
    turn_user = alice if game.position["turn"] == 0 else bob
    if game.position["turn"] not in (0, 2):
        game = play_out(table, until=lambda g: g.position and g.position["turn"] in (0, 2))
        turn_user = alice if game.position["turn"] == 0 else bob
    assert game.deadline_kind == Game.Deadline.MOVE
    tables.leave_match(turn_user, table.pk)
    game = game_of(table)
    assert game.deadline_kind == Game.Deadline.BOT


def test_leave_match_refusals(client, alice, bob, carol):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online")
    with pytest.raises(TableError) as err:
        tables.leave_match(alice, table.pk)
    assert err.value.code == "table_not_open"
    tables.join_table(bob, table.pk)
    tables.start_match(alice, table.pk)
    with pytest.raises(TableError) as err:
        tables.leave_match(carol, table.pk)
    assert err.value.code == "not_seated"
    client.force_login(bob)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="leave-match-btn"' in page
    assert client.post(reverse("table_leave_match", args=[table.pk]))["Location"] == reverse("lobby")
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="leave-match-btn"' not in page and 'id="spectator-badge"' in page
    with pytest.raises(TableError):
        tables.leave_match(bob, table.pk)


def test_leaving_a_solo_table_closes_it_and_it_counts_nowhere(alice):
    table = solo_table(alice)
    tables.leave_match(alice, table.pk)
    table.refresh_from_db()
    game = game_of(table)
    assert table.status == Table.Status.CLOSED and game.deadline_kind == ""
    assert game.match.finished is None
    assert not SoloRecord.objects.filter(user=alice).exists()


def test_a_practice_table_has_no_move_clock(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo", practice=True)
    game = play_out(table, until=lambda g: g.position["turn"] == 0)
    assert game.deadline_kind == "" and game.deadline is None and game.turn == 0
    if len(game.position["seats"][0]["rack"]) == 14:  # not the first turn of the round: draw first
        assert turns.submit_action(alice, table.pk, {"type": "draw"}, game.version).ok
        game = game_of(table)
        assert game.deadline is None and game.deadline_kind == ""
    tile = game.position["seats"][0]["rack"][-1]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    assert game_of(table).deadline_kind == Game.Deadline.BOT  # the computers still play on


def test_practice_is_solo_only_and_on_in_the_lobby_form(client, alice):
    online = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", practice=True)
    assert not online.practice
    client.force_login(alice)
    assert 'name="practice" checked' in client.get(reverse("lobby")).content.decode().replace('id="id_practice" ', "")
    client.post(reverse("table_create"), {"ruleset": "okey51", "mode": "solo", "play": "individual", "rounds": "1",
                                          "move_time": "30", "bot_level": "normal", "practice": "on"})
    assert Table.objects.get(creator=alice, mode="solo").practice

