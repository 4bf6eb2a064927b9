"""App config for the games app (tables, matches, the live table server)."""
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    """The games app. Starts nothing: the embedded worker starts in okeysite/asgi.py."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")
