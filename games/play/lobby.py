"""The lobby's live list of tables (`/ws/lobby/`, `games.lobby_socket`): after a commit
that changed it, the list is read once (`snapshot.named_open_tables`), serialised once
per site language and sent to every lobby socket through one group; each socket gets the
frame of its own language (the computers' names are the list's only translated text)."""
import logging

from django.conf import settings
from django.db import transaction

from games import snapshot
from games.frames import dumps
from okeysite import socket_groups

log = logging.getLogger("games.play")

LOBBY_GROUP = socket_groups.LOBBY  # Channels group of the lobby sockets


def _frame(tables):
    return dumps({"type": "tables", "tables": tables})


def lobby_frame(language=None):
    """The lobby's `tables` frame now, serialised (str): `snapshot.open_tables(language)`,
    the computers named in `language` (a LANGUAGES code; None: the active language)."""
    return _frame(snapshot.open_tables(language))


def lobby_frames(languages=None):
    """The lobby's `tables` frame now in each of `languages` (LANGUAGES codes; None: every
    one of settings.LANGUAGES), from one read of the list. Returns {language: str}."""
    if languages is None:
        languages = [code for code, _name in settings.LANGUAGES]
    # each list is serialised before the generator renames its computers for the next language
    return {language: _frame(tables) for language, tables in snapshot.named_open_tables(languages)}


def send_lobby():
    """Build the list now and send it to every lobby socket: one "lobby.update" group
    message with {"frames": {language: str}} (`lobby_frames`, every site language), the
    relay writing each socket the frame of its language. The cost is one read and one
    serialisation per language, whatever the number of sockets. A failure is logged: the
    next change or a socket's sync brings the list up to date. Returns None."""
    try:
        socket_groups.send([(LOBBY_GROUP, {"type": "lobby.update", "frames": lobby_frames()})])
    except Exception:  # noqa: BLE001 - the lobby list is refreshed by the next change or a sync
        log.exception("lobby broadcast failed")


def changed():
    """The lists of tables changed: send them after commit (`send_lobby`), once however
    many changes the transaction holds (an arena's pairing seats many tables in one; a
    spectator arriving, a `commit.Write`'s `lobby_changed`). Returns None."""
    connection = transaction.get_connection()
    # A send already waiting for this commit covers this change too: Django keeps an
    # on_commit callback (savepoint ids, callback, robust) until a savepoint it was made in
    # rolls back, and a savepoint still open then encloses this change as well.
    if connection.in_atomic_block and any(func is send_lobby for _ids, func, *_robust in connection.run_on_commit):
        return
    transaction.on_commit(send_lobby)
