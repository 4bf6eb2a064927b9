"""The table chat's models move to the games app (`games.chat.models`).

State: ChatMessage and ChatReport leave `accounts`. Database: their tables are renamed to
the games app's names and keep every row; `games` 0005 takes the models over.
"""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.AlterModelTable(name="chatmessage", table="games_chatmessage"),
                migrations.AlterModelTable(name="chatreport", table="games_chatreport"),
            ],
            state_operations=[
                migrations.DeleteModel(name="ChatMessage"),
                migrations.DeleteModel(name="ChatReport"),
            ],
        ),
    ]
