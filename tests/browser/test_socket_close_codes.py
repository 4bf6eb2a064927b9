"""Close codes through the real server (daphne, embedded mode) and a real browser socket:
1009 for a frame over the size limit, 1007 for a binary frame that is not UTF-8 text, 1008
for a flood, and an ordinary bad frame answered `bad_frame` on a socket that stays open
(daphne's WebSocket layer accepts the protocol codes only through okeysite.ws_close), and
the wire budget that closes a flood before the consumer has read it."""
import re

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


def test_bad_frames_get_their_close_codes_through_daphne(page, live_server_url):
    register(page, live_server_url, "closer")
    page.goto(live_server_url + "/")
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
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
    register(page, unlimited_consumer_url, "wireflood")
    page.goto(unlimited_consumer_url + "/")
    page.check("input[name=mode][value=solo]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
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
