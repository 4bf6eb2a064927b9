"""Accounts models, defined in small modules: player settings, moderation sanctions, guests and
uploaded pictures."""
from accounts.guests import Guest  # noqa: F401
from accounts.moderation import Sanction  # noqa: F401
from accounts.pictures import Picture  # noqa: F401
from accounts.player_settings import PlayerSettings  # noqa: F401
