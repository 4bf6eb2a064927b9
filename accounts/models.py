"""Accounts models, defined in small modules: player settings and moderation sanctions."""
from accounts.moderation import Sanction  # noqa: F401
from accounts.player_settings import PlayerSettings  # noqa: F401
