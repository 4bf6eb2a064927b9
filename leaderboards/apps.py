"""Leaderboards app (ratings come later; `record_result` is the hook)."""
from django.apps import AppConfig


class LeaderboardsConfig(AppConfig):
    """Minimal app config so INSTALLED_APPS works before ratings exist."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboards"
