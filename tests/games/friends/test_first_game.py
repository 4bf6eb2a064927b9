"""The first-game hint on a player's first game of any kind (solo, Play now, an
invitation), and the rules links of the lobby and the table page."""
import pytest
from django.urls import reverse

from games.play import quickmatch, tables

pytestmark = pytest.mark.django_db


def _first_game(client, user, table):
    """The `first_game` flag of `table`'s start-up data as `user` sees the page."""
    client.force_login(user)
    return client.get(reverse("table", args=[table.pk])).context["table_config"]["first_game"]


def test_the_hint_shows_on_the_first_solo_table_only(client, alice, bob):
    first = tables.create_table(alice, "okey51", {}, mode="solo", practice=True)
    assert _first_game(client, alice, first) is True
    second = tables.create_table(alice, "rami", {}, mode="solo")
    assert _first_game(client, alice, second) is False
    # the first table still shows it (it was the first), a watcher's view never does
    assert _first_game(client, alice, first) is True
    assert _first_game(client, bob, first) is False


def test_the_hint_shows_on_a_first_play_now_or_invited_game_and_not_after(client, alice, bob, carol):
    waiting = quickmatch.play_now(alice, "okey51")
    assert _first_game(client, alice, waiting) is True       # still waiting for players: no game before
    invited = tables.create_table(bob, "okey17", {}, mode="online", private=True)
    tables.join_table(carol, invited.pk, invite=invited.invite_code)
    assert _first_game(client, carol, invited) is True
    tables.start_match(bob, invited.pk)
    assert _first_game(client, bob, invited) is True and _first_game(client, carol, invited) is True
    # after a played game every later table is a second game, whatever its kind
    assert _first_game(client, carol, quickmatch.play_now(carol, "rami")) is False
    assert _first_game(client, bob, tables.create_table(bob, "okey51", {}, mode="solo")) is False
    # a table left before its start was no game
    tables.leave_table(alice, waiting.pk)
    assert _first_game(client, alice, tables.create_table(alice, "rami", {}, mode="solo")) is True


def test_rules_links_on_the_lobby_and_the_table(client, alice):
    lobby = client.get(reverse("lobby")).content.decode()
    assert f'href="{reverse("rules_index")}"' in lobby
    for ruleset in ("okey51", "okey17", "rami"):
        assert f'href="{reverse("rules", args=[ruleset])}"' in lobby
    table = tables.create_table(alice, "okey17", {}, mode="online")
    page = client.get(reverse("table", args=[table.pk])).content.decode()  # a visitor may watch
    assert f'href="{reverse("rules", args=["okey17"])}"' in page
    assert 'id="login-to-join"' in page and 'id="join-btn"' not in page
