"""The admin answers no question about hidden state: a filter in the change list's query
string on the server seed, the deal or a position (`secret_fields` of the game admins)
is refused the same way whether the guess is right or wrong, so a staff member cannot
read a running round's seed or another seat's rack one character at a time, around the
logged reveal."""
import json
import re

import pytest
from django.contrib import admin
from django.test import Client

from games.admin_reveal import HidesRunningState
from games.models import Game, Match, Move, Round, Table
from tests.games.play.helpers import game_of, online_table

pytestmark = pytest.mark.django_db(transaction=True)

SUFFIXES = ("", "__startswith", "__icontains", "__regex", "__gt")


def staff_client(staff):
    client = Client()
    client.force_login(staff)
    return client


def as_text(value):
    """The hidden value as the database compares it in a text lookup."""
    return value if isinstance(value, str) else json.dumps(value)


def guesses(suffix, text):
    """(a guess that matches `text`, one that does not) for the lookup `suffix`."""
    middle = text[len(text) // 3:len(text) // 3 + 6]
    return {
        "": (text, text + "x"),
        "__startswith": (text[:4], "~" + text[:3]),
        "__icontains": (middle, middle + "~~~"),
        "__regex": ("^" + re.escape(text[:3]), "^~" + re.escape(text[:3])),
        "__gt": ("", "~~~~"),
    }[suffix]


def hidden_values(game):
    """{(admin list URL, row id, lookup path): the hidden text it reaches} for a running game."""
    rnd = Round.objects.get(pk=game.round_id)
    rack = json.dumps(game.position["seats"][1]["rack"][:3])[1:-1]  # another seat's tiles
    values = {
        ("/admin/games/round/", rnd.pk, "server_seed"): rnd.server_seed,
        ("/admin/games/round/", rnd.pk, "initial_position"): as_text(rnd.initial_position),
        ("/admin/games/game/", game.pk, "position"): rack,
        # through a relation, from the other game admins
        ("/admin/games/game/", game.pk, "round__server_seed"): rnd.server_seed,
        ("/admin/games/match/", game.match_id, "rounds__server_seed"): rnd.server_seed,
        ("/admin/games/table/", game.table_id, "game__position"): rack,
        ("/admin/games/table/", game.table_id, "match__rounds__initial_position"): as_text(rnd.initial_position),
    }
    move = Move.objects.filter(round=rnd).first()
    if move is not None:
        values[("/admin/games/move/", move.pk, "round__server_seed")] = rnd.server_seed
    return values


def test_filters_on_hidden_fields_are_refused_whether_the_guess_is_right_or_not(alice, bob, staff):
    table = online_table(alice, bob)
    game = game_of(table)
    client = staff_client(staff)
    tried = 0
    for (url, pk, path), text in hidden_values(game).items():
        for suffix in SUFFIXES:
            right, wrong = guesses(suffix, text)
            answers = []
            for guess in (right, wrong):
                response = client.get(url, {"id": pk, path + suffix: guess})
                answers.append((response.status_code, response.content))
                tried += 1
            assert answers[0] == answers[1], (url, path + suffix)  # nothing tells the guesses apart
            status, body = answers[0]
            assert status == 400, (url, path + suffix, status)
            assert f"/{pk}/change/".encode() not in body
    assert tried == 2 * len(SUFFIXES) * len(hidden_values(game))


def test_a_plain_filter_still_lists_the_rows(alice, bob, staff):
    table = online_table(alice, bob)
    game = game_of(table)
    client = staff_client(staff)
    page = client.get("/admin/games/round/", {"id": game.round_id, "index": 0})
    assert page.status_code == 200 and f"/{game.round_id}/change/" in page.content.decode()
    page = client.get("/admin/games/table/", {"status": Table.Status.PLAYING})
    assert page.status_code == 200 and f"/{table.pk}/change/" in page.content.decode()


def test_no_list_filter_search_or_sort_of_a_game_admin_reaches_a_hidden_field():
    from games.admin_reveal import hidden_fields

    hidden = hidden_fields()
    assert hidden[Round] >= {"server_seed", "initial_position", "final_position"}
    assert hidden[Game] >= {"position"}
    for model in (Table, Match, Round, Game, Move):
        model_admin = admin.site._registry[model]
        named = [f for f in (*model_admin.list_filter, *model_admin.search_fields, *model_admin.list_display,
                             *(model_admin.ordering or ()), model_admin.date_hierarchy) if isinstance(f, str)]
        for name in named:
            assert name.lstrip("-^=@").split("__")[0] not in hidden.get(model, ()), (model, name)
    assert all(isinstance(admin.site._registry[m], HidesRunningState) for m in (Round, Game))
