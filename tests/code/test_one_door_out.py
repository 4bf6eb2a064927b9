"""Every message to a socket leaves through `okeysite.socket_groups`, and every group name
is spelt there: a module that sends on its own, or spells "table-…" or "user-…" itself,
is a second door that the next change to the groups would miss."""
import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("okeysite", "games", "accounts", "leaderboards", "social")
DOOR = ROOT / "okeysite" / "socket_groups.py"
# The embedded channel layer is the layer itself: its group_send is the one the door calls.
LAYER = ROOT / "okeysite" / "embedded.py"


def sources():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts and path not in (DOOR, LAYER):
                yield path


def group_sends(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "group_send":
            yield node.lineno


def spelt_group_names(tree):
    # f-strings and plain strings that start like a table or user group's name, outside
    # docstrings (the lobby's name, "lobby", is also a URL name: it is checked by its use)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            head = node.values[0].value
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            head = node.value
        else:
            continue
        if isinstance(head, str) and (head.startswith(("table-", "user-"))):
            yield node.lineno, head


def test_only_the_door_calls_group_send():
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sources()
             for line in group_sends(ast.parse(path.read_text()))]
    assert found == []


def test_only_the_door_spells_group_names():
    found = [f"{path.relative_to(ROOT)}:{line} {head!r}" for path in sources()
             for line, head in spelt_group_names(ast.parse(path.read_text()))]
    assert found == []


def test_the_door_checks_what_it_claims():
    # The scan sees the door's own sends and names: a scan that finds nothing anywhere
    # would pass for the wrong reason.
    tree = ast.parse(DOOR.read_text())
    assert list(group_sends(tree))
    assert {head for _line, head in spelt_group_names(tree)} >= {"table-", "user-"}
