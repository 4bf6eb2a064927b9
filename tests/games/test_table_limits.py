"""A user may not create tables without end: at most OKEY_MAX_ACTIVE_TABLES open or playing
at once, OKEY_TABLES_PER_HOUR an hour; the lobby says so in the player's language."""
import pytest
from django.test import Client

from games.errors import TableError
from games.models import Table
from games.play import tables

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def low_limits(settings):
    settings.OKEY_MAX_ACTIVE_TABLES = 2
    settings.OKEY_TABLES_PER_HOUR = 3


def test_the_active_limit_refuses_a_third_table_until_one_is_closed(alice, low_limits):
    first = tables.create_table(alice, "okey51", {}, mode="online")
    tables.create_table(alice, "okey51", {}, mode="solo")
    with pytest.raises(TableError) as refused:
        tables.create_table(alice, "okey51", {}, mode="online")
    assert refused.value.code == "too_many_tables"
    assert Table.objects.filter(creator=alice).count() == 2  # nothing made
    tables.leave_table(alice, first.pk)  # the creator leaving closes it
    tables.create_table(alice, "okey51", {}, mode="online")


def test_the_hourly_limit_counts_closed_tables_too(alice, bob, low_limits):
    for _ in range(3):
        table = tables.create_table(alice, "okey51", {}, mode="online")
        tables.leave_table(alice, table.pk)
    with pytest.raises(TableError) as refused:
        tables.create_table(alice, "okey51", {}, mode="online")
    assert refused.value.code == "too_many_tables"
    tables.create_table(bob, "okey51", {}, mode="online")  # per user: bob is not limited by alice


@pytest.mark.parametrize("language,text", [
    ("en", "You have created too many tables"), ("fr", "Vous avez créé trop de tables"),
    ("es", "Has creado demasiadas mesas"), ("tr", "Çok fazla masa oluşturdunuz")])
def test_the_lobby_explains_the_refusal_in_the_players_language(alice, low_limits, language, text):
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = language
    form = {"ruleset": "okey51", "mode": "online", "rounds": "1", "move_time": "30", "bot_level": "normal"}
    for _ in range(2):
        assert client.post("/tables/new/", form).status_code == 302
    response = client.post("/tables/new/", form, follow=True)
    assert text in response.content.decode()
    assert Table.objects.filter(creator=alice).count() == 2
