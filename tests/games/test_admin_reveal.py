"""The admin hides what no player may see while a round is played — the racks and the pile
(the game's position, the round's deal) and the seeds — and reveals it only on a request
with a reason, written to the admin log with who and when."""
import json

import pytest
from django.contrib.admin.models import LogEntry
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from games.admin_reveal import REVEAL_PREFIX
from games.models import Round, Table
from tests.games.play.helpers import game_of, online_table

pytestmark = pytest.mark.django_db(transaction=True)


def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def pages(game):
    return {
        "game": f"/admin/games/game/{game.pk}/change/",
        "round": f"/admin/games/round/{game.round_id}/change/",
        }


def secrets_of(game):
    """Strings that give away hidden state: the round's server seed, and the pile as the admin would print it."""
    pile = game.position["pile"]
    return [game.round.server_seed] + [escape(s) for s in ('"pile"', '"rack"', json.dumps(pile[:6])[1:-1])]


def test_a_running_round_shows_no_rack_pile_or_seed(alice, bob, staff):
    table = online_table(alice, bob)
    game = game_of(table)
    client = staff_client(staff)
    for name, url in pages(game).items():
        page = client.get(url).content.decode()
        assert "Reveal (logged)" in page, name
        for secret in secrets_of(game):
            assert secret not in page, (name, secret)
    table_page = client.get(f"/admin/games/table/{table.pk}/change/").content.decode()  # with its seat inline
    for secret in secrets_of(game):
        assert secret not in table_page


def test_revealing_needs_a_reason_and_is_logged(alice, bob, staff):
    table = online_table(alice, bob)
    game = game_of(table)
    client = staff_client(staff)
    url = f"/admin/games/round/{game.round_id}/reveal/"
    form = client.get(url).content.decode()
    assert 'name="reason"' in form and game.round.server_seed not in form
    refused = client.post(url, {"reason": "  "}).content.decode()
    assert game.round.server_seed not in refused
    assert not LogEntry.objects.filter(change_message__startswith=REVEAL_PREFIX).exists()

    shown = client.post(url, {"reason": "player reports a rigged deal"}).content.decode()
    assert game.round.server_seed in shown
    entry = LogEntry.objects.get(change_message__startswith=REVEAL_PREFIX)
    assert entry.user == staff and entry.object_id == str(game.round_id)
    assert "player reports a rigged deal" in entry.change_message and "seed" in entry.change_message
    assert (timezone.now() - entry.action_time).total_seconds() < 60
    # the log of reveals is shown on the next reveal page
    assert "player reports a rigged deal" in client.get(url).content.decode()


def test_the_game_reveal_shows_the_racks_and_the_pile(alice, bob, staff):
    table = online_table(alice, bob)
    game = game_of(table)
    client = staff_client(staff)
    shown = client.post(f"/admin/games/game/{game.pk}/reveal/", {"reason": "stuck table"}).content.decode()
    assert escape('"rack"') in shown and escape('"pile"') in shown
    assert LogEntry.objects.filter(change_message__startswith=REVEAL_PREFIX, user=staff).count() == 1


def test_a_finished_round_shows_its_seed_without_a_reveal(alice, bob, staff):
    table = online_table(alice, bob)
    game = game_of(table)
    Round.objects.filter(pk=game.round_id).update(finished=timezone.now())
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    page = staff_client(staff).get(pages(game)["round"]).content.decode()
    assert game.round.server_seed in page and "Reveal (logged)" not in page


def test_only_staff_reach_the_reveal_page(alice, bob):
    table = online_table(alice, bob)
    game = game_of(table)
    client = Client()
    client.force_login(alice)
    response = client.post(f"/admin/games/round/{game.round_id}/reveal/", {"reason": "curious"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert game.round.server_seed not in response.content.decode()
    assert not LogEntry.objects.exists()
