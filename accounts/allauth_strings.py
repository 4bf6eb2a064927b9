"""allauth's and Django's auth page strings that our own catalogs override, so the login,
sign-up and log-out pages use the navigation's words in every language ("Log in", not
"Sign In"), the e-mail field says the same thing in its label as in its placeholder, and
a Turkish page calls the password one thing.

Only marked here (gettext_noop) so `makemessages` keeps them in `locale/`; allauth's
templates and forms translate them, and our catalogs (LOCALE_PATHS) win over allauth's own
and Django's.
"""
from django.utils.translation import gettext_noop, ngettext_lazy

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
    # Turkish: Django's auth forms and password validators say "parola" where allauth's
    # sign-up, log-in and reset pages say "şifre"; the Turkish catalog gives Django's
    # strings allauth's word, so one page never says both.
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("Old password"),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
    ngettext_lazy("This password is too short. It must contain at least %d character.",
                  "This password is too short. It must contain at least %d characters.", "n"),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters.", "min_length"),
]
