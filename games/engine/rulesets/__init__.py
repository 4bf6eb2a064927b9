"""One module per ruleset: ``okey51``, ``okey17`` (on ``okey_base``) and ``rami``.

Each exposes ``deal, apply, view, meld_info, score, is_over, round_scores,
penalty_tiles, add_targets`` with the signatures of ``games.engine.api`` minus
the ruleset argument (docs/engine-api.md).
"""
