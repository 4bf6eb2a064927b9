"""Admin actions on tables and matches (issue 5 "Moderation"): close a table, void a match.

`close_table` follows `games.services`' write discipline (lock the Game row, bump the
version, broadcast after commit) so the table's sockets see the closed status at once.
It belongs in `games.services` (the one writer); it lives here until the server
developer moves it.
"""
import logging

from django.db import transaction

from games import services
from games.models import Game, Table

log = logging.getLogger("games.moderation")


def close_table(table_id, reason, by=None):
    """Close a table (open or playing) for moderation: no more moves, timers stop.

    Args: `table_id` (int), `reason` (str, required: logged and shown to the table's
    players as a chat line), `by` (the staff user or None). A finished match stays finished
    (and rated); an unfinished one is never rated. Returns True when the table was closed
    now, False when it was already finished or closed. Raises ValueError on an empty
    reason, services.ServiceError("not_found").
    """
    if not (reason or "").strip():
        raise ValueError("closing a table needs a reason")
    with transaction.atomic():
        game = services._lock_game(table_id)
        table = game.table
        if table.status in (Table.Status.FINISHED, Table.Status.CLOSED):
            return False
        table.status = Table.Status.CLOSED
        table.save(update_fields=["status"])
        game.deadline = None
        game.deadline_kind = Game.Deadline.NONE
        game.version += 1
        game.save(update_fields=["deadline", "deadline_kind", "version"])
        log.info("table %s closed by %s: %s", table_id, by, reason)
        services._after_commit_broadcast(table.pk, game.version, refresh=True)
        services._after_commit_lobby()
    if by is not None:
        from games.chat import system_line

        system_line(table_id, by, reason)
    return True


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
