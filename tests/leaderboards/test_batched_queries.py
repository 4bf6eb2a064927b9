"""`recompute_ratings` and `export_games` read and write matches in batches: their
queries grow with the batches, not with the matches, and what they produce is what the
match-by-match path produces (the ratings recorded one by one, each match's own record)."""
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import records
from games.management.commands import export_games
from games.models import LEGACY_SHUFFLE, Match, Move, Round
from leaderboards import record_result, recording
from leaderboards.models import Rating, RatingChange
from tests.leaderboards.helpers import BASE_TIME, finished_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def dave(make_user):
    return make_user("dave")


def state():
    return {(r.user.username, r.ruleset): (round(r.mu, 9), round(r.sigma, 9), r.matches, r.wins)
            for r in Rating.objects.select_related("user")}


def played(players, count, first_minute=0):
    """`count` finished online okey51 matches among `players`, each with one finished
    round of three moves, ending a minute apart."""
    out = []
    for k in range(count):
        seats = players[k % len(players):] + players[:k % len(players)]
        match = finished_match(seats, [10 + k, 20, 30 + 2 * k, 40 - k], minutes=first_minute + k)
        rnd = Round.objects.create(match=match, index=0, server_seed="s" * 64, commitment="c" * 64,
                                   algorithm=LEGACY_SHUFFLE, scores=match.totals, penalties=[0, 0, 0, 0],
                                   totals=match.totals, finished=match.finished)
        for number in (1, 2, 3):
            Move.objects.create(round=rnd, number=number, seat=number - 1, action={"type": "draw"},
                                version=number, events=[], draw_no=number)
        out.append(match)
    return out


def recompute_queries(batch=None):
    with CaptureQueriesContext(connection) as ctx:
        recording.recompute("okey51", batch=batch)
    return len(ctx.captured_queries)


def test_the_recompute_gives_the_ratings_recorded_one_by_one_in_batches_of_any_size(alice, bob, carol, dave):
    for match in played([alice, bob, carol, dave], 7):
        record_result(match)
    incremental = state()
    changes = sorted(RatingChange.objects.values_list("match_id", "user_id", "place", "mu_after"))
    for batch in (1, 3, 500):
        assert recording.recompute("okey51", batch=batch) == 7
        assert state() == incremental
        assert sorted(RatingChange.objects.values_list("match_id", "user_id", "place", "mu_after")) == changes


def test_the_recompute_costs_the_same_queries_for_three_matches_or_twelve_in_one_batch(alice, bob, carol, dave):
    players = [alice, bob, carol, dave]
    played(players, 3)
    few = recompute_queries()
    played(players, 9, first_minute=10)
    assert recompute_queries() == few
    # and one batch more costs a constant few: the batch's read, seats, guests, arenas, changes
    per_batch = recompute_queries(batch=4) - recompute_queries(batch=6)  # 3 batches against 2
    assert 0 < per_batch <= 6
    assert recompute_queries(batch=2) - recompute_queries(batch=4) == 3 * per_batch  # 6 batches against 3


def test_the_recompute_command_with_no_argument_rebuilds_every_ruleset(alice, bob, carol):
    from io import StringIO

    record_result(finished_match([alice, bob, None, None], [10, 20, 30, 40]))
    record_result(finished_match([bob, carol, None, None], [10, 20, 30, 40], ruleset="rami", minutes=1))
    before = state()
    Rating.objects.update(mu=1.0, sigma=1.0, matches=0)
    out = StringIO()
    call_command("recompute_ratings", stdout=out)
    assert out.getvalue().splitlines() == ["okey51: 1 rated matches", "okey17: 0 rated matches",
                                           "rami: 1 rated matches"]
    assert state() == before


def export(tmp_path, name="week.jsonl"):
    path = tmp_path / name
    day = BASE_TIME.date()
    with CaptureQueriesContext(connection) as ctx:
        call_command("export_games", "--since", (day - timedelta(days=1)).isoformat(),
                     "--until", (day + timedelta(days=1)).isoformat(), str(path))
    return [json.loads(line) for line in path.read_text().splitlines()], len(ctx.captured_queries)


def test_the_export_writes_each_match_own_record_at_a_constant_cost_per_batch(alice, bob, carol, dave,
                                                                            tmp_path, monkeypatch):
    players = [alice, bob, carol, dave]
    played(players, 3)
    lines, few = export(tmp_path)
    assert len(lines) == 3
    played(players, 9, first_minute=10)
    lines, many = export(tmp_path)
    assert many == few  # twelve matches in one batch cost what three did
    expected = [records.match_record(m) for m in Match.objects.select_related("table").order_by("finished", "pk")]
    assert lines == json.loads(json.dumps(expected))
    assert [len(line["rounds"][0]["moves"]) for line in lines] == [3] * 12
    monkeypatch.setattr(export_games, "BATCH", 4)
    lines, three_batches = export(tmp_path)
    monkeypatch.setattr(export_games, "BATCH", 2)
    again, six_batches = export(tmp_path)
    assert lines == again == json.loads(json.dumps(expected))
    per_batch = six_batches - three_batches
    assert 0 < per_batch <= 3 * 5  # each batch: its matches, seats, rounds, moves
    assert per_batch % 3 == 0
