"""Old matches stay cheap (games.compaction): a finished match older than the setting keeps
its game record and loses its move rows, and its match page, record, replay, replay
frames, export and `verify_round` give the same bytes after as before; recent matches,
rounds still running and a setting of 0 are left alone."""
import io
import re
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import compaction, tasks
from games.models import Match, Move, Round
from leaderboards.recording import solo_total
from tests.games.play.helpers import game_of, online_table, play_out
from tests.games.test_records import solo

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"|csrfToken[^,;]*')


def finished(table, days_ago):
    """Play `table` to its end as the computers would, mark its match recorded and finished
    `days_ago` days ago. Returns the Match."""
    play_out(table)
    match = Match.objects.get(table=table)
    moment = timezone.now() - timedelta(days=days_ago)
    Match.objects.filter(pk=match.pk).update(finished=moment, recorded=match.recorded or moment)
    return Match.objects.get(pk=match.pk)


def everything_shown(client, match):
    """What a player is given of `match`: its pages, record, replay frames of each round,
    the export line and each round's verify_round output (CSRF tokens left out)."""
    table_id = match.table_id
    shown = {}
    for name in ("match", "record", "replay"):
        response = client.get(f"/table/{table_id}/{name}/")
        assert response.status_code == 200, name
        shown[name] = CSRF.sub(b"", response.content)
    for rnd in match.rounds.order_by("index"):
        response = client.get(f"/table/{table_id}/replay/frames/?round={rnd.number}")
        assert response.status_code == 200
        shown[f"frames {rnd.number}"] = response.content
        out = io.StringIO()
        call_command("verify_round", rnd.pk, stdout=out)
        shown[f"verify {rnd.number}"] = out.getvalue()
    day = match.finished.date()
    out = io.StringIO()
    call_command("export_games", "--since", day.isoformat(), "--until", day.isoformat(), "-", stdout=out)
    shown["export"] = out.getvalue()
    return shown


def test_an_old_match_loses_its_move_rows_and_shows_the_same_everywhere(client, alice, bob, settings):
    settings.OKEY_COMPACT_AFTER_DAYS = 90
    old_solo = finished(solo(alice), days_ago=120)
    old_online = finished(online_table(alice, bob, options={"rounds": 3}), days_ago=100)
    client.force_login(alice)
    before = {m.pk: everything_shown(client, m) for m in (old_solo, old_online)}
    solo_before = solo_total(old_solo)
    rows = Move.objects.filter(round__match__in=[old_solo, old_online]).count()
    assert rows > 100 and "verified" in before[old_solo.pk]["verify 1"]

    done = tasks.compact_matches()
    assert done == {"matches": 2, "rounds": Round.objects.filter(match__in=[old_solo, old_online]).count(),
                    "moves": rows}
    assert Move.objects.filter(round__match__in=[old_solo, old_online]).count() == 0
    for match in (old_solo, old_online):
        assert everything_shown(client, match) == before[match.pk]
    assert solo_total(Match.objects.get(pk=old_solo.pk)) == solo_before
    # a second run finds nothing to do
    assert compaction.compact_old_matches() == {"matches": 0, "rounds": 0, "moves": 0}


def test_recent_matches_running_rounds_and_a_setting_of_zero_keep_their_rows(alice, bob, settings):
    settings.OKEY_COMPACT_AFTER_DAYS = 90
    recent = finished(solo(alice), days_ago=30)
    running = online_table(alice, bob, options={"rounds": 3})
    play_out(running, until=lambda game: game.version >= 8)
    rows = Move.objects.count()
    assert compaction.compact_old_matches() == {"matches": 0, "rounds": 0, "moves": 0}
    assert Move.objects.count() == rows

    old = finished(solo(bob), days_ago=91)
    settings.OKEY_COMPACT_AFTER_DAYS = 0
    assert compaction.compact_old_matches()["matches"] == 0
    settings.OKEY_COMPACT_AFTER_DAYS = 90
    assert compaction.compact_old_matches()["matches"] == 1
    assert not Move.objects.filter(round__match=old).exists()
    assert Move.objects.filter(round__match=recent).exists()
    assert Move.objects.filter(round__match__table=running).exists()
    assert game_of(running).round.archived_moves is None
