"""Five fixes to daphne's WebSocket edges, applied by okeysite.asgi in a serving process.

1. The application may close with the RFC 6455 protocol codes 1007, 1008, 1009.

daphne hands an application's `websocket.close` to autobahn's `sendClose`, which accepts
only 1000 and 3000-4999 (the codes of its own API) and raises for the rest: a consumer
closing with 1009 (message too big), 1007 (data not consistent with the message type) or
1008 (policy violation) made daphne log an exception and drop the socket with 1011
instead. Those three are codes RFC 6455 §7.4.1 gives any endpoint, so they go out through
autobahn's `sendCloseFrame` (the same close handshake, without the API's check).

2. A frame the application sends once the socket is closing is dropped. A client that
sends a burst of frames and closes leaves the consumer answering frames still queued;
autobahn raised `Disconnected` on each answer, which killed the consumer with a logged
traceback. Nobody is left to read the answer, so it goes nowhere.

3. A wire-level frame budget per socket (OKEY_WS_WIRE_RATE frames per second, bursts of
OKEY_WS_WIRE_BURST), far above what the consumers allow (games/frames.py). daphne queues
every incoming frame for the application without bound, so a client sending hundreds of
thousands of frames a second filled memory and kept the process busy for everyone on it
long before the consumer's own limiter had read enough frames to close it. Past the
budget later frames are dropped unread, the socket is sent a 1008 close and cut a second
later if the client does not finish the close handshake; its consumer still hears the
disconnect.

4. A connection autobahn fails itself is closed with its code, not cut. daphne keeps
autobahn's default `failByDrop`, which aborts the TCP connection on a text frame that is
not UTF-8 (the client saw a reset, no 1007) or a frame past daphne's size limit (no
1009). Without it autobahn sends the close frame RFC 6455 §7.1.7 asks for (1007, 1009, or
1002 for a protocol error), drops the frame unread, and cuts the connection once the
close handshake is done or after its one-second close timeout. A silent peer's ping
timeout and an unfinished opening handshake are still cut at once.

5. A connection whose HTTP request (the WebSocket upgrade, or any page request) stops
coming in is dropped after HANDSHAKE_SECONDS without a byte, not Twisted's 60 s. daphne's
--websocket_connect_timeout only starts once the whole upgrade request has arrived, so a
client that opened hundreds of connections and sent half a request each held them all
for a minute. The timer is Twisted's idle timer of the HTTP connection: it pauses while a
complete request is answered and is gone once a socket is upgraded, so slow pages and
open WebSockets are not cut; a kept-alive connection between page loads is closed sooner
(the browser opens a new one).
"""
import logging
import time

log = logging.getLogger("okeysite.ws")
PROTOCOL_CODES = frozenset({1007, 1008, 1009})
# fix 5: the same 5 s that --websocket_connect_timeout gives the application to accept
HANDSHAKE_SECONDS = 5


def patch_daphne():
    """Patch daphne's WebSocketProtocol (close codes, late frames, wire budget, failing by
    close) and HTTPFactory (the request idle timer) once, from okeysite.asgi, so only a
    serving process does: fixes 1-5 above. Returns True when patched now, False when
    already or when daphne is not installed."""
    try:
        from daphne.http_protocol import HTTPFactory
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        return False
    if getattr(WebSocketProtocol.serverClose, "okey_protocol_codes", False):
        return False
    original_build = HTTPFactory.buildProtocol

    def build_protocol(self, addr):
        protocol = original_build(self, addr)
        # read by the channel in connectionMade, after buildProtocol (fix 5 above)
        protocol.timeOut = HANDSHAKE_SECONDS
        return protocol

    HTTPFactory.buildProtocol = build_protocol
    # read by autobahn per connection, before the factory's value (fix 4 above)
    WebSocketProtocol.failByDrop = False
    original = WebSocketProtocol.serverClose

    def server_close(self, code=None):
        if code in PROTOCOL_CODES:
            self.sendCloseFrame(code=code, isReply=False)
        else:
            original(self, code=code)

    server_close.okey_protocol_codes = True
    WebSocketProtocol.serverClose = server_close
    original_reply = WebSocketProtocol.handle_reply

    def handle_reply(self, message):
        if message.get("type") == "websocket.send" and self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
            log.debug("dropped a frame for %s: the socket is closing", getattr(self, "client_addr", "?"))
            return
        original_reply(self, message)

    WebSocketProtocol.handle_reply = handle_reply
    original_message = WebSocketProtocol.onMessage

    def on_message(self, payload, isBinary):  # noqa: N803 - autobahn's signature
        # Our own flag, not daphne's `muted`: a muted socket's close never reaches the
        # application (daphne sends no `websocket.disconnect`), so its consumer never ran
        # `disconnect` and kept its slot in the per-address socket counts for good.
        if getattr(self, "okey_over_budget", False):
            return
        if not _within_wire_budget(self):
            self.okey_over_budget = True
            log.warning("closing %s: over the wire frame budget", getattr(self, "client_addr", "?"))
            self.sendCloseFrame(code=1008, isReply=False)
            self.factory._batched_timer.call_later(1.0, lambda: self.dropConnection(abort=True))
            return
        original_message(self, payload, isBinary)

    WebSocketProtocol.onMessage = on_message
    return True


def _within_wire_budget(protocol):
    # A token bucket kept on the protocol object: True while the socket may send a frame.
    from django.conf import settings

    now = time.monotonic()
    rate, burst = settings.OKEY_WS_WIRE_RATE, settings.OKEY_WS_WIRE_BURST
    tokens, last = getattr(protocol, "okey_wire", (burst, now))
    tokens = min(burst, tokens + (now - last) * rate)
    protocol.okey_wire = (tokens - 1, now)
    return tokens >= 1
