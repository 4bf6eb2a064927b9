"""The table and replay pages send the client the ruleset object's rule facts
(`api.client_rules`: meld rules, wild, opening thresholds, pair rules), so the client
knows no rule by ruleset id; the Node tests read the same facts from their fixtures."""
import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import api
from games.play import tables
from tests.games.test_records import solo

pytestmark = pytest.mark.django_db(transaction=True)
FIXTURES = Path(__file__).resolve().parents[1] / "js" / "fixtures"


def _script(page, element_id):
    return json.loads(page.split(f'<script id="{element_id}" type="application/json">')[1].split("</script>")[0])


@pytest.mark.parametrize("ruleset", ["okey51", "okey17", "rami"])
def test_the_table_page_sends_the_rulesets_rules_to_players_and_watchers(ruleset, alice):
    table = tables.create_table(alice, ruleset, {}, mode="online")
    fixture = json.loads((FIXTURES / f"meld_verdicts_{ruleset}.json").read_text())
    watcher = Client()
    player = Client()
    player.force_login(alice)
    for client in (watcher, player):
        config = _script(client.get(reverse("table", args=[table.pk])).content.decode(), "table-config")
        assert config["ruleset"] == ruleset
        assert config["rules"] == api.client_rules(ruleset) == fixture["rules"]


def test_the_replay_page_sends_the_rules_its_tiles_are_drawn_with(alice):
    table = solo(alice, options={"rounds": 3})
    config = _script(Client().get(f"/table/{table.pk}/replay/").content.decode(), "replay-config")
    assert config["ruleset"] == "okey51" and config["rules"] == api.client_rules("okey51")
