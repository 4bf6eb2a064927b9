"""Faces on the real PostgreSQL: every account has a generated face, the same on every
request and every process; computers share one face of another kind; an uploaded picture
is decoded and written again as a 256x256 WebP without its metadata, and a file that is
not an image, one of 20 MB and a decompression-bomb PNG are refused with a clear message;
staff remove a picture from the admin."""
import struct
import subprocess
import sys
import zlib
from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from accounts.faces import COMPUTER_SVG, face_cells, face_svg
from accounts.pictures import Picture

pytestmark = pytest.mark.django_db(transaction=True)


def png_bytes(width=400, height=300, exif=False):
    """A real PNG (a colour gradient); with `exif`, carrying a camera tag and a GPS field."""
    image = Image.new("RGB", (width, height))
    image.putdata([((x * 255) // width, (y * 255) // height, 90) for y in range(height) for x in range(width)])
    out = BytesIO()
    if exif:
        tags = Image.Exif()
        tags[0x010F] = "SecretCam"  # Make
        tags[0x8825] = {2: (48.0, 51.0, 24.0)}  # GPSInfo latitude
        image.save(out, "JPEG", exif=tags.tobytes())
    else:
        image.save(out, "PNG")
    return out.getvalue()


def bomb_png(side=60000):
    """A valid PNG header of side x side pixels with a tiny compressed body: a few hundred
    bytes that would decode to billions of pixels."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)  # 1-bit greyscale
    body = zlib.compress(b"\x00" * 4096)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")


def upload(client, name, data, content_type="image/png"):
    return client.post("/settings/picture/", {"picture": SimpleUploadedFile(name, data, content_type)}, follow=True)


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def test_a_generated_face_is_the_same_on_every_request_and_in_another_process(client, alice):
    first = client.get(f"/faces/{alice.pk}/")
    second = client.get(f"/faces/{alice.pk}/")
    assert first.status_code == 200 and first["Content-Type"] == "image/svg+xml"
    assert first.content == second.content == face_svg(alice.pk).encode()
    other_process = subprocess.run(
        [sys.executable, "-c", f"from accounts.faces import face_svg; print(face_svg({alice.pk}), end='')"],
        capture_output=True, text=True, check=True, env={"DJANGO_SETTINGS_MODULE": "okeysite.settings",
                                                         "PATH": "/usr/bin", "PYTHONHASHSEED": "random"})
    assert other_process.stdout == face_svg(alice.pk)


def test_faces_differ_between_accounts_and_are_mirrored(alice, bob):
    faces = {face_svg(n) for n in range(1, 201)}
    assert len(faces) >= 195  # a hash: two ids in 200 may share a face, not many
    assert face_svg(alice.pk) != face_svg(bob.pk)
    for n in range(1, 50):
        cells = set(face_cells(n))
        assert cells == {(4 - c, r) for c, r in cells}


def test_an_unchanged_face_answers_304_to_its_etag(client, alice):
    first = client.get(f"/faces/{alice.pk}/")
    again = client.get(f"/faces/{alice.pk}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_computers_have_their_own_face(client):
    response = client.get("/faces/computer/")
    assert response.status_code == 200 and response.content == COMPUTER_SVG.encode()
    assert COMPUTER_SVG not in {face_svg(n) for n in range(1, 500)}


def test_an_upload_is_reencoded_to_256_webp_without_its_metadata(client, alice):
    client.force_login(alice)
    sent = png_bytes(640, 480, exif=True)
    assert b"SecretCam" in sent
    response = upload(client, "holiday.jpg", sent, "image/jpeg")
    assert messages_of(response) == ["Your picture is saved."]
    stored = bytes(Picture.objects.get(user=alice).data)
    assert b"SecretCam" not in stored and b"Exif" not in stored
    image = Image.open(BytesIO(stored))
    assert (image.format, image.size) == ("WEBP", (256, 256))
    assert not image.getexif() and "icc_profile" not in image.info
    served = client.get(f"/faces/{alice.pk}/")
    assert served["Content-Type"] == "image/webp" and served.content == stored


def test_a_file_that_is_not_an_image_is_refused_with_a_clear_message(client, alice):
    client.force_login(alice)
    response = upload(client, "notes.png", b"these are my notes, not a picture\n" * 50)
    assert messages_of(response) == ["This file is not a picture. Choose a PNG, JPEG, WebP or GIF image."]
    assert not Picture.objects.filter(user=alice).exists()


def test_a_20_mb_file_is_refused_before_it_is_decoded(client, alice):
    client.force_login(alice)
    big = png_bytes(64, 64) + b"\x00" * (20 * 1024 * 1024)
    response = upload(client, "huge.png", big)
    assert messages_of(response) == ["This file is larger than 2 MB. Choose a smaller picture."]
    assert not Picture.objects.filter(user=alice).exists()


@pytest.mark.parametrize("side", [6000, 60000])
def test_a_decompression_bomb_png_is_refused(client, alice, side):
    client.force_login(alice)
    data = bomb_png(side)
    assert len(data) < 2000
    response = upload(client, "bomb.png", data)
    assert messages_of(response) == [
        "This picture has too many pixels to open safely. Choose one under 5000×5000 pixels."]
    assert not Picture.objects.filter(user=alice).exists()


def test_the_refusal_is_said_in_the_players_language(client, alice):
    client.force_login(alice)
    client.cookies["django_language"] = "tr"
    response = upload(client, "notes.png", b"not a picture")
    assert messages_of(response) == ["Bu dosya bir resim değil. PNG, JPEG, WebP veya GIF bir görsel seçin."]


def test_a_player_removes_their_picture_and_the_generated_face_is_back(client, alice):
    client.force_login(alice)
    upload(client, "me.png", png_bytes())
    assert client.get(f"/faces/{alice.pk}/")["Content-Type"] == "image/webp"
    client.post("/settings/picture/", {"remove": "1"})
    assert client.get(f"/faces/{alice.pk}/").content == face_svg(alice.pk).encode()


def test_staff_remove_a_picture_from_the_admin(client, alice, staff):
    client.force_login(alice)
    upload(client, "me.png", png_bytes())
    picture = Picture.objects.get(user=alice)
    client.force_login(staff)
    listing = client.get("/admin/accounts/picture/")
    assert listing.status_code == 200 and f"/faces/{alice.pk}/" in listing.content.decode()
    response = client.post(f"/admin/accounts/picture/{picture.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Picture.objects.filter(user=alice).exists()


def test_the_table_view_puts_a_face_on_every_player_entry(alice, bob):
    from games.play import tables
    from games.snapshot import snapshot

    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", players=3)
    tables.join_table(bob, table.pk)
    _version, view, _seat = snapshot(table.pk, alice)
    assert [p["avatar"] for p in view["players"]] == [f"/faces/{alice.pk}/", f"/faces/{bob.pk}/", None]
    tables.start_match(alice, table.pk)  # the free seat gets a computer
    _version, view, _seat = snapshot(table.pk, alice)
    assert [p["avatar"] for p in view["players"]] == [f"/faces/{alice.pk}/", f"/faces/{bob.pk}/", "/faces/computer/"]
