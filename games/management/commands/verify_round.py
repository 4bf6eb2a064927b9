"""`manage.py verify_round <round id>`: check a round is honest (for admins).

1. sha256(seed) equals the commitment published before the deal;
2. the ruleset's `deal` with that seed gives the stored initial position;
3. replaying the stored move log with `engine.api.replay` gives, move by move, the stored
   result ("ok" or the refusal code of a penalty that stays) and penalty events, and in
   the end the stored final position (once the round is over).
Exit status 1 when any check fails (ARCHITECTURE.md invariant 4, verifiable deals).
"""
from django.core.management.base import BaseCommand, CommandError

from games.engine import api
from games.models import Move, Round, seed_commitment


def problems_of(rnd):
    """What is wrong with stored round `rnd` (a Round with its match and table): a list of
    sentences, empty when the seed, the deal and the move log all check out."""
    table = rnd.match.table
    problems = []
    if seed_commitment(rnd.seed) != rnd.commitment:
        problems.append("the seed does not match the commitment")
    initial = api.ruleset(table.ruleset).deal(table.options, rnd.seed, table.players, rnd.first)
    if initial != rnd.initial_position:
        problems.append("the seed does not deal the stored initial position")
    moves = list(Move.objects.filter(round=rnd).order_by("number"))
    replayed = api.replay(initial, [move.action for move in moves])
    for move, step in zip(moves, replayed.steps):
        result = "ok" if step.accepted else step.code
        if result != move.result or not step.changed:
            problems.append(f"move {move.number} does not replay ({result}, stored {move.result})")
            return problems
        if move.events is not None and step.events() != move.events:  # None: logged before moves kept events
            problems.append(f"move {move.number} does not cause its stored penalties")
    if rnd.is_over and replayed.position != rnd.final_position:
        problems.append("the move log does not replay to the stored final position")
    return problems


class Command(BaseCommand):
    help = "Verify a round's deal against its published commitment and replay its move log."

    def add_arguments(self, parser):
        parser.add_argument("round_id", type=int)

    def handle(self, *args, **options):
        try:
            rnd = Round.objects.select_related("match__table").get(pk=options["round_id"])
        except Round.DoesNotExist:
            raise CommandError("no such round") from None
        problems = problems_of(rnd)
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"round {rnd.pk}: {len(problems)} problem(s)")
        self.stdout.write(f"round {rnd.pk}: seed, deal and {Move.objects.filter(round=rnd).count()} moves verified")
