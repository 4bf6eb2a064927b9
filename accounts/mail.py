"""Account e-mail (sign-up confirmation, password reset) that cannot be sent right now.

allauth sends it inside the request. When the mail server cannot be reached, the error
used to answer HTTP 500 after the account was already created: the player saw a server
error, was not logged in, and signing up again said the name was taken. Here the failure
is logged and the player is told to ask again later; the request goes on.
"""
import logging
import smtplib

from django.contrib import messages
from django.utils.translation import gettext as _

log = logging.getLogger("accounts.mail")

UNSENDABLE = (OSError, smtplib.SMTPException)  # the server unreachable, refusing, or dropping us


class MailOutageMixin:
    """For an allauth account adapter: `send_mail` that logs a mail server failure and
    tells the player, instead of raising."""

    def send_mail(self, template_prefix, email, context):
        """allauth's `send_mail` (template prefix str, recipient str, context dict);
        returns None. A mail server failure is logged and shown to the player as a
        message; other errors raise."""
        try:
            super().send_mail(template_prefix, email, context)
        except UNSENDABLE:
            log.exception("account e-mail %s to %s could not be sent", template_prefix, email)
            if getattr(self, "request", None) is not None:
                messages.error(self.request, _("The e-mail could not be sent just now. Please ask for it again "
                                               "in a few minutes."))
