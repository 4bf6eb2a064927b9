"""`manage.py recompute_ratings [ruleset ...]`: rebuild ratings from the stored matches."""
from django.core.management.base import BaseCommand

from games.models import RULESET_CHOICES
from leaderboards.recording import recompute


class Command(BaseCommand):
    help = "Rebuild the ratings of the given rulesets (default: all) from the stored, not voided matches."

    def add_arguments(self, parser):
        parser.add_argument("rulesets", nargs="*", choices=[code for code, _label in RULESET_CHOICES])

    def handle(self, *args, rulesets=(), **options):
        for ruleset in rulesets or [code for code, _label in RULESET_CHOICES]:
            self.stdout.write(f"{ruleset}: {recompute(ruleset)} rated matches")
