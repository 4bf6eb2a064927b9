"""`manage.py verify_round <round id>`: check a finished round is honest.

1. sha256(seed) equals the commitment published before the deal;
2. `engine.api.deal` with that seed gives the stored initial position;
3. replaying the stored move log gives the stored final position.
Exit status 1 when any check fails (ARCHITECTURE.md invariant 4, verifiable deals).
"""
from django.core.management.base import BaseCommand, CommandError

from games.engine import api
from games.models import Move, Round, seed_commitment


class Command(BaseCommand):
    help = "Verify a round's deal against its published commitment and replay its move log."

    def add_arguments(self, parser):
        parser.add_argument("round_id", type=int)

    def handle(self, *args, **options):
        try:
            rnd = Round.objects.select_related("match__table").get(pk=options["round_id"])
        except Round.DoesNotExist:
            raise CommandError("no such round") from None
        table = rnd.match.table
        problems = []
        if seed_commitment(rnd.seed) != rnd.commitment:
            problems.append("the seed does not match the commitment")
        position = api.deal(table.ruleset, table.options, rnd.seed, table.players, rnd.first)
        if position != rnd.initial_position:
            problems.append("the seed does not deal the stored initial position")
        for move in Move.objects.filter(round=rnd).order_by("number"):
            try:
                position = api.apply(position, move.action)
            except api.IllegalAction as exc:
                if exc.position is None or move.result != exc.code:
                    problems.append(f"move {move.number} does not replay ({exc.code})")
                    break
                position = exc.position
        if rnd.is_over and position != rnd.final_position:
            problems.append("the move log does not replay to the stored final position")
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"round {rnd.pk}: {len(problems)} problem(s)")
        self.stdout.write(f"round {rnd.pk}: seed, deal and {Move.objects.filter(round=rnd).count()} moves verified")
