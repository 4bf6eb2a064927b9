"""Rematch: the same options offered to the same humans; each accepts or declines; the
match starts once all answered or the answer time is over, computers in the free seats."""
from datetime import timedelta

import pytest
from django.urls import reverse

from games import tasks
from games.errors import TableError
from games.models import Seat, Table
from games.play import rematch, tables
from tests.games.play.helpers import online_table, play_out

pytestmark = pytest.mark.django_db


def finished(creator, *others, **kwargs):
    table = online_table(creator, *others, **kwargs)
    play_out(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def humans(table):
    return {s.index: s.user.username for s in Seat.objects.filter(table=table, user__isnull=False)}


def test_one_accepts_one_declines_and_computers_fill_the_rest(alice, bob, carol):
    old = finished(alice, bob, carol, options={"rounds": 1, "doubling": False})
    new = rematch.offer(bob, old.pk)
    assert new.options == old.options and new.move_time == old.move_time and new.creator == bob
    assert new.status == Table.Status.OPEN and new.rematch_answers == {
        str(bob.pk): "yes", str(alice.pk): None, str(carol.pk): None}
    old.refresh_from_db()
    assert old.rematch_table_id == new.pk
    assert rematch.offer(alice, old.pk).pk == new.pk  # the one offered: alice accepts it
    assert Table.objects.get(pk=new.pk).status == Table.Status.OPEN  # carol has not answered
    rematch.answer(carol, new.pk, False)
    new.refresh_from_db()
    assert new.status == Table.Status.PLAYING
    assert set(humans(new).values()) == {"alice", "bob"}
    assert Seat.objects.filter(table=new, user__isnull=True, bot_level="normal").count() == 2


def test_the_answer_time_over_the_rematch_starts_anyway(alice, bob):
    old = finished(alice, bob)
    new = rematch.offer(alice, old.pk)
    assert tasks.rematch_start(new.pk) is False  # bob may still answer
    Table.objects.filter(pk=new.pk).update(rematch_deadline=new.rematch_deadline - timedelta(seconds=600))
    assert tasks.sweep()["rematches_started"] == 1
    new.refresh_from_db()
    assert new.status == Table.Status.PLAYING and set(humans(new).values()) == {"alice"}
    with pytest.raises(TableError) as err:
        rematch.answer(bob, new.pk, True)
    assert err.value.code == "table_not_open"


def test_only_the_matchs_humans_are_invited(alice, bob, carol):
    old = finished(alice, bob)
    with pytest.raises(TableError) as err:
        rematch.offer(carol, old.pk)
    assert err.value.code == "not_seated"
    new = rematch.offer(alice, old.pk)
    for attempt in (lambda: rematch.answer(carol, new.pk, True), lambda: tables.join_table(carol, new.pk)):
        with pytest.raises(TableError):
            attempt()
    assert "carol" not in humans(new).values()
    running = online_table(alice, bob)
    with pytest.raises(TableError) as err:
        rematch.offer(alice, running.pk)
    assert err.value.code == "table_not_open"


def test_rematch_through_the_pages(client, alice, bob):
    old = finished(alice, bob)
    client.force_login(alice)
    page = client.get(reverse("table", args=[old.pk])).content.decode()
    assert 'id="rematch-btn"' in page
    response = client.post(reverse("table_rematch", args=[old.pk]))
    old.refresh_from_db()
    assert response["Location"] == reverse("table", args=[old.rematch_table_id])
    assert 'id="quick-wait"' in client.get(response["Location"]).content.decode()
    client.force_login(bob)
    response = client.post(reverse("table_rematch_answer", args=[old.pk]), {"accept": "no"})
    assert response["Location"] == reverse("lobby")
    assert Table.objects.get(pk=old.rematch_table_id).status == Table.Status.PLAYING


def test_the_rematch_seats_name_the_invited_players_and_their_answers(client, alice, bob, carol):
    from games.snapshot import snapshot

    old = finished(alice, bob, carol)
    new = rematch.offer(alice, old.pk)
    client.force_login(alice)

    def seats_html():
        page = client.get(reverse("table", args=[new.pk])).content.decode()
        return page[page.index('id="prestart-seats"'):page.index("</ul>", page.index('id="prestart-seats"'))]

    html = seats_html()
    assert html.count("free seat") == 1  # four seats, three players: one was never anybody's
    assert html.count("waiting for an answer") == 2 and "bob" in html and "carol" in html
    _version, view, _seat = snapshot(new.pk, alice)
    assert sorted((i["user"], i["answer"], i["seat"]) for i in view["rematch_invited"]) == [
        ("bob", "waiting", None), ("carol", "waiting", None)]
    rematch.answer(carol, new.pk, False)
    html = seats_html()
    assert "declined: a computer takes the seat" in html and html.count("waiting for an answer") == 1
    assert {i["user"]: i["answer"] for i in snapshot(new.pk, alice)[1]["rematch_invited"]} == {
        "bob": "waiting", "carol": "declined"}
    client.force_login(bob)
    assert 'class="free invitee waiting"' in seats_html()
    # everyone answered: the match starts and the list of answers goes
    rematch.answer(bob, new.pk, True)
    assert snapshot(new.pk, bob)[1]["rematch_invited"] == []


def test_a_rematch_commits_a_chain_of_its_own_before_anyone_sits_and_takes_fresh_seeds(alice, bob):
    from games.engine import fairdeal
    from games.play import seeding

    old = finished(alice, bob)
    new = rematch.offer(alice, old.pk)
    assert len(new.chain_tip) == 64 and new.chain_tip != old.chain_tip  # a new match: a new chain
    assert all(seat.client_seed is None for seat in Seat.objects.filter(table=new))  # the old seeds stay behind
    assert seeding.submit_seed(alice, new.pk, 1, "alice again").ok
    rematch.answer(bob, new.pk, True)
    new.refresh_from_db()
    game = new.game
    assert game.round.chain_tip == new.chain_tip and fairdeal.chain_reaches(game.round.server_seed, 1, new.chain_tip)
    assert "alice again" in game.round.client_seeds
