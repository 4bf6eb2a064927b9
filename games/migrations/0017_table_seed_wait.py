from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0016_round_archived_moves"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="seed_wait",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
