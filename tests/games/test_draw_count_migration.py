"""The migration that stores each move's draw count fills it for the rounds being played,
with the same counts the writer stores from then on."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Move
from tests.games.play.helpers import online_table, play_out

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0011_table_removed_players")]


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def test_the_draw_counts_of_the_rounds_being_played_are_filled(alice, bob):
    table = online_table(alice, bob)
    game = play_out(table, until=lambda g: Move.objects.filter(round_id=g.round_id).count() >= 30)
    stored = list(Move.objects.filter(round_id=game.round_id).order_by("number").values_list("draw_no", flat=True))
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        _migrate(BEFORE)
    finally:
        _migrate(leaves)
    filled = list(Move.objects.filter(round_id=game.round_id).order_by("number").values_list("draw_no", flat=True))
    assert len(filled) >= 30 and filled == stored and filled[-1] > 0
