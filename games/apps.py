"""App config for the games app (tables, matches, the live table server, the table chat)."""
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """The games app. Starts nothing: the embedded worker starts in okeysite/asgi.py."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        """Receive the sanctions `accounts` sends: a suspended or banned user's seats are released."""
        from accounts.moderation import sanctioned
        from games.play.sanctions import on_sanction

        sanctioned.connect(on_sanction, dispatch_uid="games.play.sanctions.on_sanction")
