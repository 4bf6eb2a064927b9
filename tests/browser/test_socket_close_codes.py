"""Close codes through the real server (daphne, embedded mode) and a real browser socket:
1009 for a frame over the size limit, 1007 for a binary frame that is not UTF-8 text, 1008
for a flood, and an ordinary bad frame answered `bad_frame` on a socket that stays open
(daphne's WebSocket layer accepts the protocol codes only through okeysite.ws_close), and
the wire budget that closes a flood before the consumer has read it. A text frame that is
not UTF-8, which no browser can send, goes out from a raw socket: autobahn closes it with
1007 before the application hears of it."""
import base64
import os
import re
import socket
import struct
import time
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import base_env, register, serve, shot

# Opens a second socket to the page's table, sends `frames` (strings, or arrays of bytes
# for a binary frame), and resolves with the close code, or "open" and the answers' codes.
PROBE = """async ([frames, wait]) => {
  const url = location.origin.replace("http", "ws") + location.pathname.replace("/table/", "/ws/table/");
  const ws = new WebSocket(url);
  const errors = [];
  const closed = new Promise((done) => { ws.onclose = (ev) => done(ev.code); });
  ws.onmessage = (ev) => { const f = JSON.parse(ev.data); if (f.type === "error") errors.push(f.code); };
  await new Promise((done) => { ws.onopen = done; });
  for (const frame of frames) ws.send(typeof frame === "string" ? frame : new Uint8Array(frame));
  const code = await Promise.race([closed, new Promise((done) => setTimeout(() => done("open"), wait))]);
  ws.close();
  return [code, errors];
}"""


def open_solo_table(page, base_url, name):
    """Sign `name` up and open a solo table of their own: the page is on its table, socket open."""
    register(page, base_url, name)
    page.goto(base_url + "/")
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))


def test_bad_frames_get_their_close_codes_through_daphne(page, live_server_url):
    open_solo_table(page, live_server_url, "closer")
    assert page.evaluate(PROBE, [["x" * 20000], 5000]) == [1009, []]
    assert page.evaluate(PROBE, [[[0xFF, 0xFE, 0xFD]], 5000]) == [1007, []]
    # cheap frames (no database work), so the close handshake is not held up behind them
    code, errors = page.evaluate(PROBE, [['{"type": "teleport"}'] * 400, 5000])
    # the burst (30) is answered, plus what the bucket refills (10/s) while the flood is read,
    # at most the 5 s this probe waits; then 10 rate_limited answers and the 1008
    assert code == 1008 and errors.count("rate_limited") == 10
    assert 30 <= errors.count("bad_frame") <= 30 + 10 * 5
    assert page.evaluate(PROBE, [["[" * 1000 + "]" * 1000, '{"type": "teleport"}'], 1500]) == \
        ["open", ["bad_frame", "bad_frame"]]


@pytest.fixture
def unlimited_consumer_url(tmp_path):
    """A server whose consumers let every frame through: only the wire budget limits."""
    env = base_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", OKEY_WS_RATE="1000000",
                   OKEY_WS_BURST="1000000", OKEY_WS_WIRE_RATE="10", OKEY_WS_WIRE_BURST="200",
                   OKEY_WS_LOBBY_MAX_PER_IP="1")
    with serve(tmp_path, env, name="wire") as url:
        yield url


def test_a_flood_is_closed_on_the_wire_before_the_consumer_reads_it(page, unlimited_consumer_url):
    open_solo_table(page, unlimited_consumer_url, "wireflood")
    code, errors = page.evaluate(PROBE, [['{"type": "teleport"}'] * 3000, 8000])
    # The consumers here never close for a flood: the 1008 is the wire budget's, and no
    # more than its burst of frames reached the consumer (their answers after the close
    # frame are dropped).
    assert code == 1008
    assert len(errors) <= 200 and set(errors) <= {"bad_frame"}
    # a new socket of the same page works
    assert page.evaluate(PROBE, [['{"type": "teleport"}'], 1500]) == ["open", ["bad_frame"]]


# Floods a new lobby socket with `count` frames; resolves with its close code (or "open").
LOBBY_FLOOD = """async (count) => {
  const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws/lobby/");
  const closed = new Promise((done) => { ws.onclose = (ev) => done(ev.code); });
  await new Promise((done) => { ws.onopen = done; });
  for (let i = 0; i < count; i++) ws.send('{"type": "sync"}');
  return await Promise.race([closed, new Promise((done) => setTimeout(() => done("open"), 8000))]);
}"""

# Opens a lobby socket; resolves with the type of its first frame ("tables", or "error"
# with the refusal's code), then closes it.
LOBBY_FIRST = """async () => {
  const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws/lobby/");
  const first = await new Promise((done) => { ws.onmessage = (ev) => done(JSON.parse(ev.data)); });
  ws.close();
  return first.type === "error" ? first.code : first.type;
}"""


def test_a_lobby_socket_closed_for_a_flood_gives_its_address_slot_back(page, unlimited_consumer_url):
    # The address may hold one lobby socket: the flood's. The login page opens none.
    page.goto(unlimited_consumer_url + "/accounts/login/")
    assert page.evaluate(LOBBY_FLOOD, 3000) == 1008
    for _ in range(20):  # the consumer's disconnect runs once the close handshake is over
        first = page.evaluate(LOBBY_FIRST)
        if first == "tables":
            break
        page.wait_for_timeout(250)
    assert first == "tables"


def test_a_lobby_over_the_cap_says_why_and_follows_again_once_back_in_view(browser, page, unlimited_consumer_url):
    # The address may hold one lobby socket: this first lobby's.
    page.goto(unlimited_consumer_url + "/")
    page.wait_for_function("!document.querySelector('#open-tables').classList.contains('stale')")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                locale="tr-TR")
    # counts the page's sockets
    phone.add_init_script("""(() => { const Native = window.WebSocket; window.socketsMade = 0;
      window.WebSocket = class extends Native { constructor(...a) { super(...a); window.socketsMade++; } }; })()""")
    try:
        second = phone.new_page()
        second.goto(unlimited_consumer_url + "/")
        notice = second.locator("#lobby-notice")
        notice.wait_for(state="visible")
        assert notice.inner_text().startswith("Çok fazla açık bağlantı")   # the server's, in the page's language
        assert "stale" in second.locator("#open-tables").get_attribute("class")
        shot(second, "lobby-over-cap-390")
        wide = page.context.new_page()
        wide.set_viewport_size({"width": 1366, "height": 800})
        wide.goto(unlimited_consumer_url + "/")
        wide.locator("#lobby-notice").wait_for(state="visible")
        shot(wide, "lobby-over-cap-1366")
        second.wait_for_timeout(2000)
        assert second.evaluate("window.socketsMade") == 1   # the long wait, not a try every 0.5 s
        page.close()
        wide.close()
        # back in view, the page tries at once (the slot frees once the close handshake is over)
        for _ in range(20):
            second.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
            if not notice.is_visible():
                break
            second.wait_for_timeout(250)
        assert notice.is_hidden()
        assert "stale" not in second.locator("#open-tables").get_attribute("class")
    finally:
        phone.close()


def raw_handshake(base_url, path, cookies):
    """A WebSocket opened by hand on `path` (RFC 6455 §4.1) with the browser's `cookies`
    and the site's Origin; returns (the connected socket, the bytes read past its 101
    answer)."""
    where = urlsplit(base_url)
    sock = socket.create_connection((where.hostname, where.port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in cookies)
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {where.netloc}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Origin: {base_url}\r\nCookie: {cookie}\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    return sock, answer.split(b"\r\n\r\n", 1)[1]


def client_frame(opcode, payload):
    """One final client frame, masked as RFC 6455 §5.3 requires (§5.2 lengths)."""
    mask = os.urandom(4)
    size = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | size]) if size < 126 else
                                     struct.pack("!BH", 0x80 | 126, size) if size < 65536 else
                                     struct.pack("!BQ", 0x80 | 127, size))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def server_frames(opened, timeout):
    """Read the server's frames on `opened` (from `raw_handshake`) until a close frame, the end of the connection, or
    `timeout` seconds; returns ("close", code) | ("reset" | "eof" | "open", None)."""
    (sock, buffer), deadline = opened, time.monotonic() + timeout
    while time.monotonic() < deadline:
        while len(buffer) >= 2:
            size, start = buffer[1] & 0x7F, 2
            if size == 126:
                size, start = struct.unpack("!H", buffer[2:4])[0], 4
            elif size == 127:
                size, start = struct.unpack("!Q", buffer[2:10])[0], 10
            if len(buffer) < start + size:
                break
            opcode, payload, buffer = buffer[0] & 0x0F, buffer[start:start + size], buffer[start + size:]
            if opcode == 0x8:
                return "close", struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return "reset", None
        except TimeoutError:
            continue
        if not chunk:
            return "eof", None
        buffer += chunk
    return "open", None


def test_frames_daphne_refuses_itself_are_closed_with_their_code(page, live_server_url):
    open_solo_table(page, live_server_url, "rawtexter")
    path = urlsplit(page.url).path.replace("/table/", "/ws/table/")
    cookies = page.context.cookies()
    # the raw socket works: a valid text frame is answered and the socket stays open
    opened = raw_handshake(live_server_url, path, cookies)
    opened[0].sendall(client_frame(0x1, b'{"type": "teleport"}'))
    assert server_frames(opened, 1.5) == ("open", None)
    opened[0].close()
    # text that is not UTF-8 (a bad byte, a cut sequence, an encoded surrogate), and a
    # binary frame past daphne's --websocket-max-message-size: the close code, then the
    # server cuts the connection itself (this client never answers the close)
    for opcode, payload, code in ((0x1, b"\xff\xfe\xfd", 1007), (0x1, b'{"type": "chat", "text": "caf\xc3"}', 1007),
                                  (0x1, b"\xed\xa0\x80", 1007), (0x2, b"x" * 70_000, 1009)):
        opened = raw_handshake(live_server_url, path, cookies)
        opened[0].sendall(client_frame(opcode, payload))
        assert server_frames(opened, 5) == ("close", code), payload[:40]
        assert server_frames((opened[0], b""), 5)[0] in ("eof", "reset")
        opened[0].close()


def test_connections_that_never_finish_their_handshake_are_dropped_within_ten_seconds(page, live_server_url):
    open_solo_table(page, live_server_url, "halfopener")
    where = urlsplit(live_server_url)
    request = (f"GET /ws/lobby/ HTTP/1.1\r\nHost: {where.netloc}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
               f"Sec-WebSocket-Version: 13\r\nOrigin: {live_server_url}\r\n").encode()
    # 200 connections, 50 of each: nothing sent, the request line only, the upgrade request
    # without its closing blank line, and a whole upgrade whose socket never answers a ping
    sends = (b"", b"GET /ws/lobby/ HTTP/1.1\r\n", request, request + b"\r\n")
    opened = []
    for kind in range(len(sends)):
        for _ in range(50):
            sock = socket.create_connection((where.hostname, where.port), timeout=10)
            sock.sendall(sends[kind])
            sock.settimeout(0.01)
            opened.append((kind, sock, time.monotonic()))
    lasted = {}
    while len(lasted) < len(opened) and time.monotonic() - opened[0][2] < 20:
        for _kind, sock, since in opened:
            if sock in lasted:
                continue
            try:
                while sock.recv(65536):  # the 101 answer and pings of the last kind
                    pass
            except TimeoutError:
                continue
            except ConnectionResetError:
                pass
            lasted[sock] = time.monotonic() - since
    for _, sock, _ in opened:
        sock.close()
    assert sorted({kind for kind, sock, _ in opened if sock not in lasted}) == []
    assert max(lasted.values()) < 10
    # a browser's socket, which answers pings, stays open past every one of those timers
    assert page.evaluate(PROBE, [[], 12000]) == ["open", []]
