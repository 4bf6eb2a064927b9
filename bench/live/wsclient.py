"""A minimal asyncio WebSocket client (RFC 6455, text frames), standard library only.

The load generator opens hundreds of sockets in one process and needs the arrival time of
every frame, so this client does no buffering of its own: :meth:`WebSocket.recv` parses one
frame off the stream and returns it. No extensions are offered (no compression), pings are
answered, fragmented messages are joined, and the close code is kept in ``close_code``
(1006 when the connection dropped without a close frame).
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
ABNORMAL_CLOSE = 1006  # RFC 6455 §7.1.5: closed without a close frame


class HandshakeError(Exception):
    """The server refused the upgrade; ``status`` is the HTTP status code (int, 0 if none)."""

    def __init__(self, status: int, text: str):
        super().__init__(f"WebSocket handshake refused: HTTP {status} {text}".strip())
        self.status = status


def _mask(data: bytes, key: bytes) -> bytes:
    """XOR ``data`` with the 4-byte ``key`` repeated (one big-integer XOR: fast in CPython)."""
    n = len(data)
    if not n:
        return data
    keys = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(keys, "big")).to_bytes(n, "big")


class WebSocket:
    """One client connection. Create with :func:`connect`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader = reader
        self.writer = writer
        self.close_code: int | None = None
        self._closing = False

    async def recv(self) -> str | None:
        """The next text (or binary, decoded) message, or None once the connection is closed
        (then ``close_code`` says how)."""
        parts: list[bytes] = []
        while self.close_code is None:
            try:
                head = await self.reader.readexactly(2)
                fin, opcode = head[0] & 0x80, head[0] & 0x0F
                length = head[1] & 0x7F
                if length == 126:
                    (length,) = struct.unpack("!H", await self.reader.readexactly(2))
                elif length == 127:
                    (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
                key = await self.reader.readexactly(4) if head[1] & 0x80 else None
                payload = await self.reader.readexactly(length) if length else b""
            except (asyncio.IncompleteReadError, ConnectionError, OSError):
                self.close_code = ABNORMAL_CLOSE
                self._abort()
                return None
            if key is not None:
                payload = _mask(payload, key)
            if opcode == 0x8:  # close: answer it once, keep the server's code
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                if not self._closing:
                    self._write_frame(0x8, payload[:2])
                self._abort()
                return None
            if opcode == 0x9:  # ping
                self._write_frame(0xA, payload)
                continue
            if opcode == 0xA:  # pong
                continue
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8", "replace")
        return None

    def _write_frame(self, opcode: int, payload: bytes) -> None:
        key = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        try:
            self.writer.write(head + key + _mask(payload, key))
        except (ConnectionError, RuntimeError, OSError):
            self.close_code = self.close_code or ABNORMAL_CLOSE

    async def send(self, text: str) -> bool:
        """Send one text message; False when the connection is already closed."""
        if self.close_code is not None or self._closing:
            return False
        self._write_frame(0x1, text.encode("utf-8"))
        try:
            await self.writer.drain()
        except (ConnectionError, OSError):
            self.close_code = ABNORMAL_CLOSE
            return False
        return True

    async def close(self, code: int = 1000, timeout: float = 2.0) -> None:
        """Send a close frame and wait (up to ``timeout`` seconds) for the server's answer."""
        if self.close_code is None and not self._closing:
            self._closing = True
            self._write_frame(0x8, struct.pack("!H", code))
            try:
                await asyncio.wait_for(self._drain_until_closed(), timeout)
            except (asyncio.TimeoutError, ConnectionError, OSError):
                pass
        self._abort()

    async def _drain_until_closed(self):
        while await self.recv() is not None:
            pass

    def _abort(self) -> None:
        try:
            self.writer.close()
        except (ConnectionError, RuntimeError, OSError):
            pass


async def connect(host: str, port: int, path: str, headers: dict[str, str] | None = None,
                  timeout: float = 30.0) -> WebSocket:
    """Open ``ws://host:port/path`` with extra request ``headers`` (Origin, Cookie, ...).

    Returns a :class:`WebSocket`. Raises :class:`HandshakeError` when the server answers
    anything but 101 (e.g. 403 for a refused Origin), OSError/TimeoutError when it cannot
    be reached within ``timeout`` seconds."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port, limit=1 << 22), timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError) as exc:
        writer.close()
        raise HandshakeError(0, "connection closed during the handshake") from exc
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    if status != 101:
        writer.close()
        raise HandshakeError(status, parts[2] if len(parts) > 2 else "")
    accept = base64.b64encode(hashlib.sha1(key.encode() + _GUID).digest()).decode()
    got = {h.split(":", 1)[0].strip().lower(): h.split(":", 1)[1].strip() for h in header_lines if ":" in h}
    if got.get("sec-websocket-accept") != accept:
        writer.close()
        raise HandshakeError(status, "bad Sec-WebSocket-Accept")
    return WebSocket(reader, writer)
