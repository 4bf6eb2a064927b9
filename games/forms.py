"""Lobby forms: creating a table with the options of RULES.md §6 (per ruleset, §7).

Which fields a ruleset uses follows from the ruleset's own facts (`api.ruleset`): a field
sets one of the ruleset's `option_keys`, and a field that offers a fixed set of values
is used only where the ruleset's default is one of them (okey17's rounds are not the
1-or-3 choice of okey51: its match is 7 rounds, RULES.md §4).
"""
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.engine import api
from games.models import BOT_LEVEL_CHOICES, RULESET_CHOICES, Table

MOVE_TIME_CHOICES = [(s, _("%(seconds)s s") % {"seconds": s}) for s in (15, 30, 45, 60, 90, 120)]
RAMI_LENGTH_CHOICES = [("official", _("One round per player")), ("rounds", _("A number of rounds")),
                       ("target", _("Play to a target score"))]
OKEY51_ROUNDS = (1, 3)

# Form field -> (the option key it sets, the values it offers or None for any).
OPTION_FIELDS = {
    "play": ("teams", None),
    "rounds": ("rounds", OKEY51_ROUNDS),
    "doubling": ("doubling", None),
    "rami_length": ("target", None),  # the length fields choose between rounds and a target
    "rami_rounds": ("target", None),
    "rami_target": ("target", None),
    "joker_value": ("joker_value", None),
    "double_one_turn": ("double_one_turn", None),
}


def available_rulesets():
    """Rulesets offered in the lobby: settings.OKEY_RULESETS (env comma list, default all three)."""
    allowed = getattr(settings, "OKEY_RULESETS", [code for code, _label in RULESET_CHOICES])
    return [(code, label) for code, label in RULESET_CHOICES if code in allowed]


def uses_field(ruleset, name):
    """True when the ruleset `ruleset` (id) uses the lobby form field `name` (see OPTION_FIELDS)."""
    key, offered = OPTION_FIELDS[name]
    rules = api.ruleset(ruleset)
    if key not in rules.option_keys:
        return False
    return offered is None or rules.normalize_options({}).get(key) in offered


def field_rulesets():
    """{field name: the ids of the rulesets that use it, space-separated} for the lobby
    template's `data-rulesets`, plus "fixed_rounds": rulesets whose rounds are not chosen
    (their match length is shown as a note)."""
    ids = [code for code, _label in RULESET_CHOICES]
    out = {name: " ".join(r for r in ids if uses_field(r, name)) for name in OPTION_FIELDS}
    out["fixed_rounds"] = " ".join(
        r for r in ids if not any(uses_field(r, name) for name in ("rounds", "rami_length")))
    return out


class CreateTableForm(forms.Form):
    """Table creation (RULES.md §6). `options()` returns the ruleset's options dict (§7).

    okey51: individual or teams (2v2, partners opposite), doubling, 1 or 3 rounds; okey17:
    7 rounds (no choice); rami: one round per player, a number of rounds or a target score,
    joker 30/50, double for going out in one turn. All: move time (seconds), assisted,
    computer level. Online: private (invite link only). Solo: practice (no move clock, on
    by default). Fields of other rulesets are ignored.
    """

    ruleset = forms.ChoiceField(label=_("Game"), choices=available_rulesets)
    mode = forms.ChoiceField(label=_("Table"), choices=Table.Mode.choices, initial=Table.Mode.SOLO,
                             widget=forms.RadioSelect)
    play = forms.ChoiceField(label=_("Play"), choices=[("individual", _("Individual")), ("teams", _("Teams (2 v 2)"))],
                             initial="individual", required=False, widget=forms.RadioSelect)
    rounds = forms.TypedChoiceField(label=_("Rounds"), coerce=int, choices=[(n, str(n)) for n in OKEY51_ROUNDS],
                                    initial=1, required=False)
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
    private = forms.BooleanField(label=_("Private table: only friends with the invite link can join or watch"),
                                 required=False)
    practice = forms.BooleanField(label=_("Practice: no move clock"), required=False, initial=True)

    def field_rulesets(self):
        """`field_rulesets()` for the template (which fields each ruleset shows)."""
        return field_rulesets()

    def clean(self):
        """A match played to a number of rounds or a target score needs that number."""
        data = super().clean()
        if data.get("ruleset") and uses_field(data["ruleset"], "rami_length"):
            length = data.get("rami_length") or "official"
            if length == "rounds" and not data.get("rami_rounds"):
                self.add_error("rami_rounds", _("Give the number of rounds."))
            if length == "target" and not data.get("rami_target"):
                self.add_error("rami_target", _("Give the target score."))
        return data

    def options(self):
        """The §7 options dict for the chosen ruleset (only the keys it knows, from the
        fields it uses); the ruleset fills the defaults of the others."""
        data = self.cleaned_data
        ruleset = data["ruleset"]
        options = {}
        if uses_field(ruleset, "play"):
            options["teams"] = data.get("play") == "teams"
        if uses_field(ruleset, "doubling"):
            options["doubling"] = bool(data.get("doubling"))
        if uses_field(ruleset, "rounds"):
            options["rounds"] = data.get("rounds") or OKEY51_ROUNDS[0]
        if uses_field(ruleset, "rami_length"):
            length = data.get("rami_length") or "official"
            options["rounds"] = data.get("rami_rounds") if length == "rounds" else None
            options["target"] = data.get("rami_target") if length == "target" else None
        if uses_field(ruleset, "joker_value"):
            options["joker_value"] = data.get("joker_value") or 30
        if uses_field(ruleset, "double_one_turn"):
            options["double_one_turn"] = bool(data.get("double_one_turn"))
        return api.ruleset(ruleset).normalize_options(options)
