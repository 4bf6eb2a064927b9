"""allauth's page strings that our own catalogs override, so the login, sign-up and
log-out pages use the navigation's words in every language ("Log in", not "Sign In"),
and the e-mail field says the same thing in its label as in its placeholder.

Only marked here (gettext_noop) so `makemessages` keeps them in `locale/`; allauth's
templates and forms translate them, and our catalogs (LOCALE_PATHS) win over allauth's own
and Django's.
"""
from django.utils.translation import gettext_noop

OVERRIDDEN = [
    gettext_noop("Sign In"),
    gettext_noop("Sign Up"),
    gettext_noop("Sign Out"),
    # allauth's e-mail field label: in French Django's auth app (listed before allauth in
    # INSTALLED_APPS, so its catalog wins) says "Courriel" where allauth's placeholder and
    # pages say "Adresse e-mail"; its form error "adresse de courriel", the user model's
    # field "adresse électronique".
    gettext_noop("Email"),
    gettext_noop("email address"),
    gettext_noop("Enter a valid email address."),
]
