"""What is revealed when (docs/fair-deals.md §1, RULES.md hidden information): a round's
server seed reaches no view, frame, page, record or admin form before the round is over;
then the score table, the match page and the record show it with the client seeds and the
algorithm, and the page's Verify has all it needs. A running round shows no move log, no
replay and no record, so nothing public holds a tile the live view hides."""
import json
import re

import pytest
from django.test import Client

from games.engine import fairdeal
from games.models import Game, Round
from games.snapshot import round_end_frame, snapshot
from tests.games.play.helpers import game_of, play_out
from tests.games.play.test_penalty_events import okey17, play, scripted_table
from tests.games.test_records import solo

pytestmark = pytest.mark.django_db(transaction=True)


def without_tokens(html):
    """`html` without its CSRF tokens: a random token can hold "B8" and look like a tile."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def everything_public(table, users, staff_client=None):
    """Every text a client can get about `table`: each user's snapshot, a spectator's, the
    match page, the replay page and frames, the record download and (staff) the admin
    pages of the round and its match."""
    out = []
    for user in [*users, None]:
        out.append(json.dumps(snapshot(table.pk, user)[1]))
    client = Client()
    for url in (f"/table/{table.pk}/match/", f"/table/{table.pk}/replay/", f"/table/{table.pk}/replay/frames/?round=1",
                f"/table/{table.pk}/record/"):
        out.append(client.get(url).content.decode())
    if staff_client is not None:
        game = game_of(table)
        for url in (f"/admin/games/round/{game.round_id}/change/", "/admin/games/round/",
                    f"/admin/games/match/{game.match_id}/change/"):
            response = staff_client.get(url)
            assert response.status_code == 200, url
            out.append(response.content.decode())
    return "\n".join(out)


def test_the_server_seed_stays_secret_until_the_round_is_over(alice, staff):
    table = solo(alice)
    staff_client = Client()
    staff_client.force_login(staff)
    secret = game_of(table).round.server_seed
    seen = everything_public(table, [alice], staff_client)
    assert secret not in seen
    assert game_of(table).round.commitment in seen  # the commitment is public from the deal on
    assert "Hidden: server seed, " in seen  # the admin says so instead, with the reveal link

    game = play_out(table)
    rnd = Round.objects.get(pk=game.round_id)
    frame = round_end_frame(game, table)
    assert (frame["server_seed"], frame["commitment"], frame["client_seeds"], frame["algorithm"]) == (
        secret, fairdeal.commitment(secret), ["", "", "", ""], "okeysite-shuffle-2")
    assert frame["chain_tip"] == table.chain_tip and fairdeal.chain_reaches(secret, 1, table.chain_tip)
    assert snapshot(table.pk, None)[1]["round_end"]["server_seed"] == secret
    assert secret in everything_public(table, [alice], staff_client)
    page = Client().get(f"/table/{table.pk}/match/").content.decode()
    assert f'<code class="server-seed">{secret}</code>' in page and 'class="verify-btn' in page
    data = json.loads(page.split('<script id="deal-data" type="application/json">')[1].split("</script>")[0])
    (deal,) = data["rounds"]
    assert deal["server_seed"] == secret and deal["initial"] == rnd.initial_position
    assert fairdeal.verify_round(deal, data["header"]) == []  # what the page's Verify runs in the browser


def test_a_running_round_shows_no_move_log_replay_or_record(alice, bob, carol):
    # okey17: a playable discard is refused and costs 100, and the tile stays in the rack
    table, game = scripted_table(alice, bob, okey17(["B8", "K2"]))
    (refused,) = play({0: alice, 1: bob}, table, game, [{"seat": 0, "type": "discard", "tile": "B8"}])
    assert refused.code == "playable_discard" and "B8" in Game.objects.get(pk=game.pk).position["seats"][0]["rack"]
    client = Client()
    client.force_login(carol)  # not at the table
    page = without_tokens(client.get(f"/table/{table.pk}/match/").content.decode())
    assert "B8" not in page and "discarded" not in page and "This round is still being played." in page
    assert "K2" not in page and 'class="verify-btn' not in page
    assert client.get(f"/table/{table.pk}/replay/frames/?round=1").status_code == 404
    assert client.get(f"/table/{table.pk}/record/").status_code == 404
    replay = without_tokens(client.get(f"/table/{table.pk}/replay/").content.decode())
    assert "B8" not in replay and "replay opens once it is over" in replay
    spectator = json.dumps(snapshot(table.pk, carol)[1])
    assert "B8" not in spectator  # the live view hides it too: the pages hide no less
