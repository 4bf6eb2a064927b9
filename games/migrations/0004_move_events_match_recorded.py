"""Moves keep their step's penalty events; matches get their `recorded` mark; the unused
`Game.turn_started_version` goes.

Moves logged before this migration have no events (null): the rounds already finished
keep the penalty list they stored then (`Round.penalty_events`), and the moves of the
rounds still being played get theirs by replaying those rounds once, here, with the
engine's `replay`. Finished matches start unrecorded: the sweeper records each once
(recording is idempotent, so the ones already rated or recorded are only marked).
"""
from django.db import migrations, models


def events_of_running_rounds(apps, schema_editor):
    from games.engine import api

    Round = apps.get_model("games", "Round")
    Move = apps.get_model("games", "Move")
    for rnd in Round.objects.filter(finished__isnull=True).iterator():
        moves = list(Move.objects.filter(round=rnd).order_by("number"))
        if not moves:
            continue
        replayed = api.replay_all(rnd.initial_position, [move.action for move in moves])
        for move, step in zip(moves, replayed.steps):
            move.events = step.events()
        Move.objects.bulk_update(moves, ["events"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0003_table_closed_reason"),
    ]

    operations = [
        migrations.RemoveField(model_name="game", name="turn_started_version"),
        migrations.AddField(
            model_name="match",
            name="recorded",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.AddField(
            model_name="move",
            name="events",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(events_of_running_rounds, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="move",
            name="events",
            field=models.JSONField(blank=True, default=list, null=True),
        ),
    ]
