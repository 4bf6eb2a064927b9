"""Signing up from a guest session keeps the guest's games: the guest's own `User` row
becomes the new account (allauth's sign-up form and flow, with this adapter's
`new_user`), so every seat, match and solo record already points at it. Nothing is copied.

Names starting "Guest-" (guests) or "deleted-" (deleted accounts, `accounts.erasure`)
are the site's own: the sign-up form refuses them. A new name is at most
`USERNAME_MAX_LENGTH` characters: the name is what the seats, the lobby's rows, the
rankings and the profile's heading show, and a 150-character one (the model's limit)
filled them with a wall of letters.
"""
from allauth.account.mixins import RedirectAuthenticatedUserMixin
from allauth.account.views import SignupView
from allauth.account.views._decorators import sensitive_post_parameters_m
from allauth.decorators import rate_limit
from django import forms
from django.utils.decorators import method_decorator
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache

from accounts.erased import DELETED_PREFIX
from accounts.guests import GUEST_PREFIX, SEEN_KEY, Guest, is_guest
from accounts.login_limits import AccountAdapter as LoginLimitsAdapter

USERNAME_MAX_LENGTH = 30  # characters; a display name (PlayerSettings) may be 40
TOO_LONG_MESSAGE = _("A user name has at most %(max)d characters.")
RESERVED_NAME_MESSAGE = _("Names starting with “Guest-” or “deleted-” are kept for the site. Please choose another.")


class AccountAdapter(LoginLimitsAdapter):
    """settings.ACCOUNT_ADAPTER: the login limits' adapter (`accounts.login_limits`), plus
    the guest's row reused at sign-up and the site's reserved name prefixes."""

    def clean_username(self, username, shallow=False):
        """The login limits' checks, then refuse a name over USERNAME_MAX_LENGTH characters
        and the reserved prefixes (case-insensitive). Raises forms.ValidationError."""
        username = super().clean_username(username, shallow=shallow)
        if len(username) > USERNAME_MAX_LENGTH:
            raise forms.ValidationError(TOO_LONG_MESSAGE % {"max": USERNAME_MAX_LENGTH})
        if username.lower().startswith((GUEST_PREFIX.lower(), DELETED_PREFIX)):
            raise forms.ValidationError(RESERVED_NAME_MESSAGE)
        return username

    def new_user(self, request):
        """The User the sign-up form fills in: the guest's own row for a guest, else a new one."""
        if is_guest(request.user):
            return request.user
        return super().new_user(request)

    def save_user(self, request, user, form, commit=True):
        """allauth's save (name, e-mail, password), then the user is a guest no more.
        Returns the User."""
        user = super().save_user(request, user, form, commit=commit)
        if commit and user.pk is not None:
            deleted, _rows = Guest.objects.filter(user=user).delete()
            if deleted:
                request.session.pop(SEEN_KEY, None)
        return user


class GuestAwareSignupView(SignupView):
    """allauth's sign-up page, open to a logged-in guest too (allauth sends every logged-in
    visitor away from it): the guest signs up as themselves."""

    def dispatch(self, request, *args, **kwargs):
        if is_guest(request.user):
            return self._as_guest(request, *args, **kwargs)
        return super().dispatch(request, *args, **kwargs)

    # allauth's own wrapping of its sign-up dispatch, for the guest's way round it
    @method_decorator(rate_limit(action="signup"))
    @sensitive_post_parameters_m
    @method_decorator(never_cache)
    def _as_guest(self, request, *args, **kwargs):
        # past allauth's "already logged in" redirect, straight to the form
        return super(RedirectAuthenticatedUserMixin, self).dispatch(request, *args, **kwargs)


signup = GuestAwareSignupView.as_view()
