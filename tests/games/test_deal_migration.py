"""The verifiable-deals migration: rounds stored before it keep their old seed as the
server seed, get no client seeds and the legacy algorithm id, and their check says they
were dealt before verifiable deals instead of failing."""
import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import fairdeal
from games.models import Round
from tests.deals import text_deal

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0005_chat_from_accounts")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_rounds_dealt_before_are_marked_legacy_and_still_replay(alice):
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE)
    try:
        table = old.get_model("games", "Table").objects.create(ruleset="okey51", options={}, mode="solo",
                                                               creator_id=alice.pk, status="playing", players=4)
        match = old.get_model("games", "Match").objects.create(table=table, seed="a" * 32, totals=[0] * 4)
        position = text_deal("okey51", "before verifiable deals")
        tile = position["seats"][0]["rack"][0]
        rnd = old.get_model("games", "Round").objects.create(match=match, index=0, seed="b" * 64, commitment="c" * 64,
                                                             initial_position=position)
        old.get_model("games", "Move").objects.create(round=rnd, number=1, seat=0, version=2, events=[],
                                                      action={"seat": 0, "type": "discard", "tile": tile})
    finally:
        migrate(leaves)
    migrated = Round.objects.get(pk=rnd.pk)
    assert (migrated.server_seed, migrated.client_seeds, migrated.algorithm) == ("b" * 64, [], fairdeal.LEGACY)
    assert migrated.is_legacy and migrated.commitment == "c" * 64
    out = io.StringIO()
    call_command("verify_round", rnd.pk, stdout=out)
    assert "dealt before verifiable deals" in out.getvalue() and "1 moves verified" in out.getvalue()
