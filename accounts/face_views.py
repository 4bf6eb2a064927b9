"""Faces over HTTP: a player's face (their picture, else the generated one), the
computers' face, and the settings page's picture upload and removal."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.http import http_date
from django.utils.translation import gettext, gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from accounts.faces import COMPUTER_SVG, face_svg
from accounts.pictures import MAX_UPLOAD_BYTES, Picture, PictureError, remove_picture, save_picture

# A face may change (a new picture): browsers keep it a minute, then ask again (ETag).
FACE_MAX_AGE = 60  # seconds
SVG = "image/svg+xml"


def _image(request, body, content_type, etag, max_age):
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type=content_type)
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={max_age}"
    # an SVG opened on its own must not run anything, a picture must not be sniffed as a page
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def face(request, user_id):
    """`/faces/<user_id>/`: the player's uploaded picture (WebP) if they have one, else
    their generated face (SVG, `accounts.faces.face_svg`). An id with no account still
    gets a generated face: the address says nothing of who exists."""
    picture = Picture.objects.filter(user_id=user_id).values("data", "content_type", "uploaded").first()
    if picture is not None:
        etag = f'"p{user_id}-{int(picture["uploaded"].timestamp())}"'
        response = _image(request, bytes(picture["data"]), picture["content_type"], etag, FACE_MAX_AGE)
        response["Last-Modified"] = http_date(picture["uploaded"].timestamp())
        return response
    return _image(request, face_svg(user_id), SVG, f'"g{user_id}"', FACE_MAX_AGE)


@require_GET
def computer_face(request):
    """`/faces/computer/`: the one face every computer seat shows (SVG)."""
    return _image(request, COMPUTER_SVG, SVG, '"computer-1"', 86400)


class PictureForm(forms.Form):
    """The settings page's upload: one image file (`accounts.pictures.reencode` checks it)."""

    picture = forms.FileField(
        label=_("Your picture"), help_text=_("PNG, JPEG, WebP or GIF, at most 2 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": "image/png,image/jpeg,image/webp,image/gif",
                                               "data-max-bytes": MAX_UPLOAD_BYTES}))


@login_required
@require_POST
def upload_picture(request):
    """POST `/settings/picture/`: store the chosen picture (re-encoded) as the player's
    face, or with `remove` remove it. A refused file is said in a message and changes
    nothing. Redirects to the settings page."""
    if request.POST.get("remove"):
        if remove_picture(request.user):
            messages.success(request, gettext("Your picture is removed: your generated face shows again."))
        return redirect("player_settings")
    form = PictureForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, gettext("Choose a picture file first."))
        return redirect("player_settings")
    try:
        save_picture(request.user, form.cleaned_data["picture"])
    except PictureError as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, gettext("Your picture is saved."))
    return redirect("player_settings")
