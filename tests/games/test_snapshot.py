"""games.snapshot, the read side: okey51 teams (RULES.md §3, §6), computer names, the
assisted tables' penalty tiles (RULES.md §6), the lobby list."""
from datetime import timedelta

import pytest
from django.utils import timezone, translation

from games.engine import api
from games.models import Game, Table
from games.play import tables
from games.snapshot import open_tables, snapshot
from tests.games.play.helpers import online_table

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_snapshot_shows_only_the_own_rack(alice, bob):
    table = online_table(alice, bob, options={})
    game = Game.objects.select_related("round").get(table=table)
    version, view, seat = snapshot(table.pk, bob)
    assert (version, seat) == (game.version, 2)
    assert view["rack"] == game.position["seats"][2]["rack"]
    assert "pile" not in view and "seats" not in view and view["seed"] is None
    assert view["players"][0]["name"] == "alice" and view["players"][1]["computer"] == "normal"
    assert view["commitment"] == game.round.commitment


def test_an_unknown_table_is_not_found(alice):
    from games.errors import TableError

    with pytest.raises(TableError) as refused:
        snapshot(987654, alice)
    assert refused.value.code == "not_found"


def test_teams_partners_sit_opposite_and_two_humans_are_partners(alice, bob):
    table = tables.create_table(alice, "okey51", {"teams": True}, mode="online")
    assert table.options["teams"] is True
    assert tables.join_table(bob, table.pk).index == 2  # face to face: alice's partner
    tables.start_match(alice, table.pk)
    _v, view, seat = snapshot(table.pk, bob)
    assert seat == 2
    assert [p["team"] for p in view["players"]] == [0, 1, 0, 1]
    assert view["team_totals"] == [0, 0]


def test_individual_tables_have_no_teams(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo")
    _v, view, _s = snapshot(table.pk, alice)
    assert [p["team"] for p in view["players"]] == [None] * 4 and view["team_totals"] is None


def test_each_computer_has_its_own_seat_numbered_name_in_the_language(alice):
    translation.activate("en")
    table = tables.create_table(alice, "okey51", {}, mode="solo", bot_level="easy")
    _v, view, _s = snapshot(table.pk, alice)
    names = [p["name"] for p in view["players"][1:]]
    assert names == ["Computer 2 · easy", "Computer 3 · easy", "Computer 4 · easy"]
    _v, french, _s = snapshot(table.pk, alice, "fr")
    assert len({p["name"] for p in french["players"][1:]}) == 3
    assert french["players"][1]["name"] != names[0] and "2" in french["players"][1]["name"]
    assert translation.get_language() == "en"  # the override did not leak


def test_assisted_tables_mark_only_the_viewers_own_penalty_tiles(alice, bob, carol):
    table = online_table(alice, bob, options={}, assisted=True)
    position = Game.objects.get(table=table).position
    _v, mine, _s = snapshot(table.pk, alice)
    assert mine["penalty_tiles"] == api.penalty_tiles(position, 0)
    _v, his, _s = snapshot(table.pk, bob)
    assert his["penalty_tiles"] == api.penalty_tiles(position, 2)
    _v, spectator, _s = snapshot(table.pk, carol)
    assert "penalty_tiles" not in spectator


def test_penalty_tiles_are_listed_when_the_rack_has_some(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo", assisted=True)
    position = {
        "ruleset": "okey51", "options": table.options, "indicator": "R5", "turn": 0, "phase": "play",
        "pile": ["K3", "B9"], "discards": [[], [], [], []],
        "seats": [{"rack": ["B4", "K2"], "opened": "melds", "penalty": 0},
                  {"rack": ["K1"], "opened": "melds", "penalty": 0},
                  {"rack": ["Y3"], "opened": "no", "penalty": 0}, {"rack": ["Y4"], "opened": "no", "penalty": 0}],
        "table": [{"id": 1, "owner": 1, "tiles": ["B5", "B6", "B7"]}], "highest_opening": None,
    }
    Game.objects.filter(table=table).update(position=position)
    _v, view, _s = snapshot(table.pk, alice)
    assert view["penalty_tiles"] == ["B4"]


def test_tables_that_are_not_assisted_mark_nothing(alice):
    table = tables.create_table(alice, "okey51", {}, mode="solo", assisted=False)
    _v, view, _s = snapshot(table.pk, alice)
    assert "penalty_tiles" not in view


def test_the_lobby_lists_the_newest_open_table_first(make_user):
    created = [tables.create_table(make_user(f"host{i}"), "okey51", {}, mode="online").pk for i in range(6)]
    Table.objects.filter(pk=created[2]).update(created=timezone.now() + timedelta(minutes=1))
    assert [t["id"] for t in open_tables()] == [created[2]] + [pk for pk in reversed(created) if pk != created[2]]


def test_the_lobby_lists_open_online_tables_with_their_seats_taken(alice, bob, carol):
    tables.create_table(carol, "okey51", {}, mode="solo")  # playing already: not listed
    table = tables.create_table(alice, "rami", {}, mode="online", move_time=60)
    tables.join_table(bob, table.pk)
    assert open_tables() == [{
        "id": table.pk, "ruleset": "rami", "ruleset_name": "Rami", "options": table.options, "creator": "alice",
        "creator_avatar": f"/faces/{alice.pk}/", "move_time": 60, "assisted": False, "seats_taken": 2, "players": 4,
        "status": "open", "spectators": 0, "quick": False,
    }]
