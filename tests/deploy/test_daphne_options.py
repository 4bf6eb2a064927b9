"""daphne runs with one set of options wherever the site starts it: the Makefile's
DAPHNE_OPTS (`make run`), deploy/supervisord.conf, the README's command and
bench.stack.DAPHNE_OPTIONS (the tests' and benchmarks' servers, which says why each). A
ping interval changed in one place only would leave a dropped network noticed late
there, and a test would pass on options production does not use."""
import re
import shlex
from pathlib import Path

from bench.stack import DAPHNE_OPTIONS

ROOT = Path(__file__).resolve().parents[2]


def options_of(command):
    """The `--name value` pairs of a daphne command line (str), without bind, port and app."""
    words = shlex.split(command)
    pairs = {}
    for i, word in enumerate(words):
        if word.startswith("--") and i + 1 < len(words):
            pairs[word] = words[i + 1]
    return pairs


EXPECTED = dict(zip(DAPHNE_OPTIONS[::2], DAPHNE_OPTIONS[1::2]))


def test_the_tests_options_are_pairs_with_a_ping_and_a_handshake_limit():
    assert len(DAPHNE_OPTIONS) == 2 * len(EXPECTED)
    assert {"--ping-interval", "--ping-timeout", "--websocket_connect_timeout"} <= EXPECTED.keys()


def test_make_run_uses_them():
    line = re.search(r"^DAPHNE_OPTS\s*:=\s*(.+)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert options_of(line) == EXPECTED


def test_supervisord_uses_them():
    text = (ROOT / "deploy" / "supervisord.conf").read_text()
    command = re.search(r"^command=.*-m daphne(.*?)okeysite\.asgi:application", text, re.M | re.S).group(1)
    pairs = options_of(command.replace("\n", " "))
    assert {k: v for k, v in pairs.items() if k not in ("-b", "-p")} == EXPECTED


def test_the_readme_uses_them():
    line = next(line for line in (ROOT / "README.md").read_text().splitlines() if "bin/daphne " in line)
    pairs = options_of(line.split("#", 1)[0])
    assert pairs == EXPECTED
