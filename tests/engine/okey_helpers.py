"""Small builders for okey positions and actions used by the engine tests."""
from __future__ import annotations

from games.engine import api
from games.engine.step import Step


def okey_position(ruleset, racks, *, table=(), turn=0, phase="play", indicator="R5", pile=None,
                  discards=None, opened=None, options=None, highest_opening=None, penalty=None):
    """A loaded okey position in RULES.md §7 shape (like a conformance vector's)."""
    n = len(racks)
    opened = opened or ["no"] * n
    penalty = penalty or [0] * n
    tbl = []
    for i, m in enumerate(table, 1):
        if isinstance(m, dict):
            tbl.append(m)
        else:
            owner, tiles = m
            tbl.append({"id": i, "owner": owner, "tiles": list(tiles)})
    return {
        "ruleset": ruleset,
        "options": api.normalize_options(ruleset, options),
        "indicator": indicator,
        "turn": turn,
        "phase": phase,
        "pile": list(pile if pile is not None else ["K3", "B9", "Y4", "R2"]),
        "discards": [list(d) for d in (discards or [[] for _ in range(n)])],
        "seats": [{"rack": list(r), "opened": o, "penalty": p} for r, o, p in zip(racks, opened, penalty)],
        "table": tbl,
        "highest_opening": highest_opening,
    }


def play(position, *actions):
    """Step through accepted actions in order (each a dict); returns the final position
    and fails the test on a refusal."""
    for action in actions:
        done = api.step(position, action)
        assert done.accepted, f"{action} refused: {done.code}"
        position = done.position
    return position


def refused(position, action) -> Step:
    """The refused Step of ``action`` (``.code``; ``.position`` carries a penalty that
    stays, else it is the input itself); fails the test when it is accepted."""
    done = api.step(position, action)
    assert not done.accepted, f"{action} was accepted"
    assert done.changed or done.position is position
    return done


def penalties(position):
    return [s["penalty"] for s in position["seats"]]
