"""Hidden game state in the admin, and its logged reveal.

`HidesRunningState` is a ModelAdmin mixin: while `state_is_secret(obj)` holds, the fields
named in `secret_fields` are left out of the change page (and so out of every form and
inline built from it) and a note with a "reveal" link stands in their place. The reveal
page asks for a reason; submitting it writes a `LogEntry` (who, when, the object, "why")
before it shows the values. Nothing is ever editable (the model admins are look-only).

`RefusesHiddenLookups`, on every game admin, refuses a change-list filter in the query
string (`?server_seed__startswith=a7`, `?game__position__icontains=...`) whose path
reaches a hidden field: whether such a list came out empty or not would answer the
question the reveal page logs, a character at a time. The refusal is Django's
DisallowedModelAdminLookup (HTTP 400), the same answer for a right guess as for a wrong
one. It holds for finished rounds too: a filter cannot tell which rows it would read.
"""
import json

from django import forms
from django.contrib import admin
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import FieldDoesNotExist, PermissionDenied
from django.db.models.constants import LOOKUP_SEP
from django.http import Http404
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy as _

REVEAL_PREFIX = "Revealed hidden state"  # LogEntry.change_message starts with it (for audits)


class RevealForm(forms.Form):
    """The reason a staff member gives for looking at hidden state (kept in the log)."""

    reason = forms.CharField(label=_("Why do you need to see it? (kept in the admin log)"), max_length=300,
                             widget=forms.TextInput(attrs={"size": 60}))


def reveals(obj):
    """The logged reveals of `obj` (a model instance), newest first: LogEntry queryset."""
    return LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(obj), object_id=str(obj.pk),
                                   change_message__startswith=REVEAL_PREFIX).order_by("-action_time")


def hidden_fields():
    """{model class: set of field names} hidden by the registered `HidesRunningState`
    admins (their `secret_fields`)."""
    return {model: set(model_admin.secret_fields) for model, model_admin in admin.site._registry.items()
            if isinstance(model_admin, HidesRunningState)}


def reaches_hidden_field(model, lookup):
    """True when the query-string `lookup` (str, e.g. "round__server_seed__startswith"),
    read from `model`, names a hidden field (`hidden_fields`) on its path."""
    hidden = hidden_fields()
    for part in lookup.split(LOOKUP_SEP):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False  # a transform or a lookup such as "startswith": the path ended
        if field.name in hidden.get(model, ()):
            return True
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return False


class RefusesHiddenLookups:
    """ModelAdmin mixin: no change-list filter of the query string on a hidden field."""

    def lookup_allowed(self, lookup, value, request=None):
        """Django's rule, and never a lookup that `reaches_hidden_field`."""
        if reaches_hidden_field(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)


class HidesRunningState(RefusesHiddenLookups):
    """ModelAdmin mixin: hide `secret_fields` while `state_is_secret(obj)` (both set by the
    admin), with a logged reveal page at `<pk>/reveal/`."""

    secret_fields = ()

    def state_is_secret(self, obj):
        raise NotImplementedError

    def _hidden(self, obj):
        return obj is not None and self.state_is_secret(obj)

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if self._hidden(obj):
            fields = [f for f in fields if f not in self.secret_fields] + ["hidden_state"]
        return fields

    def get_readonly_fields(self, request, obj=None):
        fields = [f for f in super().get_readonly_fields(request, obj)
                  if not (self._hidden(obj) and f in self.secret_fields)]
        return fields + (["hidden_state"] if self._hidden(obj) else [])

    @property
    def _reveal_name(self):
        return f"{self.model._meta.app_label}_{self.model._meta.model_name}_reveal"

    @admin.display(description=_("hidden while the round is played"))
    def hidden_state(self, obj):
        """The note standing in for the hidden fields, with the reveal link."""
        names = ", ".join(str(self.model._meta.get_field(f).verbose_name) for f in self.secret_fields)
        return format_html('{} <a href="{}">{}</a>', gettext("Hidden: %(fields)s.") % {"fields": names},
                           reverse(f"admin:{self._reveal_name}", args=[obj.pk]), gettext("Reveal (logged)"))

    def get_urls(self):
        view = self.admin_site.admin_view(self.reveal_view)
        return [path("<int:object_id>/reveal/", view, name=self._reveal_name)] + super().get_urls()

    def reveal_view(self, request, object_id):
        """GET: the reason form. POST with a reason: log the reveal (LogEntry, CHANGE, message
        "Revealed hidden state: <fields>: <reason>"), then show the hidden fields' values.
        Staff who may view the model only; 404 for an unknown object."""
        obj = self.get_object(request, str(object_id))
        if obj is None:
            raise Http404
        if not self.has_view_permission(request, obj):
            raise PermissionDenied
        form = RevealForm(request.POST or None)
        values = None
        if request.method == "POST" and form.is_valid():
            reason = form.cleaned_data["reason"].strip()
            LogEntry.objects.log_actions(
                user_id=request.user.pk, queryset=[obj], action_flag=CHANGE, single_object=True,
                change_message=f"{REVEAL_PREFIX}: {', '.join(self.secret_fields)}: {reason}")
            values = [(self.model._meta.get_field(f).verbose_name,
                       json.dumps(getattr(obj, f), indent=1, sort_keys=True)) for f in self.secret_fields]
        return render(request, "games/admin_reveal.html", {
            **self.admin_site.each_context(request), "title": gettext("Reveal hidden state of %(obj)s") % {"obj": obj},
            "obj": obj, "opts": self.model._meta, "form": form, "values": values, "log": reveals(obj)[:20],
            "secret": self.state_is_secret(obj),
        })

