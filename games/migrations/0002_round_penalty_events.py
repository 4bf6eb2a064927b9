from django.db import migrations, models


class Migration(migrations.Migration):
    """Round.penalty_events: the in-round penalties listed on the score table."""

    dependencies = [("games", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="round",
            name="penalty_events",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
