"""``python manage.py selfplay``: computers-only rounds on the pure engine.

Plays N rounds from seeds with ``games.bots`` at the given levels (no database:
the engine is called directly, the ORM is never touched), checks the position
invariants after every action, and prints per level the mean score per round
(``api.round_totals``: end-of-round amount + in-round penalties) with its 95 %
confidence interval, the opening rate, the penalty rate (share of seat-rounds
with an in-round penalty) and decision CPU-time percentiles.  Progress goes to
stderr as one updating line.  ``--options JSON`` passes table options to the
ruleset (e.g. rami ``{"double_one_turn": true}``, RULES.md §5); they are checked
before the first round.  ``--records FILE`` also writes every round as a game record
(docs/game-record.md), one per line (JSON Lines), that
``python3 games/engine/fairdeal.py FILE`` verifies: each round is dealt by
``okeysite-shuffle-1`` from the server seed ``fairdeal.seed_from_text('<seed>-<i>')``.
"""
from __future__ import annotations

import json
import time

from django.core.management.base import BaseCommand, CommandError

from games.bots import LEVELS
from games.bots.selfplay import aggregate, play_round, seatings, text_deal_seed
from games.engine import api
from games.engine.api import RULESETS
from games.records import selfplay_record


class Command(BaseCommand):
    help = "Play computer-only rounds and print per-level results (no database)."
    requires_system_checks = []  # pure engine: nothing the checks guard is used

    def add_arguments(self, parser):
        parser.add_argument("--ruleset", required=True, choices=list(RULESETS))
        parser.add_argument("--rounds", type=int, default=100)
        parser.add_argument("--seats", default="strong,normal,normal,easy",
                            help="comma-separated bot level per seat, e.g. strong,normal,normal,easy")
        parser.add_argument("--seed", default="selfplay", help="seed prefix; round i uses '<seed>-<i>'")
        parser.add_argument("--teams", action="store_true", help="okey51 team play (seats 0+2 vs 1+3)")
        parser.add_argument("--mix-seats", action="store_true",
                            help="cycle through every ordering of the seats' levels (fair neighbours)")
        parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (faster)")
        parser.add_argument("--options", default="{}",
                            help='ruleset table options as JSON, e.g. \'{"double_one_turn": true}\' (rami)')
        parser.add_argument("--records", metavar="FILE",
                            help="also write each round as an okeysite-record-1 game record, one per line")

    def handle(self, *args, **opts):
        levels = [s.strip() for s in opts["seats"].split(",") if s.strip()]
        bad = [lv for lv in levels if lv not in LEVELS]
        if bad:
            raise CommandError(f"unknown level(s) {bad}; choose from {LEVELS}")
        ruleset, rounds = opts["ruleset"], opts["rounds"]
        try:
            options = json.loads(opts["options"] or "{}")
        except ValueError as exc:
            raise CommandError(f"--options is not JSON: {exc}") from None
        if not isinstance(options, dict):
            raise CommandError("--options must be a JSON object")
        shown = dict(options)
        if opts["teams"]:
            options["teams"] = True
        try:
            api.deal(ruleset, options, text_deal_seed("options-check", len(levels))[1], players=len(levels))
        except ValueError as exc:
            raise CommandError(f"bad options for {ruleset}: {exc}") from None
        records = self._open(opts["records"])
        try:
            results, illegal, broken = self._play(ruleset, levels, options, rounds, opts, records)
        finally:
            if records is not None:
                records.close()
        self._report(ruleset, levels, results, illegal, broken, shown)

    def _play(self, ruleset, levels, options, rounds, opts, records):
        """Play the rounds (writing each one's record to ``records`` when given).
        Returns (results, illegal bot actions, invariant violations)."""
        results = []
        illegal = 0
        broken = 0
        start = time.perf_counter()
        orders = seatings(levels) if opts["mix_seats"] else [levels]
        for i in range(rounds):
            r = play_round(ruleset, f"{opts['seed']}-{i}", orders[i % len(orders)], options,
                           first=i % len(levels), check=not opts["no_check"], record=records is not None)
            if records is not None:
                records.write(json.dumps(selfplay_record(r, ruleset, options), ensure_ascii=False,
                                         separators=(",", ":")) + "\n")
                r.initial = r.moves = r.final = None  # written: the aggregate needs none of it
            results.append(r)
            illegal += len(r.illegal)
            broken += len(r.violations)
            if self.stderr.isatty() or i + 1 == rounds or (i + 1) % 10 == 0:
                done = (i + 1) / rounds
                bar = "#" * int(done * 30)
                self.stderr.write(f"\r[{bar:<30}] {i + 1}/{rounds} rounds "
                                  f"{time.perf_counter() - start:6.1f}s violations {broken}", ending="")
                self.stderr.flush()
        self.stderr.write("")
        return results, illegal, broken

    def _open(self, path):
        """The --records output file (text, UTF-8), or None without --records."""
        if not path:
            return None
        try:
            return open(path, "w", encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc}") from None

    def _report(self, ruleset, levels, results, illegal, broken, options=None):
        """Print the per-level table; ``options``: the ``--options`` given (shown in the header)."""
        out = self.stdout
        better = "higher" if api.ruleset(ruleset).higher_wins else "lower"
        mixed = " (orderings mixed)" if len({tuple(r.levels) for r in results}) > 1 else ""
        shown = f", options {json.dumps(options, sort_keys=True)}" if options else ""
        out.write(f"ruleset {ruleset}{shown}, seats {','.join(levels)}{mixed}, {len(results)} rounds "
                  f"(score = round total per seat-round, {better} is better)")
        out.write(f"{'level':<8}{'n':>6}{'mean':>10}{'±95%':>9}{'open':>7}{'penal':>7}"
                  f"{'p50 ms':>9}{'p99 ms':>9}")
        stats = aggregate(results, levels)
        for lv in LEVELS:
            if lv not in stats:
                continue
            st = stats[lv]
            n = len(st.scores)
            mean, ci = st.mean_ci()
            out.write(f"{lv:<8}{n:>6}{mean:>10.1f}{ci:>9.1f}{st.opened / n:>7.2f}{st.penalised / n:>7.2f}"
                      f"{st.percentile_ms(50):>9.2f}{st.percentile_ms(99):>9.2f}")
        ends = {}
        for r in results:
            ends[r.end] = ends.get(r.end, 0) + 1
        out.write("ends: " + ", ".join(f"{k}={v}" for k, v in sorted(ends.items(), key=str)))
        out.write(f"rounds run: {len(results)}")
        out.write(f"illegal bot actions: {illegal}")
        out.write(f"invariant violations: {broken}")
