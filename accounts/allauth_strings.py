"""allauth's page strings that our own catalogs override, so the login, sign-up and
log-out pages use the navigation's words in every language ("Log in", not "Sign In").

Only marked here (gettext_noop) so `makemessages` keeps them in `locale/`; allauth's
templates translate them, and our catalogs (LOCALE_PATHS) win over allauth's own.
"""
from django.utils.translation import gettext_noop

OVERRIDDEN = [
    gettext_noop("Sign In"),
    gettext_noop("Sign Up"),
    gettext_noop("Sign Out"),
]
