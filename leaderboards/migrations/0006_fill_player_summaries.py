"""Fill the player summaries from the matches already recorded: from here on the
recording path keeps them (`leaderboards.summaries`)."""
from django.db import migrations


def fill(apps, schema_editor):
    from leaderboards.summaries import rebuild

    rebuild(apps.get_model("games", "Match"), apps.get_model("games", "Seat"), apps.get_model("games", "Round"),
            apps.get_model("leaderboards", "PlayerSummary"))


def empty(apps, schema_editor):
    apps.get_model("leaderboards", "PlayerSummary").objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [
        ("leaderboards", "0005_player_summaries"),
        ("games", "0022_chat_text_trigram_index"),
    ]

    operations = [migrations.RunPython(fill, empty)]
