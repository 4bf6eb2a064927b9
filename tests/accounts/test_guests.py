"""Guest accounts on the real PostgreSQL: one click seats a visitor as "Guest-XXXX" (no
e-mail, no password), guests are never rated nor ranked, signing up from a guest session
turns the same row into the account (its matches and records stay), and guests unused for
7 days are removed by the periodic sweep."""
import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts import erasure, guests
from accounts.guests import Guest
from games import tasks
from games.models import Seat, Table
from leaderboards.models import Rating, RatingChange, SoloRecord
from leaderboards.recording import rated_teams, record_result
from tests.games.play.helpers import online_table, play_out
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db(transaction=True)


def guest_client(client, path="/guest/solo/okey51/"):
    """Press a guest button as a logged-out visitor; returns (response, the guest User)."""
    response = client.post(path)
    user = get_user_model().objects.get(pk=client.session["_auth_user_id"])
    return response, user


def test_one_click_plays_solo_as_a_guest_with_no_email_and_no_password(client):
    response, user = guest_client(client)
    assert response.status_code == 302
    table_id = int(re.search(r"/table/(\d+)/$", response["Location"]).group(1))
    table = Table.objects.get(pk=table_id)
    assert table.mode == Table.Mode.SOLO and table.status == Table.Status.PLAYING
    assert Seat.objects.get(table=table, index=0).user == user
    assert re.fullmatch(r"Guest-[A-Z2-9]{4}", user.username)
    assert user.email == "" and not user.has_usable_password()
    assert not EmailAddress.objects.filter(user=user).exists()
    assert guests.is_guest(user)
    # the guest's pages say what a guest is, with the way to keep the account
    page = client.get("/").content.decode()
    assert 'id="guest-banner"' in page and user.username in page


def test_play_now_as_a_guest_takes_a_quick_match_seat_and_a_second_click_stays_the_same_guest(client):
    response, user = guest_client(client, "/guest/play/okey17/")
    table = Table.objects.get(pk=int(re.search(r"/table/(\d+)/$", response["Location"]).group(1)))
    assert table.quick and table.ruleset == "okey17"
    again = client.post("/guest/solo/rami/")
    assert again.status_code == 302
    assert int(client.session["_auth_user_id"]) == user.pk
    assert Guest.objects.count() == 1


def test_logged_out_lobby_offers_the_guest_buttons(client):
    page = client.get("/").content.decode()
    for ruleset in ("okey51", "okey17", "rami"):
        assert f'action="/guest/solo/{ruleset}/"' in page
        assert f'action="/guest/play/{ruleset}/"' in page


def test_a_guest_is_never_rated_nor_listed(client, alice, bob):
    _response, guest = guest_client(client)
    table = online_table(alice, guest)
    Seat.objects.filter(table=table).update(autoplay=True)
    with transaction.atomic():
        play_out(table)
    match = table.match
    match.refresh_from_db()
    assert match.finished is not None
    assert rated_teams(match) is None  # one registered player and a guest: unrated
    assert not RatingChange.objects.filter(match=match).exists()
    # three players of which one guest: the two registered ones are rated, the guest not
    rated = finished_match([alice, guest, bob, None], [10, 5, 3, 0])
    record_result(rated)
    assert sorted(RatingChange.objects.filter(match=rated).values_list("user__username", flat=True)) == ["alice",
                                                                                                         "bob"]
    # a guest with a rating row from earlier (before it was a guest) is still not listed
    Rating.objects.create(user=guest, ruleset="okey51", matches=50)
    Rating.objects.filter(ruleset="okey51").update(matches=50)
    client.logout()
    board = client.get("/rankings/okey51/").content.decode()
    assert "alice" in board and guest.username not in board


def test_signing_up_from_a_guest_session_keeps_the_matches_on_the_same_account(client, alice):
    _response, guest = guest_client(client)
    solo = Table.objects.get(seats__user=guest, mode=Table.Mode.SOLO)
    shared = finished_match([alice, guest], [7, 3], ruleset="rami")
    record = SoloRecord.objects.create(user=guest, ruleset="okey51", total=123, rounds=1, match=finished_match(
        [guest, None, None, None], [123, 0, 0, 0], mode="solo"), played=timezone.now())
    form = client.get("/accounts/signup/")
    assert form.status_code == 200 and b'name="username"' in form.content
    response = client.post("/accounts/signup/", {"email": "newbie@example.com", "username": "newbie",
                                                 "password1": "tiles-and-racks-42", "password2": "tiles-and-racks-42"})
    assert response.status_code == 302, response.content[:500]
    user = get_user_model().objects.get(username="newbie")
    assert user.pk == guest.pk  # the same row: nothing copied
    assert int(client.session["_auth_user_id"]) == user.pk
    assert not guests.is_guest(user) and not Guest.objects.filter(user_id=user.pk).exists()
    assert user.email == "newbie@example.com" and user.check_password("tiles-and-racks-42")
    assert set(Seat.objects.filter(user=user).values_list("table_id", flat=True)) >= {solo.pk, shared.table_id}
    assert SoloRecord.objects.get(pk=record.pk).user_id == user.pk
    assert get_user_model().objects.count() == 2  # alice and the converted guest
    assert 'id="guest-banner"' not in client.get("/").content.decode()


def test_sign_up_refuses_the_sites_own_name_prefixes(client):
    for name in ("Guest-ABCD", "guest-me", "deleted-12"):
        response = client.post("/accounts/signup/", {"email": f"{name}@example.com", "username": name,
                                                     "password1": "tiles-and-racks-42",
                                                     "password2": "tiles-and-racks-42"})
        assert response.status_code == 200
        assert "kept for the site" in response.content.decode()
    assert not get_user_model().objects.exists()


def test_sign_up_refuses_a_name_longer_than_thirty_characters(client):
    def sign_up(name):
        return client.post("/accounts/signup/", {"email": f"{len(name)}@example.com", "username": name,
                                                 "password1": "tiles-and-racks-42",
                                                 "password2": "tiles-and-racks-42"}, HTTP_ACCEPT_LANGUAGE="fr")
    response = sign_up("W" * 31)
    assert response.status_code == 200
    assert "Un nom d’utilisateur a au plus 30 caractères." in response.content.decode()
    assert not get_user_model().objects.exists()
    assert sign_up("W" * 30).status_code == 302
    assert get_user_model().objects.get().username == "W" * 30


def test_a_logged_in_player_still_cannot_open_the_sign_up_form(client, alice):
    client.force_login(alice)
    assert client.get("/accounts/signup/").status_code == 302


def test_guests_unused_for_7_days_are_removed_by_the_sweep_and_others_games_stay(client, alice, bob):
    _response, stale = guest_client(client)
    client.logout()
    _response, shared_stale = guest_client(client, "/guest/solo/rami/")
    client.logout()
    _response, fresh = guest_client(client)
    shared = finished_match([alice, shared_stale, bob], [9, 4, 1], ruleset="rami")
    record_result(shared)
    alice_before = list(RatingChange.objects.filter(match=shared).values_list("user_id", "mu_after"))
    old = timezone.now() - timedelta(days=8)
    Guest.objects.filter(user_id__in=[stale.pk, shared_stale.pk]).update(last_seen=old)
    Guest.objects.filter(user_id=fresh.pk).update(last_seen=timezone.now() - timedelta(days=6))

    erasure._next_removal[0] = 0.0  # due now in this process
    done = tasks.sweep()
    assert done["guests_removed"] == 2
    users = get_user_model().objects
    assert not users.filter(pk=stale.pk).exists()  # played only solo: gone with its tables
    assert not Table.objects.filter(seats__user_id=stale.pk).exists()
    placeholder = users.get(pk=shared_stale.pk)  # played with others: an empty row under their game
    assert not placeholder.is_active and placeholder.username == f"deleted-{placeholder.pk}"
    assert not Guest.objects.filter(user_id=shared_stale.pk).exists()
    assert Seat.objects.filter(table_id=shared.table_id).count() == 3
    assert list(RatingChange.objects.filter(match=shared).values_list("user_id", "mu_after")) == alice_before
    assert Guest.objects.filter(user_id=fresh.pk).exists()
    # not due again at once: the sweep looks for stale guests every few minutes only
    assert tasks.sweep()["guests_removed"] == 0


def test_a_guest_who_keeps_playing_stays_fresh(client):
    _response, guest = guest_client(client)
    Guest.objects.filter(user=guest).update(last_seen=timezone.now() - timedelta(days=6, hours=23))
    session = client.session
    session[guests.SEEN_KEY] = 0  # last written long ago
    session.save()
    client.get("/")
    assert Guest.objects.get(user=guest).last_seen > timezone.now() - timedelta(minutes=1)
    assert not erasure.stale_guests(timezone.now() + timedelta(days=6)).exists()
