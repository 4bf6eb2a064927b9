"""Generated faces: a deterministic SVG avatar per account, and one face for every computer.

A player's face is drawn from a hash of their user id, so it is the same on every page
and every server, for ever, without storing anything; an uploaded picture
(`accounts.pictures`) replaces it where the player has one. The shape is the identicon
kind: a 5x5 grid mirrored left to right, in one colour on a light ground. A computer's
face is a different kind of drawing (a screen with two eyes), so it never passes for a
player's.
"""
import hashlib
from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

GRID = 5  # cells per side; the left three columns are drawn, the right two mirror them
CELL = 10  # SVG units per cell
MARGIN = 5  # SVG units around the grid
SIZE = GRID * CELL + 2 * MARGIN  # the viewBox side (60)


def _digest(user_id):
    return hashlib.sha256(f"okeysite-face:{int(user_id)}".encode()).digest()


def face_colours(user_id):
    """The (ink, ground) colours of `user_id`'s face (int -> two "hsl(...)" strs): the hue
    comes from the hash, saturation and lightness are fixed so every face reads on the felt."""
    hue = int.from_bytes(_digest(user_id)[:2], "big") % 360
    return f"hsl({hue} 55% 42%)", f"hsl({hue} 40% 92%)"


def face_cells(user_id):
    """The filled cells of `user_id`'s face: a sorted list of (column, row), 0-4, mirrored
    left to right (column c filled iff 4 - c is). At least one cell is always filled."""
    bits = int.from_bytes(_digest(user_id)[2:], "big")
    cells = []
    for row in range(GRID):
        for column in range((GRID + 1) // 2):
            if bits >> (row * 3 + column) & 1:
                cells.append((column, row))
                if column != GRID - 1 - column:
                    cells.append((GRID - 1 - column, row))
    return sorted(cells) or [(2, 2)]


def face_svg(user_id):
    """The SVG document (str) of `user_id`'s (int) generated face: a square of SIZE units
    with rounded corners. The same id always gives the same bytes."""
    ink, ground = face_colours(user_id)
    rects = "".join(f'<rect x="{MARGIN + c * CELL}" y="{MARGIN + r * CELL}" width="{CELL}" height="{CELL}"/>'
                    for c, r in face_cells(user_id))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" width="{SIZE}" height="{SIZE}">'
            f'<rect width="{SIZE}" height="{SIZE}" rx="12" fill="{ground}"/><g fill="{ink}">{rects}</g></svg>')


# A screen with an antenna and two square eyes, in grey-blue: no player's face looks so.
COMPUTER_SVG = (
    f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" width="{SIZE}" height="{SIZE}">'
    f'<rect width="{SIZE}" height="{SIZE}" rx="12" fill="#dde5ee"/>'
    '<line x1="30" y1="6" x2="30" y2="14" stroke="#3d5a80" stroke-width="3"/>'
    '<circle cx="30" cy="6" r="3" fill="#e07a5f"/>'
    '<rect x="10" y="14" width="40" height="32" rx="6" fill="#3d5a80"/>'
    '<rect x="18" y="23" width="8" height="8" fill="#98c1d9"/><rect x="34" y="23" width="8" height="8" fill="#98c1d9"/>'
    '<rect x="21" y="37" width="18" height="3" fill="#98c1d9"/>'
    '<rect x="16" y="48" width="28" height="6" rx="2" fill="#3d5a80"/></svg>'
)


def face_url(user_id):
    """The address of `user_id`'s face (int -> str): their uploaded picture if they have
    one, else the generated face (`accounts.face_views.face`)."""
    return _reversed(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, "face", int(user_id))


def computer_face_url():
    """The address of the computers' face (str)."""
    return _reversed(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, "computer_face", None)


@lru_cache(maxsize=4096)
def _reversed(prefix, urlconf, name, user_id):
    # Every view of every version names each seat's face: the address is worked out once
    # per process for each user, script prefix and URL configuration (`reverse` walks the
    # resolver each time, a few per cent of a version's CPU).
    return reverse(name, urlconf=urlconf, args=[user_id] if user_id is not None else None)
