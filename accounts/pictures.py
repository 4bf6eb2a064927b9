"""A player's optional uploaded picture, which replaces their generated face (`accounts.faces`).

The upload is never stored as sent: Pillow decodes it and a new 256x256 WebP is written
from the pixels alone, so no metadata (EXIF, GPS, ICC, comments) and no trailing bytes
of the original survive. The stored picture is a few kilobytes: it lives in its row,
with no media storage to serve or back up apart from the database.
"""
import warnings
from io import BytesIO

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy as _

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # bytes accepted in (2 MB)
MAX_PIXELS = 5000 * 5000  # width x height decoded at most: a larger picture is a decompression bomb to us
SIDE = 256  # pixels, the stored square
FORMAT = "WEBP"
CONTENT_TYPE = "image/webp"
ACCEPTED_FORMATS = {"PNG", "JPEG", "WEBP", "GIF"}


class PictureError(ValueError):
    """An upload refused; `str(error)` is the message for the player (translated)."""


class Picture(models.Model):
    """`user`'s uploaded picture, re-encoded (`reencode`): `data` holds the stored image
    bytes of type `content_type`; `uploaded` dates it (and versions its address)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="picture")
    data = models.BinaryField()
    content_type = models.CharField(max_length=32, default=CONTENT_TYPE)
    uploaded = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "accounts"
        verbose_name = _("picture")
        verbose_name_plural = _("pictures")

    def __str__(self):
        return f"picture of {self.user}"


def reencode(upload):
    """Decode an uploaded file and write it again as a SIDE x SIDE WebP, centre-cropped.

    Args: `upload` (a Django UploadedFile, or any binary file object with `size`).
    Returns bytes (the WebP). Raises PictureError, with a message for the player, for a
    file over MAX_UPLOAD_BYTES, one that is not a PNG, JPEG, WebP or GIF image, or one
    whose pixels would exceed MAX_PIXELS once decoded (a decompression bomb). The size is
    checked before a byte is decoded, the pixel count before the pixels are.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    size = getattr(upload, "size", None)
    if size is None or size > MAX_UPLOAD_BYTES:
        raise PictureError(gettext("This file is larger than 2 MB. Choose a smaller picture."))
    if hasattr(upload, "seek"):
        upload.seek(0)
    try:
        with warnings.catch_warnings():
            # Pillow only warns between its two limits; ours, lower, refuses those anyway
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(upload)
        with image:
            if image.format not in ACCEPTED_FORMATS:
                raise PictureError(gettext("This file is not a picture. Choose a PNG, JPEG, WebP or GIF image."))
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise PictureError(_too_many_pixels())
            image.seek(0)  # an animation's first frame
            image = ImageOps.exif_transpose(image)  # upright first: the orientation tag goes with the rest
            image = image.convert("RGBA")
            square = ImageOps.fit(image, (SIDE, SIDE), method=Image.Resampling.LANCZOS)
    except PictureError:
        raise
    except Image.DecompressionBombError:  # Pillow's own limit, met before ours when the header claims billions
        raise PictureError(_too_many_pixels()) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise PictureError(gettext("This file is not a picture. Choose a PNG, JPEG, WebP or GIF image.")) from None
    # Built from the pixels only: no info dict, EXIF or ICC profile is passed on.
    clean = Image.new("RGBA", (SIDE, SIDE))
    clean.paste(square)
    out = BytesIO()
    clean.save(out, FORMAT, quality=85, method=4)
    return out.getvalue()


def _too_many_pixels():
    return gettext("This picture has too many pixels to open safely. Choose one under 5000×5000 pixels.")


def save_picture(user, upload):
    """Re-encode `upload` (`reencode`) and make it `user`'s picture, replacing any earlier
    one. Returns the Picture. Raises PictureError (nothing is stored then)."""
    data = reencode(upload)
    picture, _created = Picture.objects.update_or_create(user=user, defaults={"data": data,
                                                                             "content_type": CONTENT_TYPE})
    return picture


def remove_picture(user):
    """Remove `user`'s picture (their generated face shows again). Returns True when one
    was removed."""
    deleted, _rows = Picture.objects.filter(user=user).delete()
    return bool(deleted)
