"""Admin actions that ask for a reason (and optionally an end date) before acting.

`reason_action(apply, description, with_until=False)` builds a Django admin action: the
first click shows a form (`templates/accounts/admin_reason.html`) for the selected rows;
submitting it calls `apply(request, obj, reason, until)` for each row. Moderation reasons
are shown to the players concerned (PLAYERS.md complaint 5).
"""
from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.shortcuts import render
from django.utils.translation import gettext as _, gettext_lazy


class ReasonForm(forms.Form):
    """Reason (required, shown to the user) and an optional end (aware datetime)."""

    reason = forms.CharField(label=gettext_lazy("Reason (shown to the player)"), max_length=300,
                             widget=forms.TextInput(attrs={"size": 60}))
    until = forms.DateTimeField(label=gettext_lazy("Until (empty: no end)"), required=False,
                                widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
                                input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"])

    def __init__(self, *args, with_until=False, **kwargs):
        super().__init__(*args, **kwargs)
        if not with_until:
            del self.fields["until"]


def reason_action(apply, description, with_until=False, name=None):
    """An admin action calling `apply(request, obj, reason, until)` per selected object
    after a reason form. `apply` returns True when it changed something. Returns the action."""

    def action(modeladmin, request, queryset):
        submitted = "apply" in request.POST
        form = ReasonForm(request.POST if submitted else None, with_until=with_until)
        if submitted and form.is_valid():
            done = 0
            for obj in queryset:
                if apply(request, obj, form.cleaned_data["reason"], form.cleaned_data.get("until")):
                    done += 1
                    modeladmin.log_change(request, obj, f"{description}: {form.cleaned_data['reason']}")
            modeladmin.message_user(request, _("%(action)s: %(count)d done.") % {"action": description, "count": done},
                                    messages.SUCCESS)
            return None
        return render(request, "accounts/admin_reason.html", {
            **modeladmin.admin_site.each_context(request),
            "title": description, "form": form, "queryset": queryset, "opts": modeladmin.model._meta,
            "action_name": action.__name__, "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        })

    action.__name__ = name or f"action_{apply.__name__}"
    return admin.action(description=description)(action)
