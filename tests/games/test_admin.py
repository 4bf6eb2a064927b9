"""The Django admin cannot edit game state by hand: a staff member's POST to a change
form leaves version, deadline, turn, position, statuses and seats as they were."""
import json
from datetime import timedelta

import pytest
from django.db import models
from django.test import Client
from django.utils import timezone

from games.models import Match, Move, Round, Seat, Table
from games.play import turns
from tests.games.play.helpers import game_of, online_table

pytestmark = pytest.mark.django_db(transaction=True)


def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def snapshot_rows(table):
    """Everything about `table`'s game that play changes, read now."""
    game = game_of(table)
    return {
        "game": (game.version, game.deadline, game.deadline_kind, game.turn, game.position),
        "table": Table.objects.filter(pk=table.pk).values().get(),
        "match": Match.objects.filter(table=table).values().get(),
        "rounds": list(Round.objects.filter(match__table=table).values()),
        "seats": list(Seat.objects.filter(table=table).order_by("index").values()),
        "moves": list(Move.objects.filter(round__match__table=table).values()),
    }


def form_data(obj, prefix="", **forged):
    """A complete change-form POST for `obj`, as a browser would send it if every model
    field were editable: each field's current value, then the `forged` ones."""
    data = {}
    for f in obj._meta.concrete_fields:
        if f.primary_key or not f.editable:
            continue
        value = forged.get(f.name, getattr(obj, f.attname))
        name = prefix + f.name
        if isinstance(f, models.DateTimeField):
            if value is not None:
                data[name + "_0"], data[name + "_1"] = value.strftime("%Y-%m-%d"), value.strftime("%H:%M:%S")
        elif isinstance(f, models.JSONField):
            data[name] = json.dumps(value)
        elif isinstance(f, models.BooleanField):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else str(value)
    return data


def test_a_staff_post_to_the_change_forms_changes_no_game_state(alice, bob, staff):
    table = online_table(alice, bob)
    game = game_of(table)
    tile = game.position["seats"][0]["rack"][0]
    assert turns.submit_action(alice, table.pk, {"type": "discard", "tile": tile}, game.version).ok
    game = game_of(table)
    before = snapshot_rows(table)
    client = staff_client(staff)
    later = timezone.now() + timedelta(hours=5)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    seat_forms = {"seats-TOTAL_FORMS": "4", "seats-INITIAL_FORMS": "4", "seats-MIN_NUM_FORMS": "0",
                  "seats-MAX_NUM_FORMS": "1000"}
    for i, seat in enumerate(seats):
        seat_forms.update(form_data(seat, f"seats-{i}-", autoplay=True, bot_level="strong", connections=9))
        seat_forms[f"seats-{i}-id"] = str(seat.pk)
    move = Move.objects.filter(round=game.round).first()
    forged = {
        f"/admin/games/game/{game.pk}/change/": form_data(
            game, version=999, turn=3, deadline=later, deadline_kind="", position={"ruleset": "okey51"}),
        f"/admin/games/table/{table.pk}/change/": {
            **form_data(table, status="finished", options={}, move_time=600, players=2), **seat_forms},
        f"/admin/games/round/{game.round_id}/change/": form_data(
            game.round, scores=[0, 0, 0, 0], totals=[0, 0, 0, 0], initial_position={}, server_seed="0" * 64),
        f"/admin/games/match/{game.match_id}/change/": form_data(game.match, totals=[-999, 0, 0, 0], finished=later),
        f"/admin/games/move/{move.pk}/change/": form_data(move, action={"type": "draw", "seat": 0}, result="x"),
    }
    for url, data in forged.items():
        assert client.get(url).status_code == 200, url  # staff may look
        response = client.post(url, data)
        assert response.status_code in (302, 403), (url, response.status_code)  # saved as it was, or refused
    assert snapshot_rows(table) == before


def test_game_rows_are_not_added_by_hand(staff):
    client = staff_client(staff)
    for model in ("game", "table", "round", "move", "match"):
        assert client.get(f"/admin/games/{model}/add/").status_code == 403


def test_the_admin_lists_show_the_games(alice, bob, staff):
    table = online_table(alice, bob)
    client = staff_client(staff)
    assert f"game of table {table.pk}" in client.get("/admin/games/game/").content.decode()
    assert client.get(f"/admin/games/table/{table.pk}/change/").status_code == 200
