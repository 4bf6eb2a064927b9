"""Store each rating's latest rated match (`Rating.last_played`), filled from the rating
changes already recorded: from here on `leaderboards.recording` keeps it. The period
rankings read it, and the established players' index carries it."""
from django.conf import settings
from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery


def fill(apps, schema_editor):
    Rating = apps.get_model("leaderboards", "Rating")
    RatingChange = apps.get_model("leaderboards", "RatingChange")
    latest = (RatingChange.objects.filter(user_id=OuterRef("user_id"), ruleset=OuterRef("ruleset"))
              .order_by().values("user_id").annotate(latest=Max("played")).values("latest"))
    Rating.objects.update(last_played=Subquery(latest))


class Migration(migrations.Migration):

    dependencies = [
        ('leaderboards', '0007_solo_record_public'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='rating',
            name='rating_rank_established',
        ),
        migrations.AddField(
            model_name='rating',
            name='last_played',
            field=models.DateTimeField(blank=True, null=True, verbose_name='last rated match'),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='rating',
            index=models.Index(condition=models.Q(('matches__gte', 5)), fields=['ruleset', '-ordinal', 'user'], include=('last_played',), name='rating_rank_established'),
        ),
        migrations.AddIndex(
            model_name='rating',
            index=models.Index(fields=['ruleset', 'last_played'], name='rating_by_last_played'),
        ),
    ]
