"""Sanctions at the game tables, through the signal `accounts` sends and `games`
receives: a suspended or banned player loses their seats, a muted one keeps them; a
closed table says why."""
import pytest
from django.test import Client

from accounts.moderation import sanction
from games.models import Game, Seat, Table
from games.play import tables
from games.play.sanctions import release_seats
from tests.games.play.helpers import online_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_banned_players_solo_table_closes_with_the_reason(alice, staff):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo")  # starts at once
    assert table.status == Table.Status.PLAYING
    sanction(alice, "ban", "abusive names", by=staff)
    table.refresh_from_db()
    assert (table.status, table.closed_reason) == (Table.Status.CLOSED, "abusive names")
    assert Game.objects.get(table=table).deadline is None  # no more computer turns


def test_a_suspended_players_online_seat_goes_to_the_computer(alice, bob, carol, staff):
    table = online_table(alice, bob, carol)
    game = Game.objects.get(table=table)
    turn_seat = Seat.objects.get(table=table, index=game.position["turn"])
    sanctioned = turn_seat.user if turn_seat.user is not None else alice
    sanction(sanctioned, "suspend", "stalling", by=staff)
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, user=sanctioned)
    game.refresh_from_db()
    assert table.status == Table.Status.PLAYING  # the others' match goes on
    assert seat.autoplay is True
    others = Seat.objects.filter(table=table).exclude(user=sanctioned)
    assert not any(s.autoplay for s in others)
    if turn_seat.user == sanctioned:
        assert game.deadline_kind == Game.Deadline.BOT  # the computer moves for them now


def test_a_suspended_player_leaves_an_online_table_not_started(alice, bob, staff):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online")
    tables.join_table(bob, table.pk)
    sanction(bob, "suspend", "spam", by=staff)
    assert not Seat.objects.filter(table=table, user=bob).exists()
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_a_mute_keeps_the_seats(alice, bob, staff):
    table = online_table(alice, bob)
    sanction(bob, "mute", "caps lock", by=staff)
    assert Seat.objects.get(table=table, user=bob).autoplay is False


def test_the_match_page_of_a_closed_table_says_closed_and_why(alice, bob, staff):
    table = online_table(alice, bob)
    tables.close_table(table.pk, "stuck table, sorry", by=staff)
    page = Client().get(f"/table/{table.pk}/match/").content.decode()
    assert "Closed" in page and "stuck table, sorry" in page
    assert "In progress" not in page and "still being played" not in page


def test_releasing_seats_reports_what_it_did(alice, bob, carol):
    solo = tables.create_table(alice, "okey51", {}, mode="solo")
    waiting = tables.create_table(bob, "okey51", {}, mode="online")
    tables.join_table(alice, waiting.pk)
    playing = online_table(carol, alice)
    assert release_seats(alice, "cheating") == {"closed": [solo.pk], "left": [waiting.pk], "autoplay": [playing.pk]}
    assert release_seats(alice, "cheating") == {"closed": [], "left": [], "autoplay": []}  # nothing left to release
