"""The layers point one way (docs/layers.md): the engine imports nothing of the site, the
read side never imports the writer, and accounts/ and leaderboards/ read games' models
without reaching into its writer or its sockets. Checked on the source's imports, so a
new import against the grain fails here before it makes a cycle."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
READ_SIDE = ["games/snapshot.py", "games/history.py", "games/records.py", "games/replays.py",
             "games/frames.py", "games/move_text.py", "games/seeding_state.py", "games/prepared.py"]
WRITER_AND_SOCKETS = ("games.play", "games.consumers", "games.lobby_socket", "games.lobby_relay", "games.group_relay",
                      "games.tasks", "games.views", "games.heartbeat",
                      "games.direct_dispatch", "games.socket_scope")
# What accounts/ may read of games (docs/layers.md: the profile lists a player's matches,
# the settings form offers the rulesets and move times, the user admin shows reports).
ACCOUNTS_MAY_READ = ("games.models", "games.forms", "games.chat.models")


def imports(path):
    """The module names `path` imports (absolute, top level and inside functions)."""
    tree = ast.parse((ROOT / path).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def python_files(package):
    return [str(p.relative_to(ROOT)) for p in sorted((ROOT / package).rglob("*.py")) if "migrations" not in p.parts]


def under(name, prefixes):
    return any(name == p or name.startswith(p + ".") for p in prefixes)


@pytest.mark.parametrize("path", python_files("games/engine"))
def test_the_engine_imports_only_itself_and_the_standard_library(path):
    site = ("django", "channels", "celery", "games", "accounts", "leaderboards", "okeysite")
    assert [n for n in imports(path) if under(n, site) and not under(n, ("games.engine",))] == []


@pytest.mark.parametrize("path", python_files("games/review"))
def test_the_review_imports_only_the_engine_the_bots_and_the_standard_library(path):
    # a review is a pure function of a round's log (docs/review.md): no Django, no writer
    site = ("django", "channels", "celery", "games", "accounts", "leaderboards", "okeysite")
    allowed = ("games.engine", "games.bots", "games.review")
    assert [n for n in imports(path) if under(n, site) and not under(n, allowed)] == []


@pytest.mark.parametrize("path", READ_SIDE)
def test_the_read_side_never_imports_the_writer(path):
    assert [n for n in imports(path) if under(n, WRITER_AND_SOCKETS)] == []


@pytest.mark.parametrize("path", python_files("accounts"))
def test_accounts_reads_only_games_models_and_forms(path):
    assert [n for n in imports(path) if under(n, ("games",)) and not under(n, ACCOUNTS_MAY_READ)] == []


@pytest.mark.parametrize("path", python_files("leaderboards"))
def test_leaderboards_never_reach_into_the_writer_or_sockets(path):
    assert [n for n in imports(path) if under(n, WRITER_AND_SOCKETS)] == []


def test_the_check_sees_imports():
    # the writer does import the read side: a scan that saw no import would pass anything
    assert "games.snapshot" in set(imports("games/play/commit.py"))
    assert under("games.play.commit", WRITER_AND_SOCKETS)
