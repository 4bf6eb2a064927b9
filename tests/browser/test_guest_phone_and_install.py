"""A phone visitor on the scaled set-up (PostgreSQL, Redis, a separate Celery worker),
in French and Spanish at 390x844: one tap plays solo as a guest, signing up keeps the
guest's table, the "Your data" page downloads and deletes, the private table's invite
opens the share sheet (the clipboard on a desktop), and the site is installable with an
offline page in the pages' language. Nothing scrolls sideways and the new buttons are at
least 44 px high. Screenshots go to test-artifacts/."""
import json
import re

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.browser.conftest import ARTIFACTS, CHROMIUM, assert_fits, scaled_site, shot

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with scaled_site(tmp_path_factory.mktemp("guests"), "guests", OKEY_BOT_DELAY="0.5") as url:
        yield url



@pytest.fixture(scope="module")
def pw():
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(pw):
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    yield browser
    browser.close()


@pytest.mark.parametrize("language", ["fr", "es"])
def test_a_phone_visitor_plays_as_a_guest_then_signs_up_keeping_the_table(browser, site, language):
    context = browser.new_context(locale=language, **PHONE)
    page = context.new_page()
    try:
        page.goto(site + "/")
        assert_fits(page, "#guest-solo button, #guest-play-now button")
        shot(page, f"guest-lobby-{language}-390")
        label = page.locator("#guest-solo button[data-ruleset=okey51]").inner_text()
        assert "Okey" in label and {"fr": "invité", "es": "invitado"}[language] in label
        page.locator("#guest-solo button[data-ruleset=okey51]").click()
        page.wait_for_url(re.compile(r"/table/\d+/$"))
        table_path = re.search(r"/table/\d+/$", page.url).group(0)
        expect(page.locator("#rack .tile").first).to_be_visible(timeout=20_000)
        page.click("#menu-btn")      # the table is one screen: the guest's note is in its menu
        banner = page.locator("#guest-banner")
        expect(banner).to_contain_text("Guest-")
        guest_name = re.search(r"Guest-[A-Z2-9]{4}", banner.inner_text()).group(0)
        assert_fits(page, "#guest-banner .button")
        shot(page, f"guest-table-{language}-390")

        page.locator("#guest-banner .button").click()
        page.wait_for_url(re.compile(r"/accounts/signup/"))
        name = f"converted-{language}"
        page.fill("input[name=email]", f"{name}@example.com")
        page.fill("input[name=username]", name)
        page.fill("input[name=password1]", "tiles-and-racks-42")
        page.fill("input[name=password2]", "tiles-and-racks-42")
        page.locator("form button[type=submit]").last.click()
        page.wait_for_load_state("networkidle")
        assert "/accounts/signup/" not in page.url
        expect(page.locator("#guest-banner")).to_have_count(0)
        page.goto(site + "/profile/")
        expect(page.locator("h1")).to_have_text(name)
        expect(page.locator(f'a[href="{table_path}"]')).to_have_count(1)  # the guest's table is the account's
        assert guest_name not in page.content()
    finally:
        context.close()


def test_your_data_page_downloads_and_deletes_on_a_phone(browser, site):
    context = browser.new_context(locale="tr", **PHONE)
    page = context.new_page()
    try:
        page.goto(site + "/")
        page.locator("#guest-solo button[data-ruleset=rami]").click()
        page.wait_for_url(re.compile(r"/table/\d+/$"))
        page.goto(site + "/settings/data/")
        assert_fits(page, ".data-actions button, .data-actions .button")
        shot(page, "your-data-tr-390")
        with page.expect_download() as download:
            page.locator("#data-download").click()
        data = json.loads(open(download.value.path(), encoding="utf-8").read())
        assert data["profile"]["guest"] is True and data["matches"][0]["ruleset"] == "rami"
        username = data["profile"]["username"]
        # the table is still being played: refused, nothing deleted
        page.fill("#delete-account-form input[name=confirm]", username)
        page.locator("#delete-account-form button").click()
        expect(page.locator(".lobby-notice").first).to_be_visible()
        page.goto(site + "/settings/data/")
        assert page.locator("#delete-account-form").count() == 1
    finally:
        context.close()


def _private_table(page, site, name):
    page.goto(site + "/accounts/signup/")
    page.fill("input[name=email]", f"{name}@example.com")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", "tiles-and-racks-42")
    page.fill("input[name=password2]", "tiles-and-racks-42")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_load_state("networkidle")
    page.goto(site + "/")
    page.check("input[name=mode][value=online]")
    page.check("input[name=private]")
    page.locator("form.create-table button[type=submit]").click()
    page.wait_for_url(re.compile(r"/table/\d+/$"))
    return page.locator("#invite-url").input_value()


def test_the_invite_opens_the_share_sheet_on_a_phone_and_copies_on_a_desktop(browser, site):
    phone = browser.new_context(locale="fr", **PHONE)
    # Linux Chromium has no share sheet: this stands in for the phone's, recording what it is handed
    phone.add_init_script("""navigator.share = async (data) => { window.__shared = data; };
                             navigator.canShare = () => true;""")
    page = phone.new_page()
    try:
        url = _private_table(page, site, "sharer")
        button = page.locator("#invite-copy")
        expect(button).to_have_text("Partager le lien")
        assert_fits(page, "#invite-copy")
        shot(page, "invite-share-fr-390")
        button.click()
        expect(button).to_have_attribute("data-result", "shared")
        shared = page.evaluate("window.__shared")
        assert shared["url"] == url and "/invite/" in url
        assert shared["text"] == "Rejoins ma table d’okey"
    finally:
        phone.close()

    desktop = browser.new_context(locale="es", viewport={"width": 1366, "height": 800})
    desktop.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page = desktop.new_page()
    try:
        url = _private_table(page, site, "copier")
        button = page.locator("#invite-copy")
        expect(button).to_have_text("Copiar el enlace")
        button.click()
        expect(button).to_have_attribute("data-result", "copied")
        assert page.evaluate("navigator.clipboard.readText()") == url
    finally:
        desktop.close()


def test_the_site_is_installable_and_offline_shows_the_offline_page(pw, site, tmp_path):
    # a profile on disk: Chromium never offers to install from an incognito context
    context = pw.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS,
                                                    locale="fr", **PHONE)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site + "/")
        manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())")
        assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
        assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
        assert manifest["description"].startswith("L’okey")
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)").endswith("/sw.js")
        page.wait_for_function("caches.has('okey-language')")
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        manifest_info = cdp.send("Page.getAppManifest")
        assert not manifest_info.get("errors"), manifest_info

        # the worker stores the offline pages only: no page a user saw, nothing of theirs
        stored = page.evaluate("""async () => {
          const out = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const req of await cache.keys()) out.push(new URL(req.url).pathname);
          }
          return out.sort();
        }""")
        assert stored == sorted(["/__okey-language", "/offline/en/", "/offline/es/", "/offline/fr/", "/offline/tr/"])

        context.set_offline(True)
        page.goto(site + "/rankings/")
        expect(page.locator("#offline-page h1")).to_have_text("Vous êtes hors ligne")
        assert_fits(page, "#offline-page button")
        ARTIFACTS.mkdir(exist_ok=True)
        shot(page, "offline-fr-390")
        context.set_offline(False)
        page.locator("#offline-page button").click()
        page.wait_for_load_state()
        expect(page.locator("#offline-page")).to_have_count(0)
        assert "/rankings/" in page.url
    finally:
        context.close()
