"""A view reaches each socket with the computers named in that socket's language.

The writer serialises every view once, naming the computers in the language saved in the
seat's settings (the public view in the site's default): a socket of that language
forwards the text as it is, a socket of another language names them again."""
import pytest
from channels.db import database_sync_to_async

from accounts.player_settings import PlayerSettings
from games.models import Game
from games.play import turns
from tests.games.test_consumers import Client, two_player_table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def save_language(user, language):
    PlayerSettings.objects.update_or_create(user=user, defaults={"language": language})


@database_sync_to_async
def first_seat_discards(table, alice, bob):
    game = Game.objects.get(table=table)
    turn = game.position["turn"]
    user = {0: alice, 2: bob}[turn]
    tile = game.position["seats"][turn]["rack"][0]
    assert turns.submit_action(user, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    return game.version + 1


async def test_each_socket_names_the_computers_in_its_own_language(alice, bob, carol, session_cookie):
    table = await two_player_table(alice, bob)
    await save_language(bob, "es")
    bob_cookie = await database_sync_to_async(session_cookie)(bob)
    sockets = {
        "es": Client(table.pk, bob_cookie + b"; django_language=es"),  # the saved language: forwarded as serialised
        "fr": Client(table.pk, bob_cookie + b"; django_language=fr"),  # another language: named again
        "tr": Client(table.pk, await database_sync_to_async(session_cookie)(carol) + b"; django_language=tr"),
        "en": Client(table.pk, None),  # an anonymous watcher in the default language: the public view as serialised
    }
    for socket in sockets.values():
        assert (await socket.connect())[0]
        await socket.recv_type("snapshot")
    version = await first_seat_discards(table, alice, bob)
    names = {}
    for language, socket in sockets.items():
        snap = await socket.recv_type("snapshot")
        while snap["version"] < version:
            snap = await socket.recv_type("snapshot")
        assert snap["version"] == version
        names[language] = snap["view"]["players"][1]["name"]
        await socket.close()
    assert names["es"].startswith("Ordenador 2 ·")
    assert names["fr"].startswith("Ordinateur 2 ·")
    assert names["tr"].startswith("Bilgisayar 2 ·")
    assert names["en"].startswith("Computer 2 ·")
