"""The installable web app: the manifest, the service worker and the offline page.

The service worker (templates/pwa/sw.js) keeps only the offline page, one per site
language, rendered without any user's data (no session, no nav): it never stores a page
or response that carries a user's data, and it never touches the table and lobby sockets
(a service worker cannot see WebSocket traffic at all). A page load that fails for lack of
network gets the offline page in the language the pages last used.
"""
import hashlib
import json

from django.conf import settings
from django.http import Http404, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

THEME_COLOR = "#145a40"  # the favicon's felt green


def _languages():
    return [code for code, _name in settings.LANGUAGES]


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request):
    """`/manifest.webmanifest`: the web app manifest in the request's language
    (application/manifest+json)."""
    data = {
        "name": "okeysite",
        "short_name": "okeysite",
        "description": gettext("Okey and Rami with friends or against the computers, in your browser."),
        "lang": translation.get_language(),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": THEME_COLOR,
        "theme_color": THEME_COLOR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


def _offline_urls():
    return {code: reverse("offline", args=[code]) for code in _languages()}


@require_GET
def service_worker(request):
    """`/sw.js`: the service worker, at the site root so that its scope is the whole site.
    Its cache name follows the offline pages' content: a new release's pages replace the
    old ones. Never cached by the browser's HTTP cache (browsers check it on each visit)."""
    urls = _offline_urls()
    digest = hashlib.sha256()
    for code in urls:
        digest.update(_offline_html(code).encode())
    body = render_to_string("pwa/sw.js", {
        "offline_urls_json": json.dumps(urls), "default_language": settings.LANGUAGE_CODE,
        "cache_name": f"okey-offline-{digest.hexdigest()[:12]}",
    })
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


def _offline_html(language):
    with translation.override(language):
        return render_to_string("pwa/offline.html", {"language": language, "theme_color": THEME_COLOR})


@require_GET
@cache_control(max_age=3600, public=True)
def offline(request, language):
    """`/offline/<language>/`: the offline page in `language` (one of settings.LANGUAGES,
    else 404). Holds no user data: the service worker stores it."""
    if language not in _languages():
        raise Http404("No such language")
    return HttpResponse(_offline_html(language))
