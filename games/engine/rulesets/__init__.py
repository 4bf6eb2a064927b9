"""The three rulesets, one object each, in the registry :data:`RULESETS` (id -> object).

``okey51`` and ``okey17`` build on ``okey.OkeyRuleset``; ``rami`` is Rummikub.  Each
object holds every fact and operation of its ruleset
(:class:`~games.engine.rulesets.base.Ruleset`).  Importing this package also registers
the objects for the low modules that take a ruleset id (``games.engine.registry``).
"""
from __future__ import annotations

from .. import registry
from .okey17 import OKEY17
from .okey51 import OKEY51
from .rami import RAMI

RULESETS = {r.id: r for r in (OKEY51, OKEY17, RAMI)}
"""Every ruleset object by id."""

for _ruleset in RULESETS.values():
    registry.register(_ruleset)
