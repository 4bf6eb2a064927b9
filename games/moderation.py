"""Admin actions on tables and matches (issue 5 "Moderation"): close a table, void a match.

Closing a table changes a stored game, so it lives in `games.services.close_table`
(the one writer, ARCHITECTURE.md invariant 2); the admin action here only calls it.
"""
from games.services import close_table


def void_match(match, reason, by=None):
    """Void a match (admin): it stops counting for ratings and solo records; ratings of its
    ruleset are recomputed without it. See `leaderboards.recording.void_match`.
    Returns the VoidedMatch. Raises ValueError on an empty reason."""
    from leaderboards.recording import void_match as void

    return void(match, reason, by)


# ------------------------------------------------------------------ admin actions


def _close_apply(request, table, reason, until):
    return close_table(table.pk, reason, by=request.user)


def _void_apply(request, match, reason, until):
    from leaderboards.models import VoidedMatch

    if VoidedMatch.objects.filter(match=match).exists():
        return False
    void_match(match, reason, by=request.user)
    return True


def admin_actions():
    """(close_tables, void_matches): admin actions for TableAdmin and MatchAdmin."""
    from django.utils.translation import gettext_lazy as _

    from accounts.admin_actions import reason_action

    return (reason_action(_close_apply, _("Close the tables"), name="close_tables"),
            reason_action(_void_apply, _("Void the matches (ratings are recomputed)"), name="void_matches"))
