"""Lobby, table and match pages, and the create/join/leave/start endpoints."""
import json

import pytest
from django.urls import reverse

from games.models import Game, Seat, Table
from games.play import tables, turns

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_lobby_renders_for_visitors_and_players(client, alice):
    response = client.get("/")
    assert response.status_code == 200
    assert reverse("account_login") in response.content.decode()
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'name="mode"' in page and 'value="okey51"' in page and "/ws/lobby/" in page


def test_creating_a_solo_table_starts_the_match_and_opens_its_page(client, alice):
    client.force_login(alice)
    response = client.post(reverse("table_create"), {
        "ruleset": "okey51", "mode": "solo", "rounds": "3", "move_time": "45", "bot_level": "easy",
        "assisted": "on",
    })
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    assert (table.mode, table.status, table.move_time, table.assisted) == ("solo", "playing", 45, True)
    assert table.options == {"doubling": False, "teams": False, "rounds": 3}
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert page.context["seat_index"] == 0 and page.context["ws_path"] == f"/ws/table/{table.pk}/"
    config_script = page.content.decode().split('id="table-config" type="application/json">')[1]
    config = json.loads(config_script.split("</script>")[0])
    assert config["seat"] == 0 and config["table_id"] == table.pk
    assert 'id="table-config"' in page.content.decode()


def test_a_bad_form_creates_nothing(client, alice):
    client.force_login(alice)
    response = client.post(reverse("table_create"), {"ruleset": "chess", "mode": "solo"})
    assert response.status_code == 302 and not Table.objects.exists()


def test_join_leave_and_start_through_the_pages(client, alice, bob):
    table = tables.create_table(alice, "okey51", {}, mode="online")
    client.force_login(bob)
    page = client.get(reverse("table", args=[table.pk]))
    assert page.context["can_join"] and not page.context["can_start"]
    client.post(reverse("table_join", args=[table.pk]))
    assert Seat.objects.get(table=table, user=bob).index == 2
    client.post(reverse("table_leave", args=[table.pk]))
    assert not Seat.objects.filter(table=table, user=bob).exists()
    client.post(reverse("table_join", args=[table.pk]))
    refused = client.post(reverse("table_start", args=[table.pk]), follow=True)
    assert "Only the table&#x27;s creator can do that." in refused.content.decode()
    client.force_login(alice)
    assert client.get(reverse("table", args=[table.pk])).context["can_start"]
    client.post(reverse("table_start", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == "playing" and Game.objects.get(table=table).position is not None


def test_the_match_page_of_a_running_round_shows_its_commitment_only(client, alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    game = Game.objects.get(table=table)
    tile = game.position["seats"][0]["rack"][0]
    turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version)
    page = client.get(reverse("match", args=[table.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert game.round.commitment in text and "This round is still being played." in text
    assert game.round.server_seed not in text  # not revealed before the round ends
    assert "discarded" not in text and "1 move" not in text  # nor its move log: that comes once it is over


@pytest.mark.parametrize("lang,word", [("fr", "Nouvelle table"), ("es", "Nueva mesa"), ("tr", "Yeni masa"),
                                       ("en", "New table")])
def test_the_site_speaks_four_languages(client, alice, lang, word):
    client.force_login(alice)
    response = client.post(reverse("set_language"), {"language": lang, "next": "/"})
    assert response.status_code == 302
    assert word in client.get("/").content.decode()


def test_the_javascript_catalog_is_translated(client):
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    body = client.get("/jsi18n/").content.decode()
    assert "Tu atril" in body
