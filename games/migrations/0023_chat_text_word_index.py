from django.db import migrations

from okeysite.search_indexes import word_indexes


class Migration(migrations.Migration):
    """The chat admin's search for a word of one or two letters, too short for the trigram
    index, through an index of the lines' words (`okeysite.search_indexes.word_indexes`)."""

    dependencies = [
        ('games', '0022_chat_text_trigram_index'),
    ]

    operations = [
        word_indexes("games_chatmessage", ["text"]),
    ]
