"""The table chat's models join the games app (`games.chat.models`), with their rows.

`accounts` 0002 renamed the tables to `games_chatmessage` and `games_chatreport`; here
the models enter the games app's state only, and their content types follow them (so
admin log entries and permissions still point at them).
"""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("chatmessage", "chatreport")


def content_types_to(app_label, other):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        for model in MODELS:
            if not ContentType.objects.filter(app_label=app_label, model=model).exists():
                ContentType.objects.filter(app_label=other, model=model).update(app_label=app_label)

    return move


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_chat_moves_to_games"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0004_move_events_match_recorded"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="ChatMessage",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("text", models.CharField(max_length=300, verbose_name="text")),
                        ("created", models.DateTimeField(auto_now_add=True, db_index=True)),
                        ("removed", models.BooleanField(default=False, verbose_name="removed")),
                        ("table", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                    related_name="chat_messages", to="games.table")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                   related_name="chat_messages", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "verbose_name": "chat message",
                        "verbose_name_plural": "chat messages",
                        "ordering": ["created", "id"],
                    },
                ),
                migrations.CreateModel(
                    name="ChatReport",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("reason", models.CharField(blank=True, max_length=300, verbose_name="reason")),
                        ("lines", models.JSONField(default=list)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("handled", models.BooleanField(default=False, verbose_name="handled")),
                        ("reported", models.ForeignKey(blank=True, null=True,
                                                       on_delete=django.db.models.deletion.SET_NULL,
                                                       related_name="reports_received",
                                                       to=settings.AUTH_USER_MODEL)),
                        ("reporter", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                       related_name="reports_made", to=settings.AUTH_USER_MODEL)),
                        ("table", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                    related_name="chat_reports", to="games.table")),
                    ],
                    options={
                        "verbose_name": "chat report",
                        "verbose_name_plural": "chat reports",
                        "ordering": ["handled", "-created"],
                    },
                ),
            ],
        ),
        migrations.RunPython(content_types_to("games", "accounts"), content_types_to("accounts", "games")),
    ]
