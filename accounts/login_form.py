"""allauth's login form with its one field labelled by what it takes.

With both login methods (settings.ACCOUNT_LOGIN_METHODS) allauth labels the field
"Login", the same word as the button in Spanish and Turkish, and asks browsers to fill
it with an e-mail. Its own placeholder, "Username or email" (translated by allauth in
every site language), is the clearer label, and a password manager should offer the
user name it saved (`autocomplete="username"`).
"""
from allauth.account.forms import LoginForm as AllauthLoginForm


class LoginForm(AllauthLoginForm):
    """settings.ACCOUNT_FORMS["login"]: allauth's form, the login field relabelled."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["login"]
        placeholder = field.widget.attrs.get("placeholder")
        if placeholder:
            field.label = placeholder
        field.widget.attrs["autocomplete"] = "username"
