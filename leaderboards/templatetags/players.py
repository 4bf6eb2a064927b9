"""Template helpers for players: `{{ user|player_name }}`, `{{ user|face }}` (their face's address)."""
from django import template

from accounts.faces import face_url
from accounts.player_settings import display_name

register = template.Library()


@register.filter
def player_name(user):
    """The display name of `user` (their chosen name, else the username)."""
    return display_name(user)


@register.filter
def face(user):
    """The address of `user`'s face (a User or a user id): their picture or generated face
    (`accounts.faces.face_url`)."""
    return face_url(getattr(user, "pk", user))
