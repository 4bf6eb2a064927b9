"""`manage.py sweep_deadlines [--startup]`: send the game timers due soon and again the
overdue ones, and record finished matches not yet recorded, once.

For a deployment without `celery beat`; the embedded mode and beat already run the
sweeper. The sweep is the scheduler of every timer not due soon at its commit (a human's
move time, ARCHITECTURE.md invariant 5): whatever runs it must do so at least every
OKEY_SWEEP_INTERVAL seconds, or those timers fire late.
"""
from django.core.management.base import BaseCommand

from games.play.turns import sweep


class Command(BaseCommand):
    help = "Send the timers due soon and again the overdue ones (Celery tasks); record finished matches."

    def add_arguments(self, parser):
        parser.add_argument("--startup", action="store_true",
                            help="send again every timer due soon, not only the overdue ones")

    def handle(self, *args, **options):
        done = sweep(startup=options["startup"])
        self.stdout.write(f"{done['timers']} timer(s) re-armed, {done['recorded']} match(es) recorded")
