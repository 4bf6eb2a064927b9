from django.db import migrations

from okeysite.search_indexes import trigram_indexes


class Migration(migrations.Migration):
    """The user admin's search (user name, first and last name, e-mail) and the player
    settings' (display name), and every admin search by a player's user name, through
    trigram indexes instead of reading every user (`okeysite.search_indexes`)."""

    dependencies = [
        ('accounts', '0006_public_review_marks'),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        trigram_indexes("auth_user", ["username", "first_name", "last_name", "email"]),
        trigram_indexes("accounts_playersettings", ["display_name"]),
    ]
