"""QA fixes on the service side: okey51 teams (RULES.md §3, §6), computer names, assisted
tables' penalty tiles (RULES.md §6)."""
import pytest
from django.utils import translation

from games import services
from games.engine import api
from games.models import Game, Table

pytestmark = pytest.mark.django_db(transaction=True)


def test_teams_partners_sit_opposite_and_two_humans_are_partners(alice, bob):
    table = services.create_table(alice, "okey51", {"teams": True}, mode="online")
    assert table.options["teams"] is True
    assert services.join_table(bob, table.pk).index == 2  # face to face: alice's partner
    services.start_match(alice, table.pk)
    _v, view, seat = services.snapshot(table.pk, bob)
    assert seat == 2
    assert [p["team"] for p in view["players"]] == [0, 1, 0, 1]
    assert view["team_totals"] == [0, 0]


def test_individual_tables_have_no_teams(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo")
    _v, view, _s = services.snapshot(table.pk, alice)
    assert [p["team"] for p in view["players"]] == [None] * 4 and view["team_totals"] is None


def test_team_standings_rank_by_team_totals():
    teams = Table(ruleset="okey51", options={"doubling": True, "teams": True, "rounds": 1}, players=4)
    alone = Table(ruleset="okey51", options={"doubling": True, "teams": False, "rounds": 1}, players=4)
    totals = [10, 300, 20, -50]  # team 0+2: 30, team 1+3: 250
    assert services.match_standings(teams, totals) == [0, 2, 3, 1]
    assert services.match_standings(alone, totals) == [3, 0, 2, 1]


def test_each_computer_has_its_own_seat_numbered_name_in_the_language(alice):
    translation.activate("en")
    table = services.create_table(alice, "okey51", {}, mode="solo", bot_level="easy")
    _v, view, _s = services.snapshot(table.pk, alice)
    names = [p["name"] for p in view["players"][1:]]
    assert names == ["Computer 2 · easy", "Computer 3 · easy", "Computer 4 · easy"]
    _v, french, _s = services.snapshot(table.pk, alice, "fr")
    assert len({p["name"] for p in french["players"][1:]}) == 3
    assert french["players"][1]["name"] != names[0] and "2" in french["players"][1]["name"]
    assert translation.get_language() == "en"  # the override did not leak


def test_assisted_tables_mark_only_the_viewers_own_penalty_tiles(alice, bob, carol):
    table = services.create_table(alice, "okey51", {}, mode="online", assisted=True)
    services.join_table(bob, table.pk)
    services.start_match(alice, table.pk)
    position = Game.objects.get(table=table).position
    _v, mine, _s = services.snapshot(table.pk, alice)
    assert mine["penalty_tiles"] == api.penalty_tiles(position, 0)
    _v, his, _s = services.snapshot(table.pk, bob)
    assert his["penalty_tiles"] == api.penalty_tiles(position, 2)
    _v, spectator, _s = services.snapshot(table.pk, carol)
    assert "penalty_tiles" not in spectator


def test_penalty_tiles_are_listed_when_the_rack_has_some(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo", assisted=True)
    position = {
        "ruleset": "okey51", "options": table.options, "indicator": "R5", "turn": 0, "phase": "play",
        "pile": ["K3", "B9"], "discards": [[], [], [], []],
        "seats": [{"rack": ["B4", "K2"], "opened": "melds", "penalty": 0}, {"rack": ["K1"], "opened": "melds", "penalty": 0},
                  {"rack": ["Y3"], "opened": "no", "penalty": 0}, {"rack": ["Y4"], "opened": "no", "penalty": 0}],
        "table": [{"id": 1, "owner": 1, "tiles": ["B5", "B6", "B7"]}], "highest_opening": None,
    }
    Game.objects.filter(table=table).update(position=position)
    _v, view, _s = services.snapshot(table.pk, alice)
    assert view["penalty_tiles"] == ["B4"]


def test_tables_that_are_not_assisted_mark_nothing(alice):
    table = services.create_table(alice, "okey51", {}, mode="solo", assisted=False)
    _v, view, _s = services.snapshot(table.pk, alice)
    assert "penalty_tiles" not in view


def test_a_team_match_is_ranked_and_reported_by_team_totals(alice, client):
    from tests.games.test_services import play_out

    table = services.create_table(alice, "okey51", {"teams": True, "rounds": 1}, mode="solo", bot_level="easy")
    table.seats.filter(index=0).update(autoplay=True)  # the computer plays alice's turns too
    game = play_out(table)
    match = game.match
    match.refresh_from_db()
    teams = [match.totals[0] + match.totals[2], match.totals[1] + match.totals[3]]
    assert match.standings == services.match_standings(table, match.totals)
    best = min((0, 1), key=lambda t: (teams[t], t))
    assert {match.standings[0] % 2, match.standings[1] % 2} == {best}  # the winning team first
    _v, view, _s = services.snapshot(table.pk, alice)
    assert view["team_totals"] == teams and view["round_end"]["team_totals"] == teams
    client.force_login(alice)
    translation.activate("en")
    page = client.get(f"/table/{table.pk}/match/").content.decode()
    assert "Team totals" in page and f'<td class="num">{teams[best]}</td>' in page


def test_scheduled_timers_go_to_the_real_broker_in_this_runs_queue(alice, settings):
    from okeysite.celery import app
    from tests.conftest import TEST_QUEUE

    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("REDIS_URL is not set: the embedded memory broker is the configuration")
    with app.connection_for_write() as conn:
        before = conn.default_channel.client.llen(TEST_QUEUE)
        services.create_table(alice, "okey51", {}, mode="solo")  # arms alice's move timer on commit
        assert conn.default_channel.client.llen(TEST_QUEUE) == before + 1
