"""A solo record's `public` mark follows its player's choice whichever changes first: the
record written after the choice takes it, a choice changed later (the settings page, a
deleted settings row) moves the records already there, and the public ranking lists
exactly the records marked so."""
import pytest
from django.test import Client
from django.urls import reverse

from accounts.player_settings import PlayerSettings
from leaderboards.models import SoloRecord
from leaderboards.recording import recompute_solo, record_result
from tests.leaderboards.test_pages import solo_match

pytestmark = pytest.mark.django_db


def ranked(ruleset="okey17"):
    html = Client().get(reverse("solo_records", args=[ruleset])).content.decode()
    return {name for name in ("alice", "bob") if f">{name}<" in html}


def test_a_record_takes_the_choice_made_before_it(alice, bob):
    PlayerSettings.objects.create(user=alice, public_solo_records=True)
    record_result(solo_match(alice, 300))
    record_result(solo_match(bob, 200))
    assert SoloRecord.objects.get(user=alice).public and not SoloRecord.objects.get(user=bob).public
    assert ranked() == {"alice"}
    recompute_solo(alice.pk, "okey17")  # a rebuilt record keeps it too
    assert SoloRecord.objects.get(user=alice).public


def test_changing_the_choice_moves_the_records_already_there(client, alice, bob):
    record_result(solo_match(alice, 300))
    record_result(solo_match(alice, 250, ruleset="rami"))
    assert not SoloRecord.objects.filter(public=True).exists() and ranked() == set()
    client.force_login(alice)
    form = {"display_name": "", "language": "", "default_ruleset": "okey51", "default_move_time": "30",
            "default_bot_level": "normal"}
    assert client.post(reverse("player_settings"), {**form, "public_solo_records": "on"}).status_code == 302
    assert set(SoloRecord.objects.filter(user=alice).values_list("public", flat=True)) == {True}
    assert ranked() == {"alice"} and ranked("rami") == {"alice"}
    assert client.post(reverse("player_settings"), form).status_code == 302
    assert set(SoloRecord.objects.filter(user=alice).values_list("public", flat=True)) == {False}
    assert ranked() == set()
    PlayerSettings.objects.filter(user=alice).update(public_solo_records=True)
    PlayerSettings.objects.get(user=alice).save()
    assert ranked() == {"alice"}
    PlayerSettings.objects.get(user=alice).delete()  # no settings: the default, private
    assert ranked() == set() and not SoloRecord.objects.filter(public=True).exists()
