"""The player's own data: the "Your data" page, the JSON download of everything stored
about them (`accounts.data_export`) and deleting the account (`accounts.erasure`) after
confirming with the password."""
import json

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from accounts.data_export import export_user
from accounts.erasure import erase_user
from games.models import Table


class DeleteAccountForm(forms.Form):
    """Confirms deleting the account: the password, or for an account without one (a
    guest) the user name typed again."""

    confirm = forms.CharField(label=_("Your password"), strip=False, max_length=200,
                              widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}))

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.has_usable_password():
            self.fields["confirm"].label = _("Type your user name to confirm")
            self.fields["confirm"].widget = forms.TextInput(attrs={"autocomplete": "off"})

    def clean_confirm(self):
        value = self.cleaned_data["confirm"]
        if self.user.has_usable_password():
            if not self.user.check_password(value):
                raise forms.ValidationError(_("This password is not right. Nothing was deleted."))
        elif value != self.user.get_username():
            raise forms.ValidationError(_("This is not your user name. Nothing was deleted."))
        return value


def _active_tables(user):
    return Table.objects.filter(seats__user=user, seats__left=False,
                                status__in=[Table.Status.OPEN, Table.Status.PLAYING]).distinct()


@login_required
@never_cache
@require_GET
def your_data(request):
    """`/settings/data/`: the download link and the delete form."""
    return render(request, "accounts/your_data.html", {"form": DeleteAccountForm(user=request.user),
                                                       "active_tables": _active_tables(request.user)})


@login_required
@never_cache
@require_GET
def data_download(request):
    """`/settings/data/download/`: everything stored about the viewer as a JSON file
    (`accounts.data_export.export_user`)."""
    body = json.dumps(export_user(request.user), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    stamp = timezone.now().strftime("%Y%m%d")
    response["Content-Disposition"] = f'attachment; filename="okeysite-data-{stamp}.json"'
    return response


@login_required
@never_cache
@require_http_methods(["POST"])
def delete_account(request):
    """POST `/settings/data/delete/`: delete the viewer's account once confirmed
    (`DeleteAccountForm`) and log them out. Refused, with nothing changed, while they sit
    at a table that is open or being played (their seat would stop mid-match)."""
    user = request.user
    form = DeleteAccountForm(request.POST, user=user)
    active = _active_tables(user)
    if active.exists():
        messages.error(request, gettext("Leave your open and running tables first: nothing was deleted."))
        return render(request, "accounts/your_data.html", {"form": form, "active_tables": active}, status=400)
    if not form.is_valid():
        return render(request, "accounts/your_data.html", {"form": form, "active_tables": active}, status=400)
    logout(request)
    erase_user(user)
    messages.success(request, gettext("Your account is deleted. Games you played with others stay for them "
                                      "under “deleted player”."))
    return redirect("lobby")
