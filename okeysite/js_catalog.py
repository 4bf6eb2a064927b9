"""The JavaScript catalogue (`/jsi18n/`, Django's JavaScriptCatalog) cached by the browser.

Every page loads it before its scripts, so each page view paid a request that rendered the
catalogue again. Its address now names the language and a version of the compiled
catalogues (`?l=fr&v=…`, from `catalog_context`); a request that names the current version
is answered with a year's immutable cache, since new translations mean a new version and so
a new address. Any other request (an old page, a hand-typed address) is not cached.
"""
import hashlib

from django.conf import settings
from django.utils.cache import patch_cache_control
from django.views.decorators.gzip import gzip_page
from django.views.i18n import JavaScriptCatalog


def _version():
    # the compiled JavaScript catalogues of every language, by content
    digest = hashlib.sha256()
    for path in sorted(settings.BASE_DIR.glob("locale/*/LC_MESSAGES/djangojs.mo")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


VERSION = _version()


def catalog_context(request):
    """Template context: `js_catalog_version` (str), the version part of the catalogue's
    address (templates/base.html)."""
    return {"js_catalog_version": VERSION}


_catalog = JavaScriptCatalog.as_view()


# compressed: the catalogue holds no secret (no CSRF token, nothing of the user)
@gzip_page
def catalog(request, *args, **kwargs):
    """The JavaScript catalogue of the request's language, gzip-compressed; cached for a
    year when the address names the current version (`v`), else not cached. Returns an
    HttpResponse."""
    response = _catalog(request, *args, **kwargs)
    if request.GET.get("v") == VERSION:
        patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    else:
        patch_cache_control(response, no_cache=True)
    return response
