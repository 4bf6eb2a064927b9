"""`manage.py sweep_deadlines [--startup]`: re-arm overdue game timers once.

For deployments without `celery -B` (e.g. from cron); the embedded mode and
`celery worker -B` already run the sweeper. ARCHITECTURE.md invariant 5.
"""
from django.core.management.base import BaseCommand

from games import services


class Command(BaseCommand):
    help = "Re-arm overdue turn, computer and next-round timers (sends Celery tasks)."

    def add_arguments(self, parser):
        parser.add_argument("--startup", action="store_true", help="re-arm every pending deadline, not only overdue ones")

    def handle(self, *args, **options):
        count = services.sweep(startup=options["startup"])
        self.stdout.write(f"{count} timer(s) re-armed")
