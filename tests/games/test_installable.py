"""The installable web app's files: the manifest in the request's language with the icons
an install needs, the service worker at the site root storing only the offline pages, and
the offline page in each site language with no user's data in it."""
import json
import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_its_start_and_its_icons(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="tr")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"] == "/" and data["scope"] == "/" and data["display"] == "standalone"
    assert data["lang"] == "tr" and "okey" in data["description"] and "bilgisayar" in data["description"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in data["icons"]:
        assert icon["src"].startswith(settings.STATIC_URL)
        assert finders.find(icon["src"][len(settings.STATIC_URL):]) is not None


def test_the_service_worker_stores_the_offline_pages_only(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache" and response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    offline = json.loads(re.search(r"const OFFLINE = (\{.*?\});", body).group(1))
    assert offline == {code: f"/offline/{code}/" for code, _name in settings.LANGUAGES}
    # the offline pages are its only stores (the pages' language is written by the page itself)
    assert body.count("cache.addAll(") == 1 and "cache.put(" not in body
    assert 'request.mode !== "navigate"' in body


@pytest.mark.parametrize(("language", "title"), [("fr", "Vous êtes hors ligne"), ("es", "Estás sin conexión"),
                                                  ("tr", "Çevrimdışısınız"), ("en", "You are offline")])
def test_the_offline_page_speaks_each_language_and_holds_no_user_data(client, alice, language, title):
    client.force_login(alice)
    page = client.get(f"/offline/{language}/").content.decode()
    assert f'lang="{language}"' in page and title in page
    assert "alice" not in page and "csrfmiddlewaretoken" not in page


def test_an_unknown_offline_language_is_missing(client):
    assert client.get("/offline/xx/").status_code == 404


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "js/pwa.js" in page
