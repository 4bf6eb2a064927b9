"""The player's settings form."""
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from accounts.display_names import COMPUTER_NAME_MESSAGE, reads_as_computer, visible_name
from accounts.player_settings import PlayerSettings
from games.forms import MOVE_TIME_CHOICES
from games.models import BOT_LEVEL_CHOICES, RULESET_CHOICES


class PlayerSettingsForm(forms.ModelForm):
    """Display name, language, public solo records, and default table options (stored in
    `PlayerSettings.table_defaults` as {"ruleset", "move_time" (seconds), "assisted",
    "bot_level"})."""

    default_ruleset = forms.ChoiceField(label=_("Default game"), choices=RULESET_CHOICES, required=False)
    default_move_time = forms.TypedChoiceField(label=_("Default move time"), coerce=int, choices=MOVE_TIME_CHOICES,
                                               initial=settings.OKEY_DEFAULT_MOVE_TIME)
    default_assisted = forms.BooleanField(label=_("Assisted table by default"), required=False)
    default_bot_level = forms.ChoiceField(label=_("Default computer level"), choices=BOT_LEVEL_CHOICES,
                                          initial="normal")

    class Meta:
        model = PlayerSettings
        fields = ["display_name", "language", "public_solo_records", "public_review_marks"]
        help_texts = {
            "display_name": _("Shown at tables and in the rankings instead of your user name."),
            "public_solo_records": _("Off by default: your solo records stay visible to you only."),
            "public_review_marks": _("Off by default: the review of your rounds stays visible to you only."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        defaults = self.instance.table_defaults or {}
        for key in ("ruleset", "move_time", "assisted", "bot_level"):
            if key in defaults:
                self.fields[f"default_{key}"].initial = defaults[key]

    def clean_display_name(self):
        """Keep only what shows (`accounts.display_names.visible_name`); a display name may not
        be another player's user name, nor read as a computer's label (`accounts.display_names`)."""
        from django.contrib.auth import get_user_model

        name = visible_name(self.cleaned_data.get("display_name"))
        if name and reads_as_computer(name):
            raise forms.ValidationError(COMPUTER_NAME_MESSAGE)
        if name and get_user_model().objects.filter(username__iexact=name).exclude(pk=self.instance.user_id).exists():
            raise forms.ValidationError(_("This name is another player's user name."))
        return name

    def save(self, commit=True):
        """Store the model fields and the table defaults. Returns the PlayerSettings."""
        obj = super().save(commit=False)
        data = self.cleaned_data
        obj.table_defaults = {
            "ruleset": data.get("default_ruleset") or "okey51", "move_time": data["default_move_time"],
            "assisted": bool(data.get("default_assisted")), "bot_level": data["default_bot_level"],
        }
        if commit:
            obj.save()
        return obj
