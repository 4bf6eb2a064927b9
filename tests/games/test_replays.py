"""Replays of finished rounds (games/replays.py, the replay page and its JSON): every
position comes from the engine's replay of the stored move log, every rack is shown, the
page's address names a round and a move, and a record file posted to the replay page is
checked and replayed the same way (a malformed one gets a clear error)."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games import records
from games.engine import api, fairdeal
from games.models import Match, Move, Round
from games.rules.tiles import tile_words
from tests.games.play.helpers import play_out
from tests.games.test_records import solo

pytestmark = pytest.mark.django_db(transaction=True)


def config_of(page):
    return json.loads(page.split('<script id="replay-config" type="application/json">')[1].split("</script>")[0])


def test_the_frames_of_a_round_are_the_engines_replay_of_its_moves(alice):
    table = solo(alice, options={"rounds": 3})
    play_out(table, until=lambda g: g.round.index == 1)
    rnd = Round.objects.get(match__table=table, index=0)
    client = Client()
    response = client.get(f"/table/{table.pk}/replay/frames/?round=1")
    assert response.status_code == 200
    data = response.json()
    assert data["ruleset"] == "okey51"
    assert data["players"][0] == {"name": "alice", "computer": None}
    assert data["players"][1] == {"name": "Computer 2 · easy", "computer": "easy"}
    replay = data["round"]
    moves = list(Move.objects.filter(round=rnd).order_by("number"))
    assert len(replay["frames"]) == len(moves) + 1 and len(replay["moves"]) == len(moves)
    replayed = api.replay_all(rnd.initial_position, [m.action for m in moves])
    positions = [rnd.initial_position] + [s.position for s in replayed.steps]
    for frame, position in zip(replay["frames"], positions):
        assert frame["racks"] == [s["rack"] for s in position["seats"]]  # every rack, at every move
        assert frame["pile_count"] == len(position["pile"]) and frame["table"] == position["table"]
        assert frame["discards"] == position["discards"] and frame["turn"] == position["turn"]
        assert "pile" not in frame
    assert replay["frames"][-1]["result"] == rnd.result
    assert replay["frames"][0]["indicator"] == rnd.initial_position["indicator"]
    draws = [(k, m) for k, m in enumerate(moves) if m.action["type"] == "draw"]
    k, draw = draws[0]
    drawn = positions[k]["pile"][0]
    # named in words as every other line is, never by its code; the code stays for the page
    assert replay["moves"][k]["text"] == f"{data['players'][draw.seat]['name']} drew {tile_words(drawn)}"
    assert replay["moves"][k]["drawn"] == drawn
    assert {line["actor"] for line in replay["moves"]} <= {"computer", "computer (time out)"}

    for bad in ("?round=2", "?round=9", "?round=x", "?round=0"):  # round 2 is being played
        assert client.get(f"/table/{table.pk}/replay/frames/{bad}").status_code == 404, bad
    page = client.get(f"/table/{table.pk}/replay/?round=1&move=17").content.decode()
    config = config_of(page)
    assert config["rounds"] == [1] and config["running"] == [2] and config["mode"] == "match"
    assert config["frames_url"] == f"/table/{table.pk}/replay/frames/"
    assert 'id="move-slider"' in page and 'src="/static/js/replay.js"' in page


def test_a_posted_record_is_replayed_and_its_deals_checked(alice):
    table = solo(alice)
    play_out(table)
    record = records.match_record(Match.objects.get(table=table))
    client = Client()
    assert client.get("/replay/").status_code == 200
    form = client.get("/replay/").content.decode()
    assert 'name="record"' in form and 'enctype="multipart/form-data"' in form
    upload = SimpleUploadedFile("game.json", json.dumps(record).encode(), content_type="application/json")
    response = client.post("/replay/", {"record": upload})
    assert response.status_code == 200
    data = response.json()
    (replay,) = data["rounds"]
    assert replay["verification"] == [] and replay["number"] == 1
    frames = client.get(f"/table/{table.pk}/replay/frames/?round=1").json()["round"]["frames"]
    assert replay["frames"] == frames  # the file replays exactly as the stored round
    assert data["rules"] == api.client_rules("okey51")  # which tile is wild, as the table page has it
    assert data["players"][1] == {"name": "Computer 2 · easy", "computer": "easy"}

    record["players"][1]["name"] = "a human, honest"  # a file cannot pass a computer off as a person
    record["rounds"][0]["server_seed"] = fairdeal.server_seed()  # the moves still replay; the deal does not verify
    response = client.post("/replay/", {"record": SimpleUploadedFile("t.json", json.dumps(record).encode())})
    data = response.json()
    assert response.status_code == 200 and data["players"][1]["name"] == "Computer 2 · easy"
    codes = [d["code"] for d in data["rounds"][0]["verification"]]
    assert codes[0] == "commitment" and "rack" in codes


@pytest.mark.parametrize("body, says", [
    ({}, "Choose a game record file."),
    ({"record": SimpleUploadedFile("x.json", b"{oops")}, "This file cannot be replayed: the file is not JSON."),
    ({"record": SimpleUploadedFile("x.json", b'{"format": "okeysite-record-1", "ruleset": "okey51"}')},
     "This file cannot be replayed: the record needs one player per seat"),
])
def test_a_posted_file_that_is_no_record_gets_a_clear_error(body, says):
    response = Client().post("/replay/", body)
    assert response.status_code == 400 and response.json()["error"].startswith(says)


def test_the_error_of_a_posted_file_is_in_the_players_language():
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    response = client.post("/replay/", {"record": SimpleUploadedFile("x.json", b"{oops")})
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    assert response.json()["error"] != "This file cannot be replayed: the file is not JSON."
