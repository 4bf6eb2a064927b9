"""Lobby forms: creating a table with the options of RULES.md §6 (per ruleset, §7)."""
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.models import BOT_LEVEL_CHOICES, RULESET_CHOICES, Table

MOVE_TIME_CHOICES = [(s, _("%(seconds)s s") % {"seconds": s}) for s in (15, 30, 45, 60, 90, 120)]
RAMI_LENGTH_CHOICES = [("official", _("One round per player")), ("rounds", _("A number of rounds")),
                       ("target", _("Play to a target score"))]

# Which form fields each ruleset uses (the lobby script hides the others; `data-rulesets`).
RULESET_FIELDS = {
    "play": ("okey51",), "rounds": ("okey51",), "doubling": ("okey51",),
    "rami_length": ("rami",), "rami_rounds": ("rami",), "rami_target": ("rami",),
    "joker_value": ("rami",), "double_one_turn": ("rami",),
}


def available_rulesets():
    """Rulesets offered in the lobby: settings.OKEY_RULESETS (env comma list, default all three)."""
    allowed = getattr(settings, "OKEY_RULESETS", ["okey51", "okey17", "rami"])
    return [(code, label) for code, label in RULESET_CHOICES if code in allowed]


class CreateTableForm(forms.Form):
    """Table creation (RULES.md §6). `options()` returns the ruleset's options dict (§7).

    okey51: individual or teams (2v2, partners opposite), doubling, 1 or 3 rounds; okey17:
    7 rounds (no choice); rami: one round per player, a number of rounds or a target score,
    joker 30/50, double for going out in one turn. All: move time (seconds), assisted,
    computer level. Fields of other rulesets are ignored.
    """

    ruleset = forms.ChoiceField(label=_("Game"), choices=available_rulesets)
    mode = forms.ChoiceField(label=_("Table"), choices=Table.Mode.choices, initial=Table.Mode.SOLO,
                             widget=forms.RadioSelect)
    play = forms.ChoiceField(label=_("Play"), choices=[("individual", _("Individual")), ("teams", _("Teams (2 v 2)"))],
                             initial="individual", required=False, widget=forms.RadioSelect)
    rounds = forms.TypedChoiceField(label=_("Rounds"), coerce=int, choices=[(1, "1"), (3, "3")], initial=1,
                                    required=False)
    doubling = forms.BooleanField(label=_("Doubling (open above the highest opening)"), required=False,
                                  initial=True)
    rami_length = forms.ChoiceField(label=_("Match length"), choices=RAMI_LENGTH_CHOICES, initial="official",
                                    required=False)
    rami_rounds = forms.IntegerField(label=_("Number of rounds"), min_value=1, max_value=20, initial=4,
                                     required=False)
    rami_target = forms.IntegerField(label=_("Target score"), min_value=50, max_value=10000, initial=500,
                                     required=False)
    joker_value = forms.TypedChoiceField(label=_("Joker value"), coerce=int, choices=[(30, "30"), (50, "50")],
                                         initial=30, required=False)
    double_one_turn = forms.BooleanField(label=_("Double for going out in one turn"), required=False)
    move_time = forms.TypedChoiceField(label=_("Move time"), coerce=int, choices=MOVE_TIME_CHOICES,
                                       initial=settings.OKEY_DEFAULT_MOVE_TIME)
    assisted = forms.BooleanField(label=_("Assisted table (marks penalty tiles, one-tap add)"), required=False)
    bot_level = forms.ChoiceField(label=_("Computer level"), choices=BOT_LEVEL_CHOICES, initial="normal")

    def clean(self):
        """Per-ruleset checks: a rami match needs its number of rounds or target score."""
        data = super().clean()
        if data.get("ruleset") == "rami":
            length = data.get("rami_length") or "official"
            if length == "rounds" and not data.get("rami_rounds"):
                self.add_error("rami_rounds", _("Give the number of rounds."))
            if length == "target" and not data.get("rami_target"):
                self.add_error("rami_target", _("Give the target score."))
        return data

    def options(self):
        """The §7 options dict for the chosen ruleset (only keys that ruleset knows)."""
        data = self.cleaned_data
        if data["ruleset"] == "okey51":
            return {"doubling": bool(data["doubling"]), "teams": data.get("play") == "teams",
                    "rounds": data.get("rounds") or 1}
        if data["ruleset"] == "okey17":
            return {"rounds": 7}
        length = data.get("rami_length") or "official"
        return {
            "rounds": data.get("rami_rounds") if length == "rounds" else None,
            "target": data.get("rami_target") if length == "target" else None,
            "joker_value": data.get("joker_value") or 30,
            "double_one_turn": bool(data.get("double_one_turn")),
        }
