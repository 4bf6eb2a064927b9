"""`manage.py export_games --since DATE --until DATE [--ruleset R] FILE`: every match that
finished in a period, as game records (docs/game-record.md), one per line (JSON Lines),
like lichess's monthly database exports.

`--since` and `--until` are dates (`2025-03-01`, UTC days, both included) or ISO 8601
times (`2025-03-14T19:00:00Z`, an instant: from `--since` included to `--until`
excluded). Matches come oldest finish first. `FILE` `-` writes to stdout. Each line
verifies with `python3 games/engine/fairdeal.py FILE`.
"""
import json
from datetime import date, datetime, time, timedelta, timezone as dt_timezone

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from games.engine.api import RULESETS
from games.models import Match
from games.records import match_records

BATCH = 200  # matches read together: four queries per batch (`records.match_records`)


def parse_moment(text, end=False):
    """A `--since`/`--until` value as an aware UTC datetime: a date is the start of that
    day, or with `end` the start of the next day (so the day is included); an ISO time
    without a zone is UTC. Raises ValueError for anything else."""
    try:
        day = date.fromisoformat(text)
    except ValueError:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return moment if moment.tzinfo else moment.replace(tzinfo=dt_timezone.utc)
    return datetime.combine(day + timedelta(days=1 if end else 0), time(), tzinfo=dt_timezone.utc)


def finished_matches(since, until, ruleset=None):
    """Matches finished in [since, until), oldest finish first, with their tables."""
    matches = Match.objects.filter(finished__gte=since, finished__lt=until).select_related("table")
    if ruleset:
        matches = matches.filter(table__ruleset=ruleset)
    return matches.order_by("finished", "pk")


def batches(matches, size=None):
    """Lists of at most `size` (default `BATCH`) matches of the ordered queryset `matches`
    (oldest finish first), each read by keyset on (finished, pk): one query per batch, and
    a long period never holds every match in memory nor pays a growing OFFSET."""
    size = size or BATCH
    last = None
    while True:
        page = matches
        if last is not None:
            page = page.filter(Q(finished__gt=last.finished) | Q(finished=last.finished, pk__gt=last.pk))
        page = list(page[:size])
        if not page:
            return
        yield page
        last = page[-1]


class Command(BaseCommand):
    help = "Write the game records of the matches finished in a period, one JSON record per line."

    def add_arguments(self, parser):
        parser.add_argument("--since", required=True, help="first day (YYYY-MM-DD) or instant (ISO 8601), UTC")
        parser.add_argument("--until", required=True, help="last day (YYYY-MM-DD, included) or instant (excluded)")
        parser.add_argument("--ruleset", choices=list(RULESETS), help="only this game")
        parser.add_argument("file", help="the JSON Lines file to write, or - for stdout")

    def handle(self, *args, **options):
        try:
            since = parse_moment(options["since"])
            until = parse_moment(options["until"], end=True)
        except ValueError:
            raise CommandError("--since and --until are dates (2025-03-01) or ISO 8601 times") from None
        if until <= since:
            raise CommandError("--until is before --since: the period is empty")
        matches = finished_matches(since, until, options["ruleset"])
        path = options["file"]
        try:
            out = self.stdout if path == "-" else open(path, "w", encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc}") from None
        count = 0
        try:
            for batch in batches(matches):
                for _match, record in match_records(batch):
                    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
                    if out is self.stdout:
                        out.write(line)
                    else:
                        out.write(line + "\n")
                    count += 1
        finally:
            if out is not self.stdout:
                out.close()
        self.stderr.write(f"{count} match(es) finished from {since:%Y-%m-%d %H:%M} to {until:%Y-%m-%d %H:%M} UTC")
