"""The rules pages: ``/rules/`` and ``/rules/<ruleset>/`` (RULES.md, written for players).

``examples/``: every tile picture on the pages is data there, checked against the engine by
``tests/games/test_rules_pages.py``; ``tiles.py`` draws a tile as the table draws it;
``render.py`` turns each example into its figure; ``views.py`` serves the pages.
"""
