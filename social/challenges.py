"""Challenges: a player asks a named player to a new table of any ruleset; the other
accepts (both are seated at a new private table at once) or declines.

The challenge reaches every open page of the challenged player as a box with Accept and
Decline (`social.notifications`). Declining tells the challenger "declined" and nothing
more. Accepting makes the table (RULES.md §6: the challenger creates it and sits in seat
0, the challenged player takes the facing seat), and every open page of the challenger
is offered the way to it. A player who blocked the challenger cannot be challenged by
them (`accounts.relations`).
"""
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from accounts.player_settings import display_name
from accounts.relations import is_blocked
from games.engine import api
from games.errors import TableError, error_message
from games.forms import available_rulesets
from games.models import Table
from games.play import tables
from social.models import Challenge, Notification
from social.notifications import notify, push

LIFETIME = timedelta(minutes=5)  # a challenge not answered by then expires
MAX_PENDING = 5  # challenges one player may have waiting at once

CHALLENGE_ERRORS = {
    "self": _("You cannot challenge yourself."),
    "blocked": _("You cannot follow or challenge this player."),
    "unknown_player": _("There is no such player."),
    "bad_ruleset": _("Choose a game."),
    "too_many_challenges": _("You already have 5 challenges waiting for an answer."),
    "not_found": _("This challenge is no longer waiting for an answer."),
}


class ChallengeError(ValueError):
    """A refused challenge action; `str(error)` is the player's message (translated)."""

    def __init__(self, code, message=None):
        super().__init__(code)
        self.code = code
        self.message = message

    def __str__(self):
        return self.message or str(CHALLENGE_ERRORS.get(self.code, self.code))


def _seats(ruleset):
    rules = api.ruleset(ruleset)
    return 2 if 2 in rules.seat_counts else rules.default_seats


def expire_old():
    """Mark the challenges pending longer than LIFETIME "expired". Returns how many."""
    return Challenge.objects.filter(status=Challenge.Status.PENDING,
                                    created__lt=timezone.now() - LIFETIME).update(status=Challenge.Status.EXPIRED)


def challenge(challenger, challenged, ruleset):
    """`challenger` challenges `challenged` (Users) to a table of `ruleset` (an id the
    lobby offers). A challenge already waiting between them for that game is returned as it
    is. Returns the Challenge (pending); the challenged player's pages get it at once.
    Raises ChallengeError("self" | "blocked" | "unknown_player" | "bad_ruleset" |
    "too_many_challenges")."""
    if challenger.pk == challenged.pk:
        raise ChallengeError("self")
    if not challenged.is_active:
        raise ChallengeError("unknown_player")
    if ruleset not in dict(available_rulesets()):
        raise ChallengeError("bad_ruleset")
    if is_blocked(challenger, challenged):
        raise ChallengeError("blocked")
    expire_old()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=challenger.pk).first()
        waiting = Challenge.objects.filter(challenger=challenger, status=Challenge.Status.PENDING)
        same = waiting.filter(challenged=challenged, ruleset=ruleset).first()
        if same is not None:
            return same
        if waiting.count() >= MAX_PENDING:
            raise ChallengeError("too_many_challenges")
        found = Challenge.objects.create(challenger=challenger, challenged=challenged, ruleset=ruleset)
        notify(challenged.pk, Notification.Kind.CHALLENGE, actor=challenger, challenge=found)
    return found


def _pending_for(user, challenge_id, field):
    found = (Challenge.objects.select_for_update().filter(pk=challenge_id, status=Challenge.Status.PENDING,
                                                          **{field: user}).first())
    if found is None or found.created < timezone.now() - LIFETIME:
        raise ChallengeError("not_found")
    return found


def _close_everywhere(found):
    # the box closes on every page of the challenged player, whichever page answered
    push(found.challenged_id, {"type": "page.frame", "frame": {"type": "challenge_closed", "id": found.pk}})


def accept(user, challenge_id):
    """`user` accepts challenge `challenge_id` (int) made to them: a private online table of
    its ruleset is created with the challenger in seat 0 and `user` in the facing seat
    (`games.play.tables`); the challenger's pages are offered the way to it. Returns the
    Table. Raises ChallengeError("not_found"), or with the table's refusal as its message
    (e.g. the challenger has too many tables open)."""
    with transaction.atomic():
        found = _pending_for(user, challenge_id, "challenged")
        try:
            table = tables.create_table(found.challenger, ruleset=found.ruleset, mode=Table.Mode.ONLINE, private=True,
                                        players=_seats(found.ruleset))
            tables.join_table(user, table.pk, invite=table.invite_code)
        except TableError as refused:
            raise ChallengeError(refused.code, error_message(refused.code)) from None
        found.status, found.table, found.answered = Challenge.Status.ACCEPTED, table, timezone.now()
        found.save(update_fields=["status", "table", "answered"])
        push(found.challenger_id, {"type": "page.challenge", "id": found.pk})
        _close_everywhere(found)
    return table


def decline(user, challenge_id):
    """`user` declines challenge `challenge_id` (int) made to them. The challenger is told
    "declined", with no reason. Returns None. Raises ChallengeError("not_found")."""
    with transaction.atomic():
        found = _pending_for(user, challenge_id, "challenged")
        found.status, found.answered = Challenge.Status.DECLINED, timezone.now()
        found.save(update_fields=["status", "answered"])
        notify(found.challenger_id, Notification.Kind.DECLINED, actor=user, challenge=found)
        _close_everywhere(found)


def cancel_between(a, b):
    """Cancel every challenge waiting between users `a` and `b` (a block does). Returns how many."""
    from django.db.models import Q

    waiting = Challenge.objects.filter(Q(challenger=a, challenged=b) | Q(challenger=b, challenged=a),
                                       status=Challenge.Status.PENDING)
    closed = list(waiting)
    for found in closed:
        _close_everywhere(found)
    return waiting.update(status=Challenge.Status.CANCELLED)


def accepted_frame(found):
    """The frame a challenger's page gets when `found` (an accepted Challenge) was accepted,
    in the active language: {"type": "challenge_accepted", "id", "text", "url" (the
    table), "go" (the button's label)}."""
    return {"type": "challenge_accepted", "id": found.pk,
            "text": gettext("%(name)s accepted your challenge: the table is ready.") % {
                "name": display_name(found.challenged)},
            "url": reverse("table", args=[found.table_id]) if found.table_id else reverse("lobby"),
            "go": gettext("Go to the table")}
