"""A player may not take a name that reads as a computer's label ("Computer 2 · strong"),
in any of the site's four languages: the settings form and sign-up refuse it, in the
player's language."""
import html

import pytest
from django.test import Client

from accounts.player_settings import PlayerSettings

pytestmark = pytest.mark.django_db(transaction=True)

COMPUTER_NAMES = ["Computer 2 · strong", "Ordinateur 3 · fort", "Ordenador 1 · fácil", "Bilgisayar 4 · güçlü",
                  "computer", "C0MPUTER 2", "Com-pu-ter", "ORDİNATEUR", "bilgısayar", "Robot 2", "strong bot",
                  # Cyrillic С, Greek ο and Cyrillic а drawn like the Latin letters; a neighbour language's word
                  "\u0421omputer 2 · normal", "C\u03bfmputer 3 · strong", "Bilgisay\u0430r", "Komputer 2"]
FINE_NAMES = ["Alice", "Abbott", "Bilge", "Oruç Reis", "Tile Master 2", "Наташа", "Νίκος"]
MESSAGES = {"en": "reads like a computer player", "fr": "ressemble à celui d'un joueur ordinateur",
            "es": "parece el de un jugador ordenador", "tr": "bilgisayar oyuncusunun adına benziyor"}


def save_settings(client, name, language="en"):
    return client.post("/settings/", {
        "display_name": name, "language": language, "default_ruleset": "okey51", "default_move_time": "30",
        "default_bot_level": "normal"}, HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("name", COMPUTER_NAMES)
def test_a_display_name_that_reads_as_a_computer_is_refused(alice, name):
    client = Client()
    client.force_login(alice)
    response = save_settings(client, name)
    assert response.status_code == 200 and MESSAGES["en"] in html.unescape(response.content.decode())
    assert PlayerSettings.for_user(alice).display_name == ""


@pytest.mark.parametrize("name", FINE_NAMES)
def test_ordinary_display_names_are_kept(alice, name):
    client = Client()
    client.force_login(alice)
    assert save_settings(client, name).status_code == 302
    assert PlayerSettings.for_user(alice).display_name == name


@pytest.mark.parametrize("language", ["fr", "es", "tr", "en"])
def test_the_refusal_is_in_the_players_language(alice, language):
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = language
    response = save_settings(client, "Computer 2 · strong", language)
    assert MESSAGES[language] in html.unescape(response.content.decode())


def test_sign_up_refuses_a_computer_user_name(client, django_user_model):
    response = client.post("/accounts/signup/", {
        "email": "bot@example.com", "username": "Computer2",
        "password1": "Tiles-and-racks-42", "password2": "Tiles-and-racks-42"})
    assert response.status_code == 200 and MESSAGES["en"] in html.unescape(response.content.decode())
    assert not django_user_model.objects.filter(email="bot@example.com").exists()


@pytest.mark.parametrize("typed, kept", [
    ("\u202eboB", "boB"),               # a right-to-left override: it read as "Bob"
    ("Ali\u200bce\u2066", "Alice"),     # zero-width space, bidi isolate
    ("Oruç\u00ad Reis\ufeff", "Oruç Reis"),  # soft hyphen, byte-order mark
    ("Z\u0301\u0302\u0303\u0304alg\u0301o", "Z\u0301\u0302alg\u0301o"),  # a flood of combining marks
])
def test_a_display_name_keeps_only_what_shows(alice, typed, kept):
    client = Client()
    client.force_login(alice)
    assert save_settings(client, typed).status_code == 302
    assert PlayerSettings.for_user(alice).display_name == kept


def test_a_display_name_of_invisible_characters_is_no_name(alice):
    """Zero-width spaces alone left the seat nameless; the player keeps their user name."""
    client = Client()
    client.force_login(alice)
    assert save_settings(client, "\u200b\u200b\u2060").status_code == 302
    assert PlayerSettings.for_user(alice).display_name == ""


@pytest.mark.parametrize("typed", ["bob\u200b", "B\u2060ob", "\u202ebob"])
def test_hidden_characters_do_not_pass_for_another_players_user_name(alice, bob, typed):
    client = Client()
    client.force_login(alice)
    response = save_settings(client, typed)
    assert response.status_code == 200 and "another player" in html.unescape(response.content.decode())
    assert PlayerSettings.for_user(alice).display_name == ""
