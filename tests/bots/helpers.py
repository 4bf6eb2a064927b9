"""Helpers shared by the bot tests."""
from __future__ import annotations

from games.engine import api


def played(position: dict, action: dict) -> dict:
    """The position after ``action``, failing the test unless the engine accepts it
    (``api.step``: a refusal comes back as a Step with its RULES.md §7 code)."""
    done = api.step(position, action)
    assert done.accepted, f"refused ({done.code}): {action}"
    return done.position


def c_compiler() -> str | None:
    """Path of the C compiler Python's extensions are built with (``sysconfig`` CC), or None."""
    import shutil
    import sysconfig

    cc = (sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(cc[0]) if cc else None


def compiled_rami_core():
    """The compiled rami solver core (``games.bots._rami_core``), even when
    ``OKEY_RAMI_PURE`` keeps ``solve`` on pure Python.

    Fails the test when the module is missing on a machine with a C compiler
    (the install should have built it) or when it is a stale build; skips only
    where there is no compiler, since then the pure-Python path is the one in use.
    """
    import pytest

    from games.bots import solver_rami

    try:
        from games.bots import _rami_core
    except ImportError as exc:
        cc = c_compiler()
        if cc is None:
            pytest.skip(f"no C compiler here, so games.bots._rami_core is not built: "
                        f"the pure-Python solver runs ({exc})")
        pytest.fail(f"games.bots._rami_core is not built although a C compiler is here ({cc}): build it with "
                    "`.venv/bin/pip install -e .` (make test and make check do it when setup.py or the C "
                    f"source change); the import said: {exc}")
    assert _rami_core.VERSION == solver_rami._CORE_VERSION, \
        "stale games.bots._rami_core: rebuild it with `.venv/bin/pip install -e .`"
    return _rami_core
