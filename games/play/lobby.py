"""The lobby's live list of tables (`/ws/lobby/`, `games.lobby_socket`): after a commit
that changed it, the list is built once (`snapshot.open_tables`) and sent, serialised, to
every lobby socket through one group."""
import json
import logging

from django.db import transaction

from games import snapshot
from games.play import broadcast

log = logging.getLogger("games.play")

LOBBY_GROUP = "lobby"  # Channels group of the lobby sockets


def lobby_frame():
    """The lobby's `tables` frame now, serialised (str): `snapshot.open_tables()`."""
    return json.dumps({"type": "tables", "tables": snapshot.open_tables()}, separators=(",", ":"))


def send_lobby():
    """Build the list now and send it to every lobby socket (a "lobby.update" group
    message with the frame). A failure is logged: the next change or a socket's sync
    brings the list up to date. Returns None."""
    try:
        broadcast.send([(LOBBY_GROUP, {"type": "lobby.update", "frame": lobby_frame()})])
    except Exception:  # noqa: BLE001 - the lobby list is refreshed by the next change or a sync
        log.exception("lobby broadcast failed")


def changed():
    """The lists of tables changed: send them after commit (`send_lobby`), from code that
    holds no game lock (e.g. a spectator arriving; a `commit.Write` has its own
    `lobby_changed`, once per transaction). Returns None."""
    transaction.on_commit(send_lobby)
