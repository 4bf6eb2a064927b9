"""Admin actions on tables and matches: close a table, void a match (each asks for a
reason first, `accounts.admin_actions.reason_action`).

Closing a table changes a stored game, so it is `games.play.tables.close_table` (the one
writer, ARCHITECTURE.md invariant 2); voiding a match is the ratings' business
(`leaderboards.recording.void_match`). The actions here only call them.
"""
from django.utils.translation import gettext_lazy as _

from accounts.admin_actions import reason_action
from games.play.tables import close_table
from leaderboards.models import VoidedMatch
from leaderboards.recording import void_match


def _close_apply(request, table, reason, until):
    return close_table(table.pk, reason, by=request.user)


def _void_apply(request, match, reason, until):
    if VoidedMatch.objects.filter(match=match).exists():
        return False
    void_match(match, reason, by=request.user)
    return True


def admin_actions():
    """(close_tables, void_matches): the admin actions of TableAdmin and MatchAdmin."""
    return (reason_action(_close_apply, _("Close the tables"), name="close_tables"),
            reason_action(_void_apply, _("Void the matches (ratings are recomputed)"), name="void_matches"))
