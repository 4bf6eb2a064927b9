from django.db import migrations

from okeysite.search_indexes import trigram_indexes


class Migration(migrations.Migration):
    """The chat admin's search by words of a line through a trigram index instead of
    reading every line (`okeysite.search_indexes`)."""

    dependencies = [
        ('games', '0021_indexes_for_big_tables'),
    ]

    operations = [
        trigram_indexes("games_chatmessage", ["text"]),
    ]
