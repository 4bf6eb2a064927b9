"""Follows, friend requests, blocks, challenges and notifications on the real PostgreSQL,
through the site's own pages and actions (no socket here: tests/social/test_page_socket.py)."""
import json

import pytest

from accounts.erasure import erase_user
from accounts.relations import Block, Follow
from games.chat.service import ChatError, post
from games.models import Seat, Table
from games.play import tables
from social import challenges
from social.models import Challenge, Notification, PageSocket
from tests.games.play.helpers import online_table

pytestmark = pytest.mark.django_db(transaction=True)


def messages_of(response):
    """The messages the page shows that came from the last action (earlier ones of the same
    session, never shown, come first)."""
    return [str(m) for m in response.context["messages"]][-1:]


def test_following_sends_a_friend_request_and_following_back_makes_friends(client, alice, bob):
    client.force_login(alice)
    response = client.post("/players/bob/follow/", follow=True)
    assert messages_of(response) == ["You follow bob."]
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    request = Notification.objects.get(user=bob)
    assert (request.kind, request.actor) == ("friend_request", alice)
    client.force_login(bob)
    page = client.get("/friends/")
    assert [p["username"] for p in page.context["requests"]] == ["alice"]
    client.post("/players/alice/follow/")
    page = client.get("/friends/")
    assert page.context["requests"] == []
    assert [(p["username"], p["friend"]) for p in page.context["following"]] == [("alice", True)]
    assert Notification.objects.filter(user=alice, kind="friend_request").count() == 0  # a follow back is no request


def test_nobody_follows_themselves_and_a_second_follow_changes_nothing(client, alice, bob):
    client.force_login(alice)
    assert messages_of(client.post("/players/alice/follow/", follow=True)) == ["That is you."]
    client.post("/players/bob/follow/")
    client.post("/players/bob/follow/")
    assert Follow.objects.filter(follower=alice).count() == 1
    assert Notification.objects.filter(user=bob).count() == 1


def test_a_block_ends_the_follows_and_stops_follow_challenge_and_chat(client, alice, bob):
    table = tables.create_table(alice, "okey51", mode="online")
    tables.join_table(bob, table.pk)
    client.force_login(alice)
    client.post("/players/bob/follow/")
    client.force_login(bob)
    client.post("/players/alice/follow/")
    client.post("/players/alice/challenge/", {"ruleset": "rami"})
    assert Challenge.objects.get(challenger=bob).status == "pending"
    client.force_login(alice)
    assert messages_of(client.post("/players/bob/block/", follow=True)) == ["You blocked bob."]
    assert not Follow.objects.exists()
    assert Challenge.objects.get(challenger=bob).status == "cancelled"
    client.force_login(bob)
    refused = "You cannot follow or challenge this player."
    assert messages_of(client.post("/players/alice/follow/", follow=True)) == [refused]
    assert messages_of(client.post("/players/alice/challenge/", {"ruleset": "okey51"}, follow=True)) == [refused]
    assert not Follow.objects.exists() and Challenge.objects.filter(status="pending").count() == 0
    with pytest.raises(ChatError) as refused_line:
        post(bob, table.pk, "hello")
    assert refused_line.value.code == "blocked_chat"
    post(alice, table.pk, "I can still talk")  # the one who blocked is not stopped
    client.force_login(alice)
    client.post("/players/bob/unblock/")
    assert not Block.objects.exists()
    post(bob, table.pk, "hello again")


def test_accepting_a_challenge_seats_both_at_a_new_private_table(client, alice, bob):
    client.force_login(alice)
    assert messages_of(client.post("/players/bob/challenge/", {"ruleset": "okey17"}, follow=True)) == [
        "Challenge sent to bob."]
    found = Challenge.objects.get()
    note = Notification.objects.get(user=bob)
    assert (note.kind, note.challenge) == ("challenge", found)
    client.force_login(bob)
    response = client.post(f"/challenges/{found.pk}/accept/", HTTP_ACCEPT="application/json")
    table = Table.objects.get()
    assert response.json() == {"url": f"/table/{table.pk}/"}
    assert (table.ruleset, table.private, table.mode, table.status, table.creator) == (
        "okey17", True, "online", "open", alice)
    assert sorted(Seat.objects.filter(table=table, user__isnull=False).values_list("user__username", flat=True)) == [
        "alice", "bob"]
    found.refresh_from_db()
    assert (found.status, found.table) == ("accepted", table)
    again = client.post(f"/challenges/{found.pk}/accept/", HTTP_ACCEPT="application/json")
    assert again.status_code == 409 and again.json() == {"error": "This challenge is no longer waiting for an answer."}


def test_declining_tells_the_challenger_declined_and_nothing_more(client, alice, bob):
    client.force_login(alice)
    client.post("/players/bob/challenge/", {"ruleset": "rami"})
    found = Challenge.objects.get()
    client.force_login(bob)
    assert client.post(f"/challenges/{found.pk}/decline/", HTTP_ACCEPT="application/json").json() == {"ok": True}
    client.force_login(alice)
    page = client.get("/notifications/")
    assert [(n["kind"], n["text"]) for n in page.context["notifications"]] == [("declined", "bob declined.")]
    assert not Table.objects.exists()


def test_only_the_challenged_player_answers_and_only_while_it_waits(client, alice, bob, carol):
    found = challenges.challenge(alice, bob, "okey51")
    client.force_login(carol)
    assert client.post(f"/challenges/{found.pk}/accept/", HTTP_ACCEPT="application/json").status_code == 409
    Challenge.objects.filter(pk=found.pk).update(created=found.created - challenges.LIFETIME)
    client.force_login(bob)
    assert client.post(f"/challenges/{found.pk}/accept/", HTTP_ACCEPT="application/json").status_code == 409
    assert not Table.objects.exists()


def test_a_challenge_names_a_game_the_lobby_offers_and_a_player_has_at_most_5_waiting(alice, bob, make_user):
    with pytest.raises(challenges.ChallengeError) as refused:
        challenges.challenge(alice, bob, "chess")
    assert str(refused.value) == "Choose a game."
    others = [make_user(f"p{n}") for n in range(6)]
    for other in others[:5]:
        challenges.challenge(alice, other, "okey51")
    same = challenges.challenge(alice, others[0], "okey51")  # the one already waiting, not a sixth
    assert same.pk == Challenge.objects.get(challenged=others[0]).pk
    with pytest.raises(challenges.ChallengeError) as refused:
        challenges.challenge(alice, others[5], "okey51")
    assert str(refused.value) == "You already have 5 challenges waiting for an answer."


def test_a_followed_players_public_table_notifies_the_followers_but_not_a_private_one(client, alice, bob, carol):
    client.force_login(bob)
    client.post("/players/alice/follow/")
    client.force_login(carol)
    client.post("/players/alice/follow/")
    client.force_login(alice)
    client.post("/players/carol/block/")  # alice blocked carol: carol hears nothing of her
    public = tables.create_table(alice, "rami", mode="online")
    tables.create_table(alice, "okey51", mode="online", private=True)
    tables.create_table(alice, "okey51", mode="solo")
    notes = Notification.objects.filter(kind="table_started")
    assert [(n.user.username, n.table_id) for n in notes] == [("bob", public.pk)]
    client.force_login(bob)
    page = client.get("/notifications/")
    assert page.context["notifications"][0]["text"] == "alice opened a table of Rami."
    assert page.context["notifications"][0]["url"] == f"/table/{public.pk}/"


def test_your_turn_is_listed_only_for_a_player_at_that_running_table_once_a_minute(client, alice, bob, carol):
    table = online_table(alice, bob)
    client.force_login(alice)
    assert client.post(f"/notifications/turn/{table.pk}/").json()["id"] is not None
    assert client.post(f"/notifications/turn/{table.pk}/").json() == {"id": None}
    client.force_login(carol)
    assert client.post(f"/notifications/turn/{table.pk}/").status_code == 404
    client.force_login(alice)
    page = client.get("/notifications/")
    assert [n["text"] for n in page.context["notifications"]] == [f"It's your turn at table {table.pk}."]
    assert Notification.objects.filter(user=alice, read=False).count() == 0  # seen: read


def test_notifications_are_written_in_the_readers_language(client, alice, bob):
    challenges.challenge(alice, bob, "okey51")
    client.force_login(bob)
    for language, text in [("fr", "alice vous défie à une partie de Okey 51."),
                           ("es", "alice te desafía a una partida de Okey 51."),
                           ("tr", "alice size bir Okey 51 oyunu için meydan okuyor."),
                           ("en", "alice challenges you to a game of Okey 51.")]:
        client.cookies["django_language"] = language
        page = client.get("/notifications/")
        assert page.context["notifications"][0]["text"] == text


def test_deleting_an_account_removes_its_relations_challenges_and_notifications(client, alice, bob, carol):
    online_table(alice, bob)  # a shared game: alice's row stays, anonymised
    client.force_login(alice)
    client.post("/players/bob/follow/")
    client.post("/players/carol/block/")
    challenges.challenge(alice, bob, "okey51")
    PageSocket.objects.create(channel="x", user=alice, seen="2026-01-01T00:00:00Z")
    export = json.loads(client.get("/settings/data/download/").content)
    assert [f["player"] for f in export["following"]] == ["bob"]
    assert [b["player"] for b in export["blocked"]] == ["carol"]
    assert [(c["to"], c["status"]) for c in export["challenges"]] == [("bob", "pending")]
    assert export["profile"]["picture"] is False
    assert erase_user(alice) == "anonymised"
    assert not Follow.objects.exists() and not Block.objects.exists()
    assert not Challenge.objects.exists() and not PageSocket.objects.exists()
    assert not Notification.objects.exists()
