"""Per-socket presence rows that expire (games.play.presence): a seat is connected while
it has a live row, so a process that dies leaves no seat connected for ever; the per-user
and per-IP socket caps count the same rows."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_seeding_window'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Connection',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('channel', models.CharField(max_length=200, unique=True)),
                ('ip', models.CharField(blank=True, default='', max_length=64)),
                ('expires', models.DateTimeField(db_index=True)),
                ('seat', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='live_connections', to='games.seat')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.table')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['user', 'expires'], name='games_conne_user_id_6dab1b_idx'), models.Index(fields=['ip', 'expires'], name='games_conne_ip_702793_idx')],
            },
        ),
    ]
