"""Conformance runner (RULES.md §8): ``python -m games.engine.conformance FILE...``.

Prints one line per failing vector, then ``N passed, N failed``, and exits 1 on any
failure.  A malformed line — not JSON, not a vector, or a ``game`` vector whose
actions end the round but whose ``expect`` lists no ``scores`` (RULES.md §8) — is a
failure with a message, never a crash.  Game vectors are played with
``api.replay``, the engine's one replay loop.
"""
from __future__ import annotations

import json
import sys
from typing import Iterable

from . import api


class Bad(Exception):
    """The vector itself is malformed."""


def _need(vector: dict, key: str, kind: type | tuple = object):
    if key not in vector:
        raise Bad(f"missing {key!r}")
    value = vector[key]
    if not isinstance(value, kind):
        raise Bad(f"{key!r} has the wrong type")
    return value


def _ruleset(vector: dict) -> str:
    ruleset = _need(vector, "ruleset", str)
    if ruleset not in api.RULESETS:
        raise Bad(f"unknown ruleset {ruleset!r}")
    return ruleset


def check_meld(vector: dict) -> str | None:
    """None when the ``meld`` vector passes, else why it fails."""
    ruleset = _ruleset(vector)
    tiles = _need(vector, "tiles", list)
    expect = _need(vector, "expect", dict)
    got = api.meld_info(ruleset, tiles, vector.get("indicator"))
    return None if got == expect else f"expected {expect}, got {got}"


def check_score(vector: dict) -> str | None:
    """None when the ``score`` vector passes, else why it fails."""
    ruleset = _ruleset(vector)
    seats = _need(vector, "seats", list)
    if "finisher" not in vector:
        raise Bad("missing 'finisher'")
    expect = _need(vector, "expect", dict)
    if "scores" not in expect:
        raise Bad("expect has no 'scores'")
    got = api.score(ruleset, vector.get("options") or {}, seats, vector["finisher"],
                    indicator=vector.get("indicator"), final_discard=vector.get("final_discard"),
                    direct=bool(vector.get("direct", False)))
    return None if got == expect["scores"] else f"expected scores {expect['scores']}, got {got}"


def check_game(vector: dict) -> str | None:
    """None when the ``game`` vector passes, else why it fails."""
    position = _need(vector, "position", dict)
    if not isinstance(position.get("seats"), list):
        raise Bad("position has no seats")
    vector = dict(vector, ruleset=position.get("ruleset"))
    _ruleset(vector)
    actions = _need(vector, "actions", list)
    expect = _need(vector, "expect", dict)
    played = api.replay_all(position, actions)
    if "scores" not in expect and any(done.round_result for done in played.steps):
        raise Bad("the actions end the round but expect lists no 'scores'")
    results = ["ok" if done.accepted else f"error:{done.code}" for done in played.steps]
    position = played.position
    problems = []
    if "results" in expect and results != expect["results"]:
        problems.append(f"results expected {expect['results']}, got {results}")
    penalty = [seat.get("penalty", 0) for seat in position["seats"]]
    if "penalty" in expect and penalty != expect["penalty"]:
        problems.append(f"penalty expected {expect['penalty']}, got {penalty}")
    if "scores" in expect:
        scores = api.round_scores(position)
        if scores != expect["scores"]:
            problems.append(f"scores expected {expect['scores']}, got {scores}")
    return "; ".join(problems) or None


CHECKS = {"meld": check_meld, "score": check_score, "game": check_game}


def run_lines(lines: Iterable[tuple[str, str]], out=sys.stdout) -> tuple[int, int]:
    """Run vectors from ``(label, line)`` pairs; prints failures; returns (passed, failed)."""
    passed = failed = 0
    for label, line in lines:
        if not line.strip():
            continue
        vid = label
        try:
            vector = json.loads(line)
            if not isinstance(vector, dict):
                raise Bad("a vector is a JSON object")
            vid = str(vector.get("id", label))
            kind = vector.get("kind")
            if kind not in CHECKS:
                raise Bad(f"unknown kind {kind!r}")
            problem = CHECKS[kind](vector)
        except json.JSONDecodeError as exc:
            problem = f"malformed line: not JSON ({exc.msg})"
        except Bad as exc:
            problem = f"malformed vector: {exc}"
        except Exception as exc:  # an engine crash is a failure, not a crash of the runner
            problem = f"crashed: {type(exc).__name__}: {exc}"
        if problem:
            failed += 1
            print(f"FAIL {vid}: {problem}", file=out)
        else:
            passed += 1
    return passed, failed


def _file_lines(paths: list[str], counts: list[int]):
    for path in paths:
        try:
            with open(path, encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    yield f"{path}:{n}", line
        except OSError as exc:
            counts[0] += 1
            print(f"FAIL {path}: cannot read ({exc.strerror})")


def main(argv: list[str] | None = None) -> int:
    """Command line entry: run every vector of every FILE; returns the exit status."""
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m games.engine.conformance FILE...", file=sys.stderr)
        return 2
    unreadable = [0]
    passed, failed = run_lines(_file_lines(paths, unreadable))
    failed += unreadable[0]
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
