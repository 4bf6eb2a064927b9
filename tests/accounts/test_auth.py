"""Sign-up, e-mail login, logout and password reset with django-allauth."""
import re

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_sends_a_confirmation_and_logs_in(client, django_user_model):
    response = client.post("/accounts/signup/", {
        "email": "dora@example.com", "username": "dora",
        "password1": "Tiles-and-racks-42", "password2": "Tiles-and-racks-42",
    })
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="dora").exists()
    assert len(mail.outbox) == 1 and "dora@example.com" in mail.outbox[0].to
    assert "dora" in client.get("/").content.decode()


def test_login_by_email_and_logout(client, alice):
    response = client.post("/accounts/login/", {"login": "alice@example.com", "password": "pw-alice-1234"})
    assert response.status_code == 302
    assert client.get("/profile/").status_code == 200
    client.post("/accounts/logout/")
    assert client.get("/profile/").status_code == 302


def test_password_reset_by_email(client, alice):
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    action = form.redirect_chain[-1][0] if form.redirect_chain else link
    response = client.post(action, {"password1": "Fresh-tiles-77", "password2": "Fresh-tiles-77"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("Fresh-tiles-77")


@pytest.mark.parametrize("lang, label", [("en", "Username or email"), ("fr", "Nom d'utilisateur ou e-mail"),
                                         ("es", "Usuario o correo electrónico"),
                                         ("tr", "Kullanıcı adı ya da e-posta adresi")])
def test_the_login_field_says_it_takes_a_user_name_or_an_email(client, lang, label):
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=lang).content.decode().replace("&#x27;", "'")
    assert f">{label}" in page  # the label, not only the placeholder
    assert 'autocomplete="username"' in page


def test_login_by_user_name(client, alice):
    response = client.post("/accounts/login/", {"login": "alice", "password": "pw-alice-1234"})
    assert response.status_code == 302
    assert client.get("/profile/").status_code == 200


@pytest.mark.parametrize("lang, message", [
    ("en", "The username or e-mail address, or the password, is not correct."),
    ("fr", "Le nom d'utilisateur ou l'adresse e-mail, ou le mot de passe, est incorrect."),
    ("es", "El usuario o correo electrónico, o la contraseña, no son correctos."),
    ("tr", "Kullanıcı adı ya da e-posta adresi veya şifre doğru değil."),
])
@pytest.mark.parametrize("named", ["alice", "alice@example.com"])
def test_a_wrong_login_names_both_the_user_name_and_the_email(client, alice, lang, message, named):
    # The field takes either, so whichever was typed the message names both.
    response = client.post("/accounts/login/", {"login": named, "password": "not-her-password"},
                           HTTP_ACCEPT_LANGUAGE=lang)
    page = response.content.decode().replace("&#x27;", "'")
    assert message in page
    assert "and/or" not in page


def test_an_address_another_account_holds_cannot_be_added(client, alice, bob):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=alice, email=alice.email, primary=True, verified=False)
    client.force_login(bob)
    for typed in (alice.email, alice.email.upper()):
        page = client.post("/accounts/email/", {"email": typed, "action_add": ""}).content.decode()
        assert "A user is already registered with this email address." in page
    assert list(EmailAddress.objects.filter(email__iexact=alice.email).values_list("user", flat=True)) == [alice.pk]
    # An address nobody holds is still added (unverified, a confirmation sent).
    client.post("/accounts/email/", {"email": "bob.second@example.com", "action_add": ""})
    assert EmailAddress.objects.filter(user=bob, email="bob.second@example.com", verified=False).exists()
    assert mail.outbox and mail.outbox[-1].to == ["bob.second@example.com"]


def test_the_french_account_pages_say_e_mail_like_their_placeholders(client, alice):
    # Django's auth catalog says "Courriel" and "adresse électronique": our catalog keeps
    # the word of allauth's French pages, "e-mail".
    pages = [client.get(path, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
             for path in ("/accounts/signup/", "/accounts/login/", "/accounts/password/reset/")]
    pages.append(client.post("/accounts/signup/", {"email": "pas-une-adresse", "username": "zoe"},
                             HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    client.force_login(alice)
    pages.append(client.get("/accounts/email/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    for page in pages:
        assert "ourriel" not in page and "électronique" not in page
    signup = pages[0]
    assert '<label for="id_email">E-mail' in signup and 'placeholder="Adresse e-mail"' in signup
    assert "Saisissez une adresse e-mail valide." in pages[3]
