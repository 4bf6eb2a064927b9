"""docs/protocol.md says what the sockets do: every frame type the table consumer
dispatches on, every frame type a socket sends, every error code a player can get and
every WebSocket close code the code uses is in its tables, and nothing is in them that the
code no longer has. A code, frame or close added without its line in the doc fails here."""
import ast
import pathlib
import re

from games.chat.service import CHAT_ERRORS
from games.engine.errors import ERROR_ORDER
from games.errors import ERROR_MESSAGES

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "protocol.md"
PACKAGES = ("okeysite", "games", "accounts", "social")
# The modules that answer or dispatch socket frames.
TABLE_SOCKET = ("games/consumers.py", "games/chat/socket.py", "games/heartbeat.py", "games/frames.py")
LOBBY_SOCKET = ("games/lobby_socket.py", "games/play/lobby.py", "games/heartbeat.py", "games/frames.py")
DISPATCH = ("games/consumers.py", "games/heartbeat.py")
# The writers whose refusals the table socket forwards as they are (`Outcome`, `SeedOutcome`).
OUTCOMES = ("games/play/turns.py", "games/play/seeding.py")
CELL = re.compile(r"`([^`]+)`|\*\*(\d+)\*\*")


def sections():
    """{title: text} of the doc's "## " sections."""
    out, title = {}, None
    for line in DOC.read_text().splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            out[title] = []
        elif title is not None:
            out[title].append(line)
    return {name: "\n".join(lines) for name, lines in out.items()}


def section(words):
    found = [text for name, text in sections().items() if words in name]
    assert len(found) == 1, f"docs/protocol.md needs one section titled with {words!r}"
    return found[0]


def tables(text):
    """The Markdown tables of `text`, each as the list of the names in its rows' first
    cells (backticked words, or bold numbers), header and rule rows left out."""
    out, current = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            current = None
            continue
        if current is None:  # the header row
            current = []
            out.append(current)
            continue
        first = line.strip("|").split("|")[0]
        if set(first.strip()) <= set("-: "):
            continue
        current.extend(a or b for a, b in CELL.findall(first))
    return out


def names(text):
    return {name for table in tables(text) for name in table}


def parse(relative):
    return ast.parse((ROOT / relative).read_text())


def _const(node, kind=str):
    return node.value if isinstance(node, ast.Constant) and type(node.value) is kind else None


# ------------------------------------------------------------------ the code's side
def socket_error_codes():
    """Codes the socket modules send literally (`send_error("x")`, `error_message("x")`,
    `{"code": "x"}`) and the refusals of the writers they forward (`Outcome(ok, version,
    "x")`, `SeedOutcome(False, code="x")`)."""
    found = set()
    for relative in TABLE_SOCKET + LOBBY_SOCKET:
        for node in ast.walk(parse(relative)):
            called = getattr(node.func, "attr", getattr(node.func, "id", None)) if isinstance(node, ast.Call) else None
            if called in ("send_error", "error_message") and node.args and _const(node.args[0]):
                found.add(node.args[0].value)
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if key is not None and _const(key) == "code" and _const(value):
                        found.add(value.value)
    for relative in OUTCOMES:
        for node in ast.walk(parse(relative)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "").endswith("Outcome"):
                values = [k.value for k in node.keywords if k.arg == "code"] + node.args[2:3]
                found |= {v.value for v in values if _const(v)}
    return found


def error_codes():
    return set(ERROR_MESSAGES) | set(CHAT_ERRORS) | set(ERROR_ORDER) | socket_error_codes()


def close_constants():
    """{"module.NAME": code} of the int constants named like a close code (CLOSE_* or
    *_CLOSE_CODE) anywhere in the server's packages."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    name = node.targets[0].id
                    if "CLOSE" in name and _const(node.value, int) is not None:
                        found[f"{module}.{name}"] = node.value.value
    return found


def close_literals():
    """Close codes written as numbers: `close(code=N)`, `sendCloseFrame(code=N)`, and the
    members of a frozenset named *_CODES (okeysite.ws_close.PROTOCOL_CODES)."""
    found = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("close", "sendCloseFrame"):
                    for keyword in node.keywords:
                        if keyword.arg == "code" and _const(keyword.value, int) is not None:
                            found.add(keyword.value.value)
                if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                        and node.targets[0].id.endswith("CODES") and isinstance(node.value, ast.Call)):
                    for arg in node.value.args:
                        if isinstance(arg, ast.Set):
                            found |= {n.value for n in arg.elts if _const(n, int) is not None}
    return found


def dispatched_types():
    """Frame types the table socket compares a frame's type with: `kind == "x"` and
    `frame.get("type") == "x"`."""
    found = set()
    for relative in DISPATCH:
        for node in ast.walk(parse(relative)):
            if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
                continue
            left, right = node.left, node.comparators[0]
            is_kind = isinstance(left, ast.Name) and left.id == "kind"
            is_get = (isinstance(left, ast.Call) and getattr(left.func, "attr", None) == "get"
                      and left.args and _const(left.args[0]) == "type")
            if (is_kind or is_get) and _const(right):
                found.add(right.value)
    return found


def sent_types(modules):
    """Frame types the modules build: `{"type": "x", ...}` and `dict(..., type="x")`;
    names with a dot are Channels group messages, not frames."""
    found = set()
    for relative in modules:
        for node in ast.walk(parse(relative)):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if key is not None and _const(key) == "type" and _const(value):
                        found.add(value.value)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
                for keyword in node.keywords:
                    if keyword.arg == "type" and _const(keyword.value):
                        found.add(keyword.value.value)
    return {name for name in found if "." not in name}


# ----------------------------------------------------------------------- the tests
def test_every_error_code_is_documented():
    assert sorted(error_codes() - names(section("Error codes"))) == []


def test_no_documented_error_code_is_gone():
    assert sorted(names(section("Error codes")) - error_codes()) == []


def test_every_close_code_is_documented():
    documented = {int(n) for n in names(section("Close codes")) if n.isdigit()}
    used = set(close_constants().values()) | close_literals()
    assert sorted(used - documented) == []
    assert sorted(documented - used) == []


def test_every_close_constant_is_named_in_the_doc():
    text = section("Close codes")
    assert sorted(name for name in close_constants() if name not in text) == []


def test_every_dispatched_frame_type_is_documented():
    client = names(section("Table socket: client"))
    assert sorted(dispatched_types() - client) == []
    assert sorted(client - dispatched_types()) == []


def test_every_sent_frame_type_is_documented():
    table = names(section("Table socket: server"))
    assert sorted(sent_types(TABLE_SOCKET) ^ table) == []
    lobby = tables(section("Lobby socket"))
    assert len(lobby) == 2, "the lobby section has a client table, then a server table"
    assert sorted(sent_types(LOBBY_SOCKET) ^ set(lobby[1])) == []


def test_the_scans_see_what_they_claim():
    # A scan that finds nothing would let every test above pass for the wrong reason.
    assert {"suspended", "too_many_sockets", "bad_frame", "rate_limited", "stale_version", "not_started",
            "seed_closed", "bad_seed"} <= socket_error_codes()
    assert {"games.frames.CLOSE_TOO_BIG", "games.play.presence.CAP_CLOSE_CODE", "games.heartbeat.IDLE_CLOSE_CODE",
            "accounts.session_sockets.SESSION_CLOSE_CODE",
            "accounts.moderation.KICK_CLOSE_CODE"} <= set(close_constants())
    assert {4404, 1007, 1008, 1009} <= close_literals()
    assert {"action", "sync", "resume", "chat", "report", "seed", "ping"} <= dispatched_types()
    assert {"snapshot", "ack", "error", "round_end", "seeding", "chat_history", "pong"} <= sent_types(TABLE_SOCKET)
    assert {"tables", "error", "pong"} <= sent_types(LOBBY_SOCKET)
    assert tables("| h |\n|---|\n| `a` **1** |") == [["a", "1"]]


def _dict_keys(function, path="games/snapshot.py"):
    """The string keys of the dict literals in `function` of `path`."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    return {k.value for d in ast.walk(node) if isinstance(d, ast.Dict) for k in d.keys
            if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def test_every_server_field_of_the_view_and_of_round_end_is_documented():
    # the chain tip among them: a player's browser checks the deal against it
    view = {name for table in tables(section("The view")) for name in table}
    assert _dict_keys("view_for") - view == set()
    assert "chain_tip" in view
    round_end = {name for table in tables(section("`round_end`")) for name in table}
    assert _dict_keys("round_end_frame") - round_end == set()
