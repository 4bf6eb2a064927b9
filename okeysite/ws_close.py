"""Let the application close a WebSocket with the RFC 6455 protocol codes 1007, 1008, 1009.

daphne hands an application's `websocket.close` to autobahn's `sendClose`, which accepts
only 1000 and 3000-4999 (the codes of its own API) and raises for the rest: a consumer
closing with 1009 (message too big), 1007 (data not consistent with the message type) or
1008 (policy violation) made daphne log an exception and drop the socket with 1011
instead. Those three are codes RFC 6455 §7.4.1 gives any endpoint, so they go out through
autobahn's `sendCloseFrame` (the same close handshake, without the API's check).
"""
PROTOCOL_CODES = frozenset({1007, 1008, 1009})


def allow_protocol_close_codes():
    """Patch daphne's WebSocketProtocol.serverClose once (from okeysite.asgi, so only a
    serving process does). Returns True when patched now, False when already or when
    daphne is not installed."""
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
    return True
