"""Accounts models, defined in small modules: player settings and moderation (issue 5)."""
from accounts.moderation import ChatMessage, ChatReport, Sanction  # noqa: F401
from accounts.player_settings import PlayerSettings  # noqa: F401
