"""Fixtures for the moderation tests: a staff account with a second factor (TOTP)."""
import pytest


@pytest.fixture
def staff(django_user_model):
    """A superuser "mod" with an activated TOTP authenticator (allauth.mfa)."""
    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

    user = django_user_model.objects.create_superuser("mod", "mod@example.com", "pw-mod-1234")
    TOTP.activate(user, generate_totp_secret())
    return user
