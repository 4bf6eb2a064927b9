"""Translations: plural forms in every language, the navigation / allauth page words
translated and consistent, and every string of the table scripts translated."""
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = [code for code, _name in settings.LANGUAGES]


@pytest.mark.parametrize("lang", LANGS)
def test_a_plural_string_keeps_its_count_in_every_language(lang):
    with translation.override(lang):
        for n in (0, 1, 2, 14, 1000000):
            text = ngettext("%(n)s move", "%(n)s moves", n) % {"n": n}
            assert str(n) in text and text.strip() != str(n)
        if lang != "en":
            assert ngettext("%(n)s move", "%(n)s moves", 14) != "%(n)s moves"


@pytest.mark.parametrize("lang", [code for code in LANGS if code != "en"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_plural_entry_has_a_form_for_every_count(lang, domain):
    catalog = gettext.GNUTranslations(open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo", "rb"))
    plurals = {key[0] for key in catalog._catalog if isinstance(key, tuple)}
    assert plurals, "no plural entry in the catalog"
    for msgid in plurals:
        for n in (0, 1, 2, 14, 1000000):
            text = catalog.ngettext(msgid, msgid + " (plural)", n)
            assert text and text != msgid + " (plural)", (msgid, n)
            if "%(n)s" in msgid:
                assert "%(n)s" in text, (msgid, n)


@pytest.mark.django_db
@pytest.mark.parametrize("lang, rankings, profile", [
    ("fr", "Classements", "Mon profil"), ("es", "Clasificaciones", "Mi perfil"), ("tr", "Sıralamalar", "Profilim"),
    ("en", "Rankings", "My profile"),
])
def test_the_navigation_is_translated(client, alice, lang, rankings, profile):
    client.force_login(alice)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert rankings in page and profile in page
    if lang != "en":
        assert ">Rankings<" not in page and ">My profile<" not in page


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_the_login_page_uses_the_navigations_words(client, lang):
    with translation.override(lang):
        log_in = translation.gettext("Log in")
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert page.count(log_in) >= 3  # nav link, page heading, button
    assert "Sign In" not in page


@pytest.mark.django_db
def test_turkish_account_pages_call_the_password_one_thing(client, alice):
    """allauth says "şifre", Django's auth forms and password validators "parola": the
    Turkish sign-up (with the validators' refusals), log-in and password pages say "şifre"."""
    tr = {"HTTP_ACCEPT_LANGUAGE": "tr"}
    pages = [client.get("/accounts/signup/", **tr), client.get("/accounts/login/", **tr),
             client.post("/accounts/signup/", {"username": "kisasifre", "email": "k@example.com",
                                               "password1": "1234", "password2": "12345"}, **tr)]
    refused = pages[-1].content.decode()
    assert "Şifre" in refused and "kısa" in refused  # the form came back with the length refusal
    client.force_login(alice)
    pages += [client.get(reverse(name), **tr) for name in ("account_change_password", "player_settings", "your_data")]
    for page in pages:
        text = page.content.decode()
        assert page.status_code == 200 and "arola" not in text, re.findall(r".{40}arola.{40}", text)


JS_STRING = re.compile(r"""\b_\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""")


@pytest.mark.parametrize("lang", [code for code in LANGS if code != "en"])
def test_every_string_of_the_table_scripts_is_translated(lang):
    """Each `_("...")` of static/js has a translation in the compiled djangojs catalog."""
    said = set()
    for path in (Path(settings.BASE_DIR) / "static" / "js").rglob("*.js"):
        for double, single in JS_STRING.findall(path.read_text()):
            said.add((double or single).replace('\\"', '"').replace("\\'", "'"))
    catalog = gettext.GNUTranslations(open(LOCALE / lang / "LC_MESSAGES" / "djangojs.mo", "rb"))
    assert len(said) > 200
    assert sorted(text for text in said if not catalog._catalog.get(text)) == []
