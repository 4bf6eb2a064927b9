"""Staff security: the admin is reached only through allauth's login (so its
rate limits and multi-factor stage apply), and a staff account without a second factor
is sent to set one up before it sees any admin page.
"""
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _


def has_mfa(user):
    """True when `user` has an allauth.mfa authenticator (TOTP, WebAuthn...) other than
    recovery codes alone."""
    from allauth.mfa.models import Authenticator

    return Authenticator.objects.filter(user=user).exclude(type=Authenticator.Type.RECOVERY_CODES).exists()


class StaffMFAMiddleware:
    """Send a staff user without a second factor from any /admin/ page to the TOTP set-up
    page (allauth.mfa). Put after `AuthenticationMiddleware`."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (user is not None and user.is_authenticated and user.is_staff
                and request.path.startswith(reverse("admin:index")) and not has_mfa(user)):
            messages.warning(request, _("Staff accounts need a second factor: set one up to use the admin."))
            return redirect("mfa_activate_totp")
        return self.get_response(request)
