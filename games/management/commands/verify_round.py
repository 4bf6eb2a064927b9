"""`manage.py verify_round <round id>`: check a stored round is honest (for admins).

The same checks as the match page's Verify button and `python3 games/engine/fairdeal.py`,
on the round's game-record entry (`games.records`):

1. the deal (`fairdeal.verify_round`, docs/fair-deals.md §6): sha256(server seed) is the
   commitment published before the deal, the client seeds are canonical (empty for the
   computers), and `okeysite-shuffle-1` deals the stored initial position from them;
2. the move log (`games.replays.replay_check`, the engine's one replay loop): every move
   replays with its stored result ("ok" or the refusal code of a penalty that stays) and
   penalty events, and, once the round is over, to its stored result and final position.

A round dealt before verifiable deals (the legacy algorithm) has no deal to check: the
command says so and still checks its move log. The server seed of a running round is
used but never printed. Exit status 1 when any check fails (ARCHITECTURE.md invariant 4).
"""
from django.core.management.base import BaseCommand, CommandError

from games import records, replays
from games.engine import fairdeal
from games.models import Round


def problems_of(rnd):
    """What is wrong with stored round `rnd` (a Round with its match and table).

    Returns (problems, notes): English sentences; `problems` is empty when the deal and
    the move log check out, `notes` say what could not be checked (a legacy deal)."""
    if rnd.initial_position is None:
        return [], ["committed, not dealt yet: nothing to check"]
    entry = records.stored_round(rnd, reveal=True)
    differences = fairdeal.verify_round(entry, records.header_of(rnd.match))
    notes = [fairdeal.describe(d) for d in differences if d["code"] == "legacy"]
    problems = [fairdeal.describe(d) for d in differences if d["code"] != "legacy"]
    positions, replayed = replays.replay_check(rnd.initial_position, entry["moves"], entry["result"])
    problems += replayed
    if rnd.is_over and not replayed and positions[-1] != rnd.final_position:
        problems.append("the move log does not replay to the stored final position")
    return problems, notes


class Command(BaseCommand):
    help = "Verify a round's deal against its published commitment and seeds, and replay its move log."

    def add_arguments(self, parser):
        parser.add_argument("round_id", type=int)

    def handle(self, *args, **options):
        try:
            rnd = Round.objects.select_related("match__table").get(pk=options["round_id"])
        except Round.DoesNotExist:
            raise CommandError("no such round") from None
        problems, notes = problems_of(rnd)
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"round {rnd.pk}: {len(problems)} problem(s)")
        moves = len(records.stored_moves(rnd))
        if notes:
            self.stdout.write(f"round {rnd.pk}: {'; '.join(notes)}; {moves} moves verified")
        else:
            self.stdout.write(f"round {rnd.pk}: deal ({rnd.algorithm}) and {moves} moves verified")
