"""Lobby forms: creating a table with the options of RULES.md §6."""
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.models import BOT_LEVEL_CHOICES, RULESET_CHOICES, Table

MOVE_TIME_CHOICES = [(s, _("%(seconds)s s") % {"seconds": s}) for s in (15, 30, 45, 60, 90, 120)]


def available_rulesets():
    """Rulesets offered in the lobby: settings.OKEY_RULESETS (default okey51 only)."""
    allowed = getattr(settings, "OKEY_RULESETS", ["okey51"])
    return [(code, label) for code, label in RULESET_CHOICES if code in allowed]


class CreateTableForm(forms.Form):
    """Table creation (RULES.md §6). `options()` returns the ruleset's options dict (§7).

    Individual play only for now (teams are an engine option the site does not offer yet).
    """

    ruleset = forms.ChoiceField(label=_("Game"), choices=available_rulesets)
    mode = forms.ChoiceField(label=_("Table"), choices=Table.Mode.choices, initial=Table.Mode.SOLO,
                             widget=forms.RadioSelect)
    rounds = forms.TypedChoiceField(label=_("Rounds"), coerce=int, choices=[(1, "1"), (3, "3")], initial=1)
    doubling = forms.BooleanField(label=_("Doubling (open above the highest opening)"), required=False,
                                  initial=True)
    move_time = forms.TypedChoiceField(label=_("Move time"), coerce=int, choices=MOVE_TIME_CHOICES,
                                       initial=settings.OKEY_DEFAULT_MOVE_TIME)
    assisted = forms.BooleanField(label=_("Assisted table (marks penalty tiles, one-tap add)"), required=False)
    bot_level = forms.ChoiceField(label=_("Computer level"), choices=BOT_LEVEL_CHOICES, initial="normal")

    def options(self):
        """The §7 options dict for the chosen ruleset (only keys that ruleset knows)."""
        data = self.cleaned_data
        if data["ruleset"] == "okey51":
            return {"doubling": data["doubling"], "teams": False, "rounds": data["rounds"]}
        if data["ruleset"] == "okey17":
            return {"rounds": 7}
        return {}
