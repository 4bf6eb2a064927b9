"""Two fixes to how daphne closes WebSockets, applied by okeysite.asgi in a serving process.

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
"""
import logging

log = logging.getLogger("okeysite.ws")
PROTOCOL_CODES = frozenset({1007, 1008, 1009})


def allow_protocol_close_codes():
    """Patch daphne's WebSocketProtocol.serverClose and handle_reply once (from
    okeysite.asgi, so only a serving process does). Returns True when patched now, False
    when already or when daphne is not installed."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        return False
    if getattr(WebSocketProtocol.serverClose, "okey_protocol_codes", False):
        return False
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
    return True
