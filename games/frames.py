"""What a table socket accepts from a client, checked before anything else sees it.

- `decode`: a raw WebSocket message to a frame (a JSON object with a string `type`),
  with the size limit (MAX_FRAME_CHARS, close 1009) and the UTF-8 check (close 1007)
  before parsing, and a nesting limit (MAX_DEPTH) checked by a scan without recursion,
  so a frame nested a thousand levels deep is a `bad_frame`, never a RecursionError.
- `bad_text`: whether a client string holds what no text field takes (NUL, C0/C1 control
  characters — newlines and tabs too: chat lines and report reasons are single lines —
  lone surrogates, which PostgreSQL cannot store, and noncharacters): the one rule of
  `games.engine.text_rules`, the one client seeds follow too.
- `normalise_action`: a client action reduced to its RULES.md §7 fields (D-29), of the
  right JSON types, before it reaches the writer, the move log or a broadcast. Extra
  fields are dropped (docs/protocol.md §7 allows them: a client may send more, nothing keeps it);
  an unknown type or an ill-typed field is `bad_action`, refused before any lock.
- `FrameBudget`: the per-socket token bucket, with the flood score that closes a socket
  (1008) that keeps sending faster than it may.
- `dumps`: the compact JSON text of a frame a socket sends (table and lobby sockets), and
  of every view the writer serialises: the same text as `json.dumps(frame, separators=(",",
  ":"))`, written by orjson, about four times faster on a view.

Every refusal is a `Refused`: a close code, or an error code of `games.errors`.
"""
import codecs
import json
import time

import orjson

from games.engine import text_rules
from games.engine.actions import FIELDS
from games.engine.fairdeal import nesting_depth

MAX_FRAME_CHARS = 16 * 1024
MAX_DEPTH = 12  # the deepest legal frame (action > then > melds > meld > tile) is 5
MAX_LIST = 120  # items in an action's list: a whole okey set has 106 tiles
MAX_TILE_CHARS = 16
ANSWERED_DROPS = 10  # dropped frames answered `rate_limited` in a spell; later ones are not

CLOSE_TOO_BIG = 1009
CLOSE_BAD_DATA = 1007
CLOSE_POLICY = 1008

class Refused(Exception):
    """A refused client message: `close` (a WebSocket close code) or `code` (an error code
    answered in an `error` frame; the socket stays open)."""

    def __init__(self, code=None, close=None):
        super().__init__(code or close)
        self.code = code
        self.close = close


def _json_escapes(error):
    # The `\\uXXXX` escapes `json.dumps` writes (ensure_ascii) for characters beyond ASCII,
    # as UTF-16 code units: a surrogate pair beyond the Basic Multilingual Plane.
    out = []
    for char in error.object[error.start:error.end]:
        code = ord(char)
        if code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 | code >> 10:04x}\\u{0xDC00 | code & 0x3FF:04x}")
    return "".join(out), error.end


codecs.register_error("okey-json-escapes", _json_escapes)


def dumps(frame):
    """`frame` (dict) as compact JSON text (str), the form every frame a socket sends and
    every view the writer serialises takes: exactly the text of `json.dumps(frame,
    separators=(",", ":"))` (non-ASCII characters escaped, integer keys as strings), so
    every client reads the same bytes; only a float in exponent form is spelt otherwise
    (1e16 for 1e+16, the same number: no frame holds one). Written by orjson, which a view's share of the
    writer's CPU asks for; what orjson does not take (an integer beyond 64 bits) is left to
    `json`. Raises TypeError for what is not JSON."""
    try:
        data = orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError:
        return json.dumps(frame, separators=(",", ":"))
    if b"\x7f" in data:  # DEL, which json escapes and orjson does not (no text field takes it)
        return json.dumps(frame, separators=(",", ":"))
    if data.isascii():
        return data.decode("ascii")
    return data.decode("utf-8").encode("ascii", "okey-json-escapes").decode("ascii")


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def decode(text_data=None, bytes_data=None):
    """The frame (dict with a str `type`) in one WebSocket message.

    `text_data` (str) or `bytes_data` (bytes, read as UTF-8 text). Raises Refused:
    close 1009 over MAX_FRAME_CHARS characters, close 1007 for bytes that are not UTF-8
    (or text holding lone surrogates), `bad_frame` for nesting deeper than MAX_DEPTH, text
    that is not JSON (NaN and Infinity included), or JSON that is not an object with a
    string `type`."""
    if text_data is None:
        if bytes_data is None or len(bytes_data) > 4 * MAX_FRAME_CHARS:
            raise Refused(close=CLOSE_TOO_BIG if bytes_data else CLOSE_BAD_DATA)
        try:
            text_data = bytes_data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(close=CLOSE_BAD_DATA) from None
    if len(text_data) > MAX_FRAME_CHARS:
        raise Refused(close=CLOSE_TOO_BIG)
    try:
        text_data.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: no UTF-8 text carries one
        raise Refused(close=CLOSE_BAD_DATA) from None
    if nesting_depth(text_data, MAX_DEPTH) > MAX_DEPTH:
        raise Refused("bad_frame")
    try:
        frame = json.loads(text_data, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise Refused("bad_frame") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
        raise Refused("bad_frame")
    return frame


def frame_id(frame):
    """The frame's `id` when it is a string of 1..64 characters, else None."""
    value = frame.get("id")
    return value if isinstance(value, str) and 0 < len(value) <= 64 else None


def bad_text(value):
    """True when `value` is a str holding NUL, a control character (newline and tab
    included), a lone surrogate or a noncharacter (U+FFFF, U+10FFFF, ...:
    `text_rules.refused_char`); False otherwise (other types are the caller's to judge)."""
    return isinstance(value, str) and text_rules.refused_char(value) is not None


def _is_tile(value):
    return isinstance(value, str) and 0 < len(value) <= MAX_TILE_CHARS and not bad_text(value)


def _is_list(value, item):
    return isinstance(value, list) and len(value) <= MAX_LIST and all(item(v) for v in value)


def _is_meld(value):
    return _is_list(value, _is_tile)


_FORMS = {
    "melds": lambda v: _is_list(v, _is_meld),
    "meld": _is_meld,
    "meld_id": lambda v: type(v) is int,
    "written": _is_tile,
    "bare": _is_tile,
}


def normalise_action(action, nested=False):
    """`action` (a client's RULES.md §7 action, without `seat`) reduced to `type`, the
    fields of its type (`games.engine.actions.FIELDS`) and `owner` when given, each of the
    right JSON type; a `take_discard`'s `then` is normalised the same way (a `then` that is
    itself a `take_discard` keeps only its type: the engine refuses it, D-23). `seat` and
    every other field are dropped. Missing fields stay missing (the engine's `bad_action`).
    Returns a new dict. Raises Refused("bad_action") for a non-object, an unknown type or
    an ill-typed field (D-29)."""
    if not isinstance(action, dict) or action.get("type") not in FIELDS:
        raise Refused("bad_action")
    kind = action["type"]
    clean = {"type": kind}
    if nested and kind == "take_discard":
        return clean
    for key, form in FIELDS[kind].items():
        if key not in action:
            continue
        value = action[key]
        if form == "then":
            clean[key] = normalise_action(value, nested=True)
        elif _FORMS[form](value):
            clean[key] = value
        else:
            raise Refused("bad_action")
    if action.get("owner") is not None:
        if type(action["owner"]) is not int:
            raise Refused("bad_action")
        clean["owner"] = action["owner"]
    return clean


class FrameBudget:
    """A socket's frame allowance: a token bucket (`rate` frames per second, `burst` at
    most) and a flood score that grows by one per dropped frame and decays at rate / 10
    per second. `take()` says what to do with the next frame."""

    def __init__(self, rate, burst, flood_limit, clock=time.monotonic):
        self.rate, self.burst, self.flood_limit, self.clock = rate, burst, flood_limit, clock
        self.tokens = burst
        self.flood = 0.0
        self.last = clock()

    def take(self):
        """Spend one token for a frame arriving now. Returns "ok" (handle it), "answer"
        (drop it with a `rate_limited` error), "drop" (drop it silently: the client was
        told) or "close" (the flood went on: close the socket with 1008)."""
        now = self.clock()
        elapsed, self.last = now - self.last, now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.flood = max(0.0, self.flood - elapsed * self.rate / 10)
        if self.tokens >= 1:
            self.tokens -= 1
            return "ok"
        self.flood += 1
        if self.flood > self.flood_limit:
            return "close"
        return "answer" if self.flood <= ANSWERED_DROPS else "drop"
