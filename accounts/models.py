"""Accounts models, defined in small modules: player settings, moderation sanctions, guests,
uploaded pictures, follows and blocks."""
from accounts.guests import Guest  # noqa: F401
from accounts.moderation import Sanction  # noqa: F401
from accounts.pictures import Picture  # noqa: F401
from accounts.player_settings import PlayerSettings  # noqa: F401
from accounts.relations import Block, Follow  # noqa: F401
