from django.db import migrations


class Migration(migrations.Migration):
    """The few erased (inactive) accounts in a partial index, so the rankings' "not an
    erased account" (`accounts.guests.listed`) reads them alone instead of every user."""

    dependencies = [
        ('accounts', '0007_name_search_trigram_indexes'),
    ]

    operations = [
        migrations.RunSQL(
            'CREATE INDEX IF NOT EXISTS "auth_user_inactive" ON "auth_user" ("id") WHERE NOT "is_active"',
            'DROP INDEX IF EXISTS "auth_user_inactive"',
        ),
    ]
