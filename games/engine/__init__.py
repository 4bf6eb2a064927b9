"""Pure-Python rules engine for okey51, okey17 and rami (RULES.md).

Nothing here imports Django, Channels or Celery (ARCHITECTURE.md, invariant 1).
The rulesets are imported first so that their objects are registered before any
engine module looks one up by id (``registry.py``).
"""
from . import rulesets  # noqa: F401  (registers the ruleset objects)
