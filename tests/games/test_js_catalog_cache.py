"""The JavaScript catalogue's address names its language and version; that address is
cached for a year, any other is revalidated (okeysite/js_catalog.py)."""
import pytest

from okeysite.js_catalog import VERSION


@pytest.mark.django_db
def test_the_catalogue_named_by_its_version_is_cached_and_others_are_not(client):
    page = client.get("/rules/").content.decode()
    assert f"/jsi18n/?l=en&amp;v={VERSION}" in page
    fresh = client.get(f"/jsi18n/?l=en&v={VERSION}")
    assert fresh.status_code == 200 and "max-age=31536000" in fresh["Cache-Control"]
    assert "immutable" in fresh["Cache-Control"]
    packed = client.get(f"/jsi18n/?l=en&v={VERSION}", HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    old = client.get("/jsi18n/?l=en&v=0000")
    assert old.status_code == 200 and "no-cache" in old["Cache-Control"]
    assert "max-age=31536000" not in old["Cache-Control"]
