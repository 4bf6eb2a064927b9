"""The chat's models moved from `accounts` to `games` with their rows: migrating a
database that has chat lines and reports under `accounts` keeps every one of them."""
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.chat.models import ChatMessage, ChatReport

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("accounts", "0001_initial"), ("games", "0004_move_events_match_recorded")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_chat_lines_and_reports_survive_the_move_to_the_games_app(alice, bob):
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = migrate(BEFORE)
    try:
        Table = old.get_model("games", "Table")
        table = Table.objects.create(ruleset="okey51", options={}, mode="online", creator_id=alice.pk,
                                     status="playing", players=4)
        line = old.get_model("accounts", "ChatMessage").objects.create(table=table, user_id=bob.pk, text="iyi oyunlar")
        old.get_model("accounts", "ChatReport").objects.create(
            table=table, reporter_id=alice.pk, reported_id=bob.pk, reason="rude",
            lines=[{"id": line.pk, "user": "bob", "text": "iyi oyunlar"}])
    finally:
        migrate(leaves)
    moved = ChatMessage.objects.get()
    assert (moved.pk, moved.table_id, moved.user, moved.text) == (line.pk, table.pk, bob, "iyi oyunlar")
    report = ChatReport.objects.get()
    assert (report.reporter, report.reported, report.reason) == (alice, bob, "rude")
    assert report.lines[0]["text"] == "iyi oyunlar"
    assert ChatMessage._meta.db_table == "games_chatmessage"
