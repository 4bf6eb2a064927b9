"""The first-game hint on a player's first solo table, and the rules links of the lobby
and the table page."""
import pytest
from django.urls import reverse

from games.play import tables

pytestmark = pytest.mark.django_db


def test_the_hint_shows_on_the_first_solo_table_only(client, alice, bob):
    first = tables.create_table(alice, "okey51", {}, mode="solo", practice=True)
    client.force_login(alice)
    page = client.get(reverse("table", args=[first.pk])).content.decode()
    assert 'id="first-game-hint"' in page and "51 points" in page and 'id="practice-badge"' in page
    second = tables.create_table(alice, "rami", {}, mode="solo")
    assert 'id="first-game-hint"' not in client.get(reverse("table", args=[second.pk])).content.decode()
    # the first table still shows it (it was the first), another player's view never does
    assert 'id="first-game-hint"' in client.get(reverse("table", args=[first.pk])).content.decode()
    client.force_login(bob)
    assert 'id="first-game-hint"' not in client.get(reverse("table", args=[first.pk])).content.decode()
    online = tables.create_table(bob, "okey51", {}, mode="online")
    assert 'id="first-game-hint"' not in client.get(reverse("table", args=[online.pk])).content.decode()


def test_rules_links_on_the_lobby_and_the_table(client, alice):
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("rules_index")}"' in lobby
    for ruleset in ("okey51", "okey17", "rami"):
        assert f'href="{reverse("rules", args=[ruleset])}"' in lobby
    table = tables.create_table(alice, "okey17", {}, mode="online")
    page = client.get(reverse("table", args=[table.pk])).content.decode()  # a visitor may watch
    assert f'href="{reverse("rules", args=["okey17"])}"' in page
    assert 'id="login-to-join"' in page and 'id="join-btn"' not in page
