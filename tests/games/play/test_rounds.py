"""Match flow (games.play.rounds) through whole matches: team standings (RULES.md §3,
§6) and the match page of a team match."""
import pytest
from django.utils import translation

from games.engine import api
from games.models import Table
from games.play import tables
from games.snapshot import snapshot
from tests.games.play.helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True)


def test_team_standings_rank_by_team_totals():
    teams = Table(ruleset="okey51", options={"doubling": True, "teams": True, "rounds": 1}, players=4)
    alone = Table(ruleset="okey51", options={"doubling": True, "teams": False, "rounds": 1}, players=4)
    totals = [10, 300, 20, -50]  # team 0+2: 30, team 1+3: 250
    rules = api.ruleset("okey51")
    assert rules.standings(teams.options, totals) == [0, 2, 3, 1]
    assert rules.standings(alone.options, totals) == [3, 0, 2, 1]


def test_a_team_match_is_ranked_and_reported_by_team_totals(alice, client):
    table = tables.create_table(alice, "okey51", {"teams": True, "rounds": 1}, mode="solo", bot_level="easy")
    table.seats.filter(index=0).update(autoplay=True)  # the computer plays alice's turns too
    game = play_out(table)
    match = game.match
    match.refresh_from_db()
    teams = [match.totals[0] + match.totals[2], match.totals[1] + match.totals[3]]
    assert match.standings == api.ruleset("okey51").standings(table.options, match.totals)
    best = min((0, 1), key=lambda t: (teams[t], t))
    assert {match.standings[0] % 2, match.standings[1] % 2} == {best}  # the winning team first
    _v, view, _s = snapshot(table.pk, alice)
    assert view["team_totals"] == teams and view["round_end"]["team_totals"] == teams
    client.force_login(alice)
    translation.activate("en")
    page = client.get(f"/table/{table.pk}/match/").content.decode()
    assert "Team totals" in page and f'<td class="num">{teams[best]}</td>' in page
