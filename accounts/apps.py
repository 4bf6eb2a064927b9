"""Accounts app: profile page and allauth templates."""
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Accounts app config."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = _("Players and moderation")

    def ready(self):
        """Close a user's sockets when their login session ends (`accounts.session_sockets`)."""
        from accounts.session_sockets import connect_signals

        connect_signals()
