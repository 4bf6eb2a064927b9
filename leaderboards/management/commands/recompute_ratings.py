"""`manage.py recompute_ratings [ruleset ...]`: rebuild ratings from the stored matches."""
from django.core.management.base import BaseCommand, CommandError

from games.models import RULESET_CHOICES
from leaderboards.recording import recompute

RULESETS = [code for code, _label in RULESET_CHOICES]


class Command(BaseCommand):
    help = "Rebuild the ratings of the given rulesets (default: all) from the stored, not voided matches."

    def add_arguments(self, parser):
        # no argparse `choices` here: with nargs="*" Python 3.11 checks the empty default
        # against them and refuses the command with no argument at all
        parser.add_argument("rulesets", nargs="*", metavar="ruleset", help=f"one of {', '.join(RULESETS)}")

    def handle(self, *args, rulesets=(), **options):
        unknown = [r for r in rulesets if r not in RULESETS]
        if unknown:
            raise CommandError(f"unknown ruleset {', '.join(unknown)}: choose from {', '.join(RULESETS)}")
        for ruleset in rulesets or RULESETS:
            self.stdout.write(f"{ruleset}: {recompute(ruleset)} rated matches")
