"""A player's settings: display name, language, solo records in public or not, table defaults.

Stored one row per user (`PlayerSettings.for_user` creates it on first use).
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PlayerSettings(models.Model):
    """Per-user settings (issue 5 "Settings").

    `public_solo_records` False (the default) keeps the player out of the public solo
    ranking (RULES.md §6 "Records"). `table_defaults` is a dict the lobby form may start
    from: {"ruleset", "move_time" (seconds), "assisted" (bool), "bot_level"}.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_settings")
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    public_solo_records = models.BooleanField(_("show my solo records in the public solo ranking"), default=False)
    table_defaults = models.JSONField(_("default table options"), default=dict, blank=True)

    class Meta:
        app_label = "accounts"
        verbose_name = _("player settings")
        verbose_name_plural = _("player settings")

    def __str__(self):
        return f"settings of {self.user}"

    @classmethod
    def for_user(cls, user):
        """The settings row of `user` (created with defaults if missing)."""
        obj, _created = cls.objects.get_or_create(user=user)
        return obj


def display_name(user):
    """The name shown for `user`: the chosen display name, else the username (str)."""
    if user is None:
        return ""
    try:
        chosen = user.player_settings.display_name
    except PlayerSettings.DoesNotExist:
        chosen = ""
    return chosen or user.get_username()
