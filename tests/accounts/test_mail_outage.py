"""Account e-mail while the mail server cannot be reached (accounts.mail): a real SMTP
backend pointed at a port nobody listens on. Sign-up still logs the player in and says
the e-mail will have to be asked for again; a password reset says so too."""
import pytest

from bench.stack import free_port

pytestmark = pytest.mark.django_db(transaction=True)
NOT_SENT = "could not be sent just now"


@pytest.fixture(autouse=True)
def unreachable_mail_server(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", free_port(), 2


def test_sign_up_logs_the_player_in_and_says_the_email_was_not_sent(client, django_user_model):
    response = client.post("/accounts/signup/", {
        "email": "enzo@example.com", "username": "enzo",
        "password1": "Tiles-and-racks-42", "password2": "Tiles-and-racks-42",
    }, follow=True)
    assert response.status_code == 200
    assert django_user_model.objects.filter(username="enzo").exists()
    assert "_auth_user_id" in client.session
    assert NOT_SENT in response.content.decode()


def test_the_message_is_in_the_players_language(client, alice):
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"}, follow=True,
                           HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert "n'a pas pu être envoyé" in response.content.decode().replace("&#x27;", "'")
