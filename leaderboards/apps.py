"""Leaderboards app: ratings, rating changes, voided matches, solo records."""
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaderboardsConfig(AppConfig):
    """Leaderboards app config."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
    verbose_name = _("Rankings")

    def ready(self):
        from leaderboards import solo_visibility

        solo_visibility.connect()
