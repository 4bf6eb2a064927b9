"""Store on each solo record whether its player shows it publicly, filled from their
settings, and rank the public records from partial indexes of their own."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Exists, OuterRef


def fill(apps, schema_editor):
    SoloRecord = apps.get_model("leaderboards", "SoloRecord")
    PlayerSettings = apps.get_model("accounts", "PlayerSettings")
    chose = PlayerSettings.objects.filter(user_id=OuterRef("user_id"), public_solo_records=True)
    SoloRecord.objects.filter(Exists(chose)).update(public=True)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0008_inactive_users_index'),
        ('games', '0022_chat_text_trigram_index'),
        ('leaderboards', '0006_fill_player_summaries'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='solorecord',
            name='solorecord_rank_lowest',
        ),
        migrations.RemoveIndex(
            model_name='solorecord',
            name='solorecord_rank_highest',
        ),
        migrations.AddField(
            model_name='solorecord',
            name='public',
            field=models.BooleanField(db_default=False, default=False, verbose_name='public'),
        ),
        # before the indexes: they are built once over the filled column
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='solorecord',
            index=models.Index(condition=models.Q(('public', True)), fields=['ruleset', 'total', 'played', 'id'], include=('user',), name='solorecord_public_lowest'),
        ),
        migrations.AddIndex(
            model_name='solorecord',
            index=models.Index(condition=models.Q(('public', True)), fields=['ruleset', '-total', 'played', 'id'], include=('user',), name='solorecord_public_highest'),
        ),
    ]
