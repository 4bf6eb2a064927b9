"""Template helpers for player names: `{{ user|player_name }}`."""
from django import template

from accounts.player_settings import display_name

register = template.Library()


@register.filter
def player_name(user):
    """The display name of `user` (their chosen name, else the username)."""
    return display_name(user)
