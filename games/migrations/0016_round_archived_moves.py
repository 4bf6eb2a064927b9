from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0015_fair_deal_chain"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="archived_moves",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
