"""A small WebSocket client for the moderation tests (the real ASGI stack and channel layer)."""
import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.play import tables
from okeysite.routing import build_application

APP = build_application()
TIMEOUT = 5


class Socket:
    """One table socket of a logged-in user, recording the frames it receives."""

    def __init__(self, table_id, cookie):
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"cookie", cookie)]
        self.comm = WebsocketCommunicator(APP, f"/ws/table/{table_id}/", headers=headers)
        self.frames = []

    async def connect(self):
        return await self.comm.connect(timeout=TIMEOUT)

    async def send(self, frame):
        await self.comm.send_to(text_data=json.dumps(frame))

    async def recv_type(self, kind):
        """Frames until one of type `kind`; returns it."""
        for _ in range(30):
            frame = json.loads(await self.comm.receive_from(timeout=TIMEOUT))
            self.frames.append(frame)
            if frame["type"] == kind:
                return frame
        raise AssertionError(f"no {kind} frame")

    async def close(self):
        await self.comm.disconnect()


@database_sync_to_async
def online_table(creator, *others):
    """An online okey51 table with `creator` and `others` seated, match started."""
    table = tables.create_table(creator, "okey51", {"rounds": 1}, mode="online", move_time=30)
    for user in others:
        tables.join_table(user, table.pk)
    tables.start_match(creator, table.pk)
    return table


async def open_socket(table, user, session_cookie):
    """A connected socket of `user` at `table`, past its first snapshot and chat history."""
    sock = Socket(table.pk, await database_sync_to_async(session_cookie)(user))
    connected, _code = await sock.connect()
    assert connected
    await sock.recv_type("snapshot")
    await sock.recv_type("chat_history")
    return sock
