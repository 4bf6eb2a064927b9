"""Pure-Python rules engine for okey51, okey17 and rami (RULES.md).

Nothing here imports Django, Channels or Celery (ARCHITECTURE.md, invariant 1).
"""
