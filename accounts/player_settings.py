"""A player's settings: display name, language, solo records in public or not, table defaults.

Stored one row per user (`PlayerSettings.for_user` creates it on first use).
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy as _

from accounts.erased import is_erased


class PlayerSettings(models.Model):
    """Per-user settings.

    `public_solo_records` False (the default) keeps the player out of the public solo
    ranking (RULES.md §6 "Records"). `public_review_marks` False (the default) keeps the
    reviews of the player's rounds (docs/review.md) to the player. `table_defaults` is a dict the lobby form may start
    from: {"ruleset", "move_time" (seconds), "assisted" (bool), "bot_level"}.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_settings")
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True, choices=settings.LANGUAGES)
    public_solo_records = models.BooleanField(_("show my solo records in the public solo ranking"), default=False)
    table_defaults = models.JSONField(_("default table options"), default=dict, blank=True)
    public_review_marks = models.BooleanField(_("show the marks of my round reviews to everyone"), default=False)

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
    """The name shown for `user`: the chosen display name, else the username (str); a
    deleted account's placeholder (`accounts.erasure`) reads "deleted player"."""
    if user is None:
        return ""
    if is_erased(user):
        return gettext("deleted player")
    try:
        chosen = user.player_settings.display_name
    except PlayerSettings.DoesNotExist:
        chosen = ""
    return chosen or user.get_username()


class PreferredLanguageMiddleware:
    """Apply the language saved in a player's settings once per session (e.g. after logging
    in on a new device): activate it and store it in the language cookie, which
    `LocaleMiddleware` reads from then on. Put after `AuthenticationMiddleware`."""

    SESSION_KEY = "okey_language_applied"

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.utils import translation

        user = getattr(request, "user", None)
        language = None
        if user is not None and user.is_authenticated and not request.session.get(self.SESSION_KEY):
            request.session[self.SESSION_KEY] = True
            language = PlayerSettings.objects.filter(user=user).values_list("language", flat=True).first()
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if language:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
                                samesite="Lax")
        return response
