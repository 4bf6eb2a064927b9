"""Moderation through the Django admin, against the real database and channel layer:
suspending closes the user's sockets and keeps them out (with the reason), closing a
table stops it, voiding a match recomputes the ratings."""
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.utils import timezone, translation

from accounts.moderation import Sanction, sanction
from games.models import Game, Match, Table
from leaderboards import record_result
from leaderboards.models import Rating, RatingChange, VoidedMatch
from tests.games.play.helpers import online_table as started_table
from tests.leaderboards.helpers import finished_match
from tests.moderation.sockets import Socket, online_table, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def admin_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def run_action(client, url, action, pks, **fields):
    """Post an admin action with its reason form already filled. Returns the response."""
    data = {"action": action, ACTION_CHECKBOX_NAME: [str(pk) for pk in pks], "apply": "1", **fields}
    return client.post(url, data)


@pytest.mark.asyncio
async def test_suspending_a_user_in_the_admin_closes_their_sockets(alice, bob, staff, session_cookie):
    table = await online_table(alice, bob)
    a = await open_socket(table, alice, session_cookie)
    b = await open_socket(table, bob, session_cookie)
    until = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    client = await database_sync_to_async(admin_client)(staff)
    response = await database_sync_to_async(run_action)(
        client, "/admin/auth/user/", "action_suspend",
        [alice.pk], reason="cheating with a second account", until=until)
    assert response.status_code == 302
    told = None
    for _ in range(20):  # skip the snapshots already on their way
        closed = await a.comm.receive_output(timeout=5)
        if closed["type"] == "websocket.close":
            break
        frame = json.loads(closed["text"])
        if frame["type"] == "error":
            told = frame
    assert closed == {"type": "websocket.close", "code": 4403}
    # the user is told why before the close (the client shows it)
    assert told["code"] == "suspended" and "cheating with a second account" in told["message"]
    assert "UTC" in told["message"]
    # bob's socket is untouched and still answers
    await b.send({"type": "sync"})
    assert (await b.recv_type("snapshot"))["type"] == "snapshot"
    stored = await database_sync_to_async(Sanction.objects.get)(user=alice)
    assert (stored.kind, stored.reason, stored.created_by_id) == ("suspend", "cheating with a second account",
                                                                   staff.pk)
    assert stored.until > timezone.now() + timedelta(days=2)
    # and a new socket is refused
    again = Socket(table.pk, await database_sync_to_async(session_cookie)(alice))
    connected, _code = await again.connect()
    assert connected  # accepted only to say why, then closed
    refused = json.loads((await again.comm.receive_output(timeout=5))["text"])
    assert refused["code"] == "suspended" and "cheating with a second account" in refused["message"]
    assert await again.comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}
    await b.close()


def test_a_suspended_user_is_logged_out_and_sees_the_reason(client, alice, staff):
    client.force_login(alice)
    assert client.get("/settings/").status_code == 200
    sanction(alice, "suspend", "spamming the chat", timezone.now() + timedelta(hours=2), by=staff)
    response = client.get("/settings/")
    assert response.status_code == 403 and "spamming the chat" in response.content.decode()
    # logged out for good: the next page is the anonymous one
    assert client.get("/settings/").status_code == 302
    # logging in again shows the reason instead of the site
    response = client.post("/accounts/login/", {"login": "alice@example.com", "password": "pw-alice-1234"},
                           follow=True)
    assert response.status_code == 403 and "spamming the chat" in response.content.decode()
    assert "Successfully signed in" not in response.content.decode()  # no "signed in" line for a suspended user
    assert client.get("/settings/").status_code == 302
    assert "Successfully signed in" not in client.get("/").content.decode()  # nor on the next page


def test_an_ended_or_lifted_suspension_lets_the_user_back(client, alice, staff):
    sanction(alice, "suspend", "cool down", timezone.now() - timedelta(minutes=1), by=staff)
    client.force_login(alice)
    assert client.get("/settings/").status_code == 200
    ban = sanction(alice, "ban", "repeated abuse", by=staff)
    assert ban.until is None and client.get("/settings/").status_code == 403
    staff_client = admin_client(staff)
    assert run_action(staff_client, "/admin/auth/user/", "lift_sanctions", [alice.pk], reason="appeal accepted"
                      ).status_code == 302
    client.force_login(alice)
    assert client.get("/settings/").status_code == 200


def test_the_admin_asks_for_a_reason_before_suspending(alice, staff):
    client = admin_client(staff)
    page = client.post("/admin/auth/user/", {"action": "action_suspend", ACTION_CHECKBOX_NAME: [str(alice.pk)]})
    assert page.status_code == 200 and 'name="reason"' in page.content.decode()
    assert not Sanction.objects.exists()
    empty = run_action(client, "/admin/auth/user/", "action_suspend", [alice.pk], reason="")
    assert empty.status_code == 200 and not Sanction.objects.exists()


def test_the_user_page_lists_matches_sanctions_and_search_finds_users(alice, bob, staff):
    match = finished_match([alice, bob, None, None], [10, 20, 30, 40])
    sanction(alice, "mute", "caps lock", by=staff)
    client = admin_client(staff)
    page = client.get(f"/admin/auth/user/{alice.pk}/change/").content.decode()
    assert f"/table/{match.table_id}/match/" in page and "caps lock" in page
    found = client.get("/admin/auth/user/?q=alice@example").content.decode()
    assert f"/admin/auth/user/{alice.pk}/change/" in found
    assert f"/admin/auth/user/{bob.pk}/change/" not in found


def test_closing_a_live_table_stops_it(alice, bob, staff):
    table = started_table(alice, bob)
    before = Game.objects.get(table=table)
    assert before.deadline is not None
    client = admin_client(staff)
    assert client.get("/admin/games/table/?status__exact=playing").content.decode().count(f"#{table.pk} ") >= 1
    response = run_action(client, "/admin/games/table/", "close_tables", [table.pk], reason="stuck table")
    assert response.status_code == 302
    table.refresh_from_db()
    game = Game.objects.get(table=table)
    assert table.status == Table.Status.CLOSED
    assert (game.deadline, game.deadline_kind, game.version) == (None, "", before.version + 1)


def test_voiding_a_match_in_the_admin_reverts_its_rating_changes(alice, bob, carol, staff):
    first = finished_match([alice, bob, carol, None], [500, 10, 20, 30], minutes=1)
    second = finished_match([alice, bob, None, None], [10, 20, 30, 40], minutes=2)
    record_result(first)
    record_result(second)
    client = admin_client(staff)
    response = run_action(client, "/admin/games/match/", "void_matches", [first.pk], reason="bug in the deal")
    assert response.status_code == 302
    assert VoidedMatch.objects.get(match=first).reason == "bug in the deal"
    assert not RatingChange.objects.filter(match=first).exists()
    assert set(Rating.objects.values_list("user__username", flat=True)) == {"alice", "bob"}
    assert Rating.objects.get(user=alice).wins == 1


def test_admin_sections_and_french_model_names(staff):
    client = Client()
    client.force_login(staff)
    page = client.get("/admin/").content.decode()
    assert "Players and moderation" in page  # not a second "Accounts" next to allauth's
    with translation.override("fr"):
        assert str(Match._meta.verbose_name_plural) == "parties"
