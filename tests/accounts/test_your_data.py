"""A player's own data on the real PostgreSQL: the JSON download holds every kind of row
stored about them, and deleting the account (confirmed with the password) removes their
personal data and chat lines while the games they played with others stay, anonymised,
with the other players' ratings unchanged."""
import json

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.moderation import Sanction
from accounts.player_settings import PlayerSettings
from games import reviews
from games.chat.models import ChatMessage, ChatReport
from games.models import Match, Move, Round, RoundReview, Seat, Table
from leaderboards.models import Rating, RatingChange, SoloRecord
from leaderboards.recording import recompute, record_result
from tests.games.play.helpers import online_table, play_out
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "pw-alice-1234"


@pytest.fixture
def history(alice, bob, carol):
    """alice's stored life: settings, a played-out rated match with bob, a rated match with
    bob and carol, a solo record, chat lines (hers and bob's), a report she made, a sanction."""
    PlayerSettings.objects.create(user=alice, display_name="Alice the Okey", language="fr")
    EmailAddress.objects.create(user=alice, email=alice.email, verified=True, primary=True)
    played = online_table(alice, bob)
    Seat.objects.filter(table=played).update(autoplay=True)
    with transaction.atomic():
        play_out(played)
    for rnd in Round.objects.filter(match__table=played):  # as the review task does after each round
        reviews.store_round_reviews(rnd.pk)
    shared = finished_match([alice, bob, carol, None], [12, 8, 4, 0])
    record_result(shared)
    solo = finished_match([alice, None, None, None], [99, 0, 0, 0], mode="solo")
    SoloRecord.objects.create(user=alice, ruleset="okey51", total=99, rounds=1, match=solo, played=timezone.now())
    ChatMessage.objects.create(table=played, user=alice, text="good luck everyone")
    ChatMessage.objects.create(table=played, user=bob, text="thanks alice")
    ChatReport.objects.create(table=played, reporter=alice, reported=bob, reason="spam in chat",
                              lines=[{"id": 1, "user": "bob", "user_id": bob.pk, "text": "thanks alice"}])
    ChatReport.objects.create(table=played, reporter=bob, reported=alice, reason="rude",
                              lines=[{"id": 2, "user": "alice", "user_id": alice.pk, "text": "good luck everyone"}])
    Sanction.objects.create(user=alice, kind="mute", reason="shouting")
    return {"played": played, "shared": shared, "solo": solo}


def test_the_download_holds_each_kind_of_data(client, alice, history):
    client.force_login(alice)
    response = client.get("/settings/data/download/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["profile"]["username"] == "alice" and data["profile"]["email"] == "alice@example.com"
    assert data["profile"]["emails"] == [{"email": "alice@example.com", "verified": True, "primary": True}]
    assert data["profile"]["settings"]["display_name"] == "Alice the Okey"
    assert data["profile"]["guest"] is False
    tables = {m["table"]: m for m in data["matches"]}
    assert set(tables) == {history["played"].pk, history["shared"].table_id, history["solo"].table_id}
    played = tables[history["played"].pk]
    assert played["my_seat"] == 0 and {p["player"] for p in played["players"]} == {"Alice the Okey", "bob", None}
    assert played["match"]["finished"] and played["match"]["rounds"]
    moves = [m for r in played["match"]["rounds"] for m in r["my_moves"]]
    stored = Move.objects.filter(round__match__table=history["played"], seat=0).count()
    assert stored > 0 and len(moves) == stored  # every move of her seat, none of the others'
    assert {c["table"] for c in data["rating_changes"]} == {history["played"].pk, history["shared"].table_id}
    assert [r["ruleset"] for r in data["ratings"]] == ["okey51"]
    assert [r["total"] for r in data["solo_records"]] == [99]
    assert [c["text"] for c in data["chat_lines"]] == ["good luck everyone"]  # hers only
    assert [(r["reported"], r["reason"]) for r in data["reports_made"]] == [("bob", "spam in chat")]
    assert [s["reason"] for s in data["sanctions"]] == ["shouting"]
    mine = RoundReview.objects.filter(user=alice)
    assert mine.exists() and len(data["round_reviews"]) == mine.count()  # hers, not bob's
    assert {(r["table"], r["seat"]) for r in data["round_reviews"]} == {(history["played"].pk, 0)}


def test_the_data_pages_need_a_login(client):
    for path in ("/settings/data/", "/settings/data/download/"):
        assert client.get(path).status_code == 302


def test_a_wrong_password_deletes_nothing(client, alice, history):
    client.force_login(alice)
    response = client.post("/settings/data/delete/", {"confirm": "not-my-password"})
    assert response.status_code == 400
    assert "Rien n’a été supprimé" in response.content.decode()  # in her language, French
    alice.refresh_from_db()
    assert alice.is_active and alice.username == "alice"
    assert ChatMessage.objects.filter(user=alice).exists()
    assert client.get("/settings/data/").status_code == 200  # still logged in


def test_deleting_keeps_others_games_anonymised_and_their_ratings(client, alice, bob, carol, history):
    recompute("okey51")  # the ratings in the order the matches ended, as a recomputation rebuilds them
    others_before = sorted(Rating.objects.exclude(user=alice).values_list("user_id", "mu", "sigma", "matches"))
    changes_before = sorted(RatingChange.objects.exclude(user=alice).values_list("match_id", "user_id", "mu_after"))
    totals_before = {m.pk: m.totals for m in Match.objects.all()}
    client.force_login(alice)
    response = client.post("/settings/data/delete/", {"confirm": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session  # logged out

    gone = get_user_model().objects.get(pk=alice.pk)  # the placeholder under the shared games
    assert gone.username == f"deleted-{alice.pk}" and gone.email == "" and not gone.is_active
    assert not gone.has_usable_password()
    assert not EmailAddress.objects.filter(user_id=alice.pk).exists()
    assert not PlayerSettings.objects.filter(user_id=alice.pk).exists()
    assert not Sanction.objects.filter(user_id=alice.pk).exists()
    assert not RoundReview.objects.filter(user_id=alice.pk).exists()
    assert RoundReview.objects.filter(user=bob).exists()  # bob's reviews of the same rounds stay
    assert not ChatMessage.objects.filter(user_id=alice.pk).exists()
    assert ChatMessage.objects.filter(user=bob, text="thanks alice").exists()  # others' lines stay
    assert not ChatReport.objects.filter(reporter_id=alice.pk).exists()
    bobs_report = ChatReport.objects.get(reporter=bob)
    assert "good luck everyone" not in json.dumps(bobs_report.lines)  # her words go from it too
    assert not Table.objects.filter(pk=history["solo"].table_id).exists()  # nobody else played it
    for table in (history["played"], history["shared"].table):
        assert Seat.objects.filter(table=table, user_id=alice.pk).exists()
        assert Match.objects.get(table=table).totals == totals_before[table.match.pk]

    assert sorted(Rating.objects.exclude(user_id=alice.pk).values_list("user_id", "mu", "sigma",
                                                                      "matches")) == others_before
    assert sorted(RatingChange.objects.exclude(user_id=alice.pk)
                  .values_list("match_id", "user_id", "mu_after")) == changes_before
    recompute("okey51")  # a later recomputation still finds her seat: others' ratings the same
    assert sorted(Rating.objects.exclude(user_id=alice.pk).values_list("user_id", "mu", "sigma",
                                                                      "matches")) == others_before

    client.force_login(bob)
    page = client.get(f"/table/{history['shared'].table_id}/match/").content.decode()
    assert "deleted player" in page and "Alice the Okey" not in page and ">alice<" not in page
    assert client.get(f"/players/deleted-{alice.pk}/").status_code == 404
    board = client.get("/rankings/okey51/?period=all").content.decode()
    assert "deleted player" not in board and f"deleted-{alice.pk}" not in board
    assert not client.login(username="alice", password=PASSWORD)


def test_a_player_with_no_game_shared_with_anyone_is_removed_outright(client, make_user):
    dave = make_user("dave")
    finished_match([dave, None, None, None], [5, 0, 0, 0], mode="solo")
    client.force_login(dave)
    assert client.post("/settings/data/delete/", {"confirm": "pw-dave-1234"}).status_code == 302
    assert not get_user_model().objects.filter(pk=dave.pk).exists()
    assert not Table.objects.filter(creator_id=dave.pk).exists()


def test_deleting_is_refused_while_at_a_running_table(client, alice, bob):
    table = online_table(alice, bob)
    client.force_login(alice)
    response = client.post("/settings/data/delete/", {"confirm": PASSWORD})
    assert response.status_code == 400
    assert "Leave your open and running tables first" in response.content.decode()
    assert get_user_model().objects.get(pk=alice.pk).is_active
    assert Seat.objects.filter(table=table, user=alice).exists()


def test_a_guest_confirms_with_their_user_name(client):
    client.post("/guest/solo/okey51/")
    user = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    page = client.get("/settings/data/").content.decode()
    assert "Type your user name to confirm" in page
    assert client.post("/settings/data/delete/", {"confirm": "wrong"}).status_code == 400
    Table.objects.filter(creator=user).update(status=Table.Status.FINISHED)
    assert client.post("/settings/data/delete/", {"confirm": user.username}).status_code == 302
    assert not get_user_model().objects.filter(pk=user.pk).exists()
