"""Failed-login limits that stop a password guesser without locking the account's owner out.

allauth's own limit counts failures per account across every address and refuses even the
right password once it is reached: anyone who knows an e-mail address can keep its owner
out. Here a failed login counts (settings.ACCOUNT_RATE_LIMITS, in the shared cache):

- `login_failed`, per address (`ip` rates) and per address *and* account (`key` rates):
  the guesser's own address is refused, the owner on another device is not;
- `login_failed_account`, per account across all addresses: a short cool-down for a
  guesser spread over many addresses; its window is short, so it always ends quickly.

A refused attempt counts nowhere (it never reaches the password check), and a successful
login takes back what its own attempt counted, so an owner's logins never add up.
"""
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.core.internal import ratelimit
from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from accounts.display_names import COMPUTER_NAME_MESSAGE, reads_as_computer
from accounts.mail import MailOutageMixin

APP = "allauth.account"
ACCOUNT_ACTION = "login_failed_account"
WRONG_LOGIN = _("The username or e-mail address, or the password, is not correct.")


class _Usages:
    """The counts one login attempt took, to take back together on success."""

    def __init__(self, usages):
        self.usages = usages

    def rollback(self):
        for usage in self.usages:
            usage.rollback()


class AccountAdapter(MailOutageMixin, DefaultAccountAdapter):
    """allauth's adapter with the failed-login limits above (settings.ACCOUNT_ADAPTER), no
    user name that reads as a computer's label (a name shown at the tables when the player
    sets no display name), and account e-mail that fails without failing the request
    (`accounts.mail`), and one wrong-login message whatever the login field held."""

    # The login field takes a user name or an e-mail (settings.ACCOUNT_LOGIN_METHODS), but
    # allauth's wrong-login message names only what the typed text looks like: "The
    # username and/or password" for a name, "The email address and/or password" for
    # anything with an "@" (which a user name may hold too). This one names both.
    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_password_mismatch": WRONG_LOGIN,
        "email_password_mismatch": WRONG_LOGIN,
    }

    def clean_username(self, username, shallow=False):
        """allauth's checks, then refuse a name like "Computer 2" (`accounts.display_names`).
        Raises forms.ValidationError."""
        username = super().clean_username(username, shallow=shallow)
        if reads_as_computer(username):
            raise forms.ValidationError(COMPUTER_NAME_MESSAGE)
        return username

    def _login(self, credentials):
        # One key per account, whichever way it was named: by its user name or by any of
        # its e-mail addresses (settings.ACCOUNT_LOGIN_METHODS; allauth also logs in with a
        # second, unverified address). Otherwise a guesser gets the limit once per name. A
        # login that names no account is its own key: it can only fail.
        # Lower-cased here, as allauth does before its own lookup: SQLite's iexact folds only
        # ASCII letters, so "v@BÉ.fr" would otherwise miss the account allauth still finds.
        email = (credentials.get("email") or "").strip().lower()
        username = (credentials.get("username") or "").strip()
        user_id = None
        if email:
            user_id = (EmailAddress.objects.filter(email__iexact=email).values_list("user_id", flat=True).first()
                       or get_user_model().objects.filter(email__iexact=email).values_list("pk", flat=True).first())
        if user_id is None and username:
            user_id = get_user_model().objects.filter(username__iexact=username).values_list("pk", flat=True).first()
        return f"user:{user_id}" if user_id is not None else (email or username).lower()

    def _limit_keys(self, request, credentials):
        # No host name in the keys: without the sites framework it is the request's Host
        # header, port included, so two daphne processes (127.0.0.1:8000 and :8001) counted
        # apart, and a guesser could pick a new allowed name for every five tries. The
        # cache's own prefix already keeps two sites apart.
        login = self._login(credentials)
        ip = ratelimit.get_ip(request)
        return (("login_failed", f"{ip}:{login}"), (ACCOUNT_ACTION, login))

    def pre_authenticate(self, request, **credentials):
        """Count this attempt against each limit before the password is checked.

        Raises the form error "too_many_login_attempts" (allauth's message, translated)
        when one limit is reached; the counts already taken are given back then."""
        taken = []
        for action, key in self._limit_keys(request, credentials):
            usage = ratelimit.consume(request, app=APP, action=action, key=key)
            if not usage:
                _Usages(taken).rollback()
                self._login_failed_rl_usage = None
                raise self.validation_error("too_many_login_attempts")
            taken.append(usage)
        self._login_failed_rl_usage = _Usages(taken)

    def _delete_login_attempts_cached_email(self, request, **credentials):
        """A password reset by e-mail proves the owner: clear the account's counts (this
        address's and the account-wide cool-down)."""
        for action, key in self._limit_keys(request, credentials):
            ratelimit.clear(request, app=APP, action=action, key=key)
