"""The admin's searches by a player's name and by words: ratings, rating changes, solo
records and player settings find the rows of every user whose name contains the term,
any case; the users and the chat lines are searched through the trigram indexes
(`okeysite.search_indexes`) that PostgreSQL can use for `icontains`."""
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.player_settings import PlayerSettings
from games.chat.models import ChatMessage
from leaderboards import record_result
from leaderboards.models import Rating, RatingChange, SoloRecord
from tests.leaderboards.helpers import finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def found(client, label, term):
    """The pks (sorted list) that the changelist `label` ("app_model") lists for `term`."""
    response = client.get(reverse(f"admin:{label}_changelist"), {"q": term})
    assert response.status_code == 200
    return sorted(row.pk for row in response.context["cl"].result_list)


def test_the_leaderboard_lists_find_every_player_whose_name_contains_the_term(staff_client, make_user):
    alice, malicia, bob = make_user("alice"), make_user("Malicia"), make_user("bob")
    record_result(finished_match([alice, malicia, bob, None], [10, 20, 30, 40]))
    for minute, user in enumerate([bob, malicia]):
        solo = finished_match([user, None, None, None], [5, 500, 600, 700], mode="solo", minutes=minute + 1)
        SoloRecord.objects.create(user=user, ruleset="okey51", match=solo, total=5, rounds=1, played=solo.finished)
    for label, model in (("leaderboards_rating", Rating), ("leaderboards_ratingchange", RatingChange),
                         ("leaderboards_solorecord", SoloRecord)):
        expected = sorted(model.objects.filter(user__in=[alice, malicia]).values_list("pk", flat=True))
        assert expected and found(staff_client, label, "LIC") == expected, label
        assert found(staff_client, label, "bob") == sorted(model.objects.filter(user=bob).values_list("pk", flat=True))
        assert found(staff_client, label, "nobody") == []


def test_the_player_settings_are_found_by_user_name_or_display_name(staff_client, make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    by_name = PlayerSettings.objects.create(user=alice)
    by_display = PlayerSettings.objects.create(user=bob, display_name="Queen Alicante")
    PlayerSettings.objects.create(user=carol, display_name="Carol")
    assert found(staff_client, "accounts_playersettings", "alic") == sorted([by_name.pk, by_display.pk])
    assert found(staff_client, "accounts_playersettings", "bob") == [by_display.pk]
    assert found(staff_client, "accounts_playersettings", "zzz") == []


def test_the_users_are_found_by_part_of_their_name_or_e_mail(staff_client, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    assert found(staff_client, "auth_user", "LIC") == [alice.pk]
    assert found(staff_client, "auth_user", "bob@exa") == [bob.pk]


def test_a_name_or_words_search_can_be_answered_by_the_trigram_indexes(alice):
    ChatMessage.objects.create(table=finished_match([alice, None, None, None], [1, 2, 3, 4]).table, user=alice,
                               text="good game")
    searches = [  # the WHERE that Django's icontains writes, as the admin runs it
        (ChatMessage.objects.filter(text__icontains="game"), "games_chatmessage_text_trgm"),
        (type(alice).objects.filter(username__icontains="lic"), "auth_user_username_trgm"),
        (type(alice).objects.filter(email__icontains="lic"), "auth_user_email_trgm"),
        (type(alice).objects.filter(username__iexact="ALICE"), "auth_user_username_trgm"),
        (PlayerSettings.objects.filter(display_name__icontains="lic"), "accounts_playersettings_display_name_trgm"),
    ]
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a few rows: make the planner show what it can use
        for queryset, index in searches:
            assert index in queryset.explain(), index


def test_the_sanctions_are_found_by_user_name_e_mail_or_reason(staff_client, make_user, staff):
    from accounts.moderation import Sanction, sanction

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    bob.email = "robert.malice@example.org"
    bob.save(update_fields=["email"])
    sanction(alice, Sanction.Kind.MUTE, "spam in the chat", None, by=staff)
    sanction(bob, Sanction.Kind.MUTE, "rude", None, by=staff)
    sanction(carol, Sanction.Kind.MUTE, "insulted Alicia", None, by=staff)
    ids = {user.username: Sanction.objects.get(user=user).pk for user in (alice, bob, carol)}
    assert found(staff_client, "accounts_sanction", "ALIC") == sorted([ids["alice"], ids["bob"], ids["carol"]])
    assert found(staff_client, "accounts_sanction", "robert") == [ids["bob"]]
    assert found(staff_client, "accounts_sanction", "spam") == [ids["alice"]]
    assert found(staff_client, "accounts_sanction", "nobody") == []


def test_the_chat_reports_are_found_by_reporter_reported_player_or_reason(staff_client, make_user):
    from games.chat.models import ChatReport

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    table = finished_match([alice, bob, carol, None], [1, 2, 3, 4]).table
    by_alice = ChatReport.objects.create(table=table, reporter=alice, reported=bob, reason="rude")
    about_alice = ChatReport.objects.create(table=table, reporter=carol, reported=alice, reason="spam")
    nobody_named = ChatReport.objects.create(table=table, reporter=bob, reported=None, reason="Alicia's insults")
    assert found(staff_client, "games_chatreport", "alic") == sorted([by_alice.pk, about_alice.pk, nobody_named.pk])
    assert found(staff_client, "games_chatreport", "CAROL") == [about_alice.pk]
    assert found(staff_client, "games_chatreport", "bob") == sorted([by_alice.pk, nobody_named.pk])
    assert found(staff_client, "games_chatreport", "zzz") == []
