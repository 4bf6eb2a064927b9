"""Staff security: the admin login is allauth's (rate-limited, multi-factor), and staff
without a second factor are sent to set one up."""
import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_rate_limits(settings):
    """A private, empty cache for allauth's rate-limit counters."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "staff-security-tests"}}
    from django.core.cache import cache

    cache.clear()


def test_the_admin_login_is_allauths(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_staff_without_a_second_factor_are_sent_to_set_one_up(client, django_user_model):
    admin_user = django_user_model.objects.create_superuser("boss", "boss@example.com", "pw-boss-1234")
    client.force_login(admin_user)
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"] == "/accounts/2fa/totp/activate/"
    TOTP.activate(admin_user, generate_totp_secret())
    assert client.get("/admin/").status_code == 200


def test_a_staff_login_asks_for_the_second_factor(client, staff, fresh_rate_limits):
    response = client.post("/accounts/login/", {"login": "mod@example.com", "password": "pw-mod-1234"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/2fa/authenticate/")
    # not logged in yet: the admin still sends to the login page
    chain = client.get("/admin/", follow=True).redirect_chain
    assert chain[0][0].startswith("/admin/login/") and chain[-1][0].startswith("/accounts/")


def test_failed_logins_are_rate_limited(client, staff, fresh_rate_limits):
    for i in range(5):
        response = client.post("/accounts/login/", {"login": "mod@example.com", "password": f"wrong-{i}"})
        assert response.status_code == 200 and "Too many" not in response.content.decode()
    # the sixth attempt is refused even with the right password
    right = client.post("/accounts/login/", {"login": "mod@example.com", "password": "pw-mod-1234"})
    assert right.status_code == 200 and "Too many failed login attempts" in right.content.decode()
