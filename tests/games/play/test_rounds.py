"""Match flow (games.play.rounds) through whole matches: team standings (RULES.md §3,
§6), the match page of a team match, and a round committed before its deal and dealt
from its seeds (docs/fair-deals.md §1, §3)."""
import pytest
from django.utils import translation

from games.engine import api, fairdeal
from games.models import Game, Round, Table
from games.play import rounds, tables
from games.snapshot import snapshot
from tests.deals import stored_deal_seed
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


def test_a_round_is_committed_before_it_is_dealt_and_dealt_from_its_seeds(alice, bob):
    table = tables.create_table(alice, "okey51", {"rounds": 3}, mode="online")
    tables.join_table(bob, table.pk, seat_index=2)
    tables.start_match(alice, table.pk)
    game = Game.objects.select_related("match", "round").get(table=table)
    committed = rounds.open_round(table, game.match, 1)
    assert committed.initial_position is None and committed.first == 1
    assert committed.commitment == fairdeal.commitment(committed.server_seed)
    assert rounds.open_round(table, game.match, 1) == committed  # one commitment per round
    with pytest.raises(ValueError):  # a seed the normalisation refuses: nothing is dealt
        rounds.deal_round(game, table, game.match, 1, {0: "tab\there"})
    assert Round.objects.get(pk=committed.pk).initial_position is None
    position = rounds.deal_round(game, table, game.match, 1, {0: "  Zoe ", 1: "computers send none", 2: "b"})
    dealt = Round.objects.get(pk=committed.pk)
    assert dealt.client_seeds == ["Zoe", "", "b", ""] and game.round == dealt  # canonical; computers ""
    seed = stored_deal_seed(dealt, table)
    assert position == dealt.initial_position == api.deal("okey51", table.options, seed, 4, 1)
    with pytest.raises(ValueError, match="already dealt"):
        rounds.deal_round(game, table, game.match, 1)
    with pytest.raises(ValueError, match="seat"):
        rounds.client_seeds_for(table, {4: "x"})
