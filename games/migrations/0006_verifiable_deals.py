"""Verifiable deals (docs/fair-deals.md): each round keeps its own secret server seed, the
players' client seeds and the name of the algorithm that dealt it; a round can be created
with its commitment before it is dealt (no initial position yet).

The rounds stored before this were dealt from a match seed with Python's `random`: they
keep their old seed as the server seed, get no client seeds and are marked with the
legacy algorithm id, whose check says "dealt before verifiable deals" instead of failing.
The match seed goes: every round now carries what re-dealing it needs.
"""
from django.db import migrations, models

LEGACY = "okeysite-legacy"  # games.engine.fairdeal.LEGACY when this migration was written


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_chat_from_accounts"),
    ]

    operations = [
        migrations.RenameField("round", "seed", "server_seed"),
        migrations.AddField(
            model_name="round",
            name="client_seeds",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="round",
            name="algorithm",
            field=models.CharField(default=LEGACY, max_length=40),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="round",
            name="initial_position",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RemoveField(model_name="match", name="seed"),
    ]
