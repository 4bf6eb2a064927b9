"""Site URLs: lobby and tables (games), accounts (allauth), i18n, JS catalog, admin, and the
operator's probes, metrics and dashboard (okeysite.operations)."""
from django.contrib import admin
from django.urls import include, path

from accounts import guest_signup
from okeysite import js_catalog, pwa
from okeysite.operations import dashboard, metrics, probes

# the admin index links the operations dashboard
admin.site.index_template = "admin/okeysite_index.html"

urlpatterns = [
    path("healthz", probes.healthz, name="healthz"),
    path("manifest.webmanifest", pwa.manifest, name="web_manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("offline/<str:language>/", pwa.offline, name="offline"),
    path("readyz", probes.readyz, name="readyz"),
    path("metrics", metrics.metrics, name="metrics"),
    path("admin/operations/", dashboard.dashboard, name="operations"),
    path("admin/", admin.site.urls),
    # allauth's sign-up, open to a guest signing up as themselves (accounts.guest_signup)
    path("accounts/signup/", guest_signup.signup, name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("profile/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", js_catalog.catalog, name="javascript-catalog"),
    path("rankings/", include("leaderboards.urls")),
    path("rules/", include("games.rules.urls")),
    path("", include("social.urls")),
    path("", include("accounts.profile_urls")),
    path("", include("games.urls")),
]
