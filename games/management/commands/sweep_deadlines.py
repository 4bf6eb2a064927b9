"""`manage.py sweep_deadlines [--startup]`: re-arm overdue game timers and record finished
matches not yet recorded, once.

For deployments without `celery -B` (e.g. from cron); the embedded mode and
`celery worker -B` already run the sweeper. ARCHITECTURE.md invariant 5.
"""
from django.core.management.base import BaseCommand

from games.play.turns import sweep


class Command(BaseCommand):
    help = "Re-arm overdue turn, computer and next-round timers (sends Celery tasks); record finished matches."

    def add_arguments(self, parser):
        parser.add_argument("--startup", action="store_true",
                            help="re-arm every pending deadline, not only overdue ones")

    def handle(self, *args, **options):
        done = sweep(startup=options["startup"])
        self.stdout.write(f"{done['timers']} timer(s) re-armed, {done['recorded']} match(es) recorded")
