"""Deleting a player's account (their own choice, or a guest's clean-up).

What goes: the login (name, e-mail addresses, password, second factors), the settings,
their uploaded picture, their friends and blocks, the chat lines they wrote (and their
words copied into abuse reports), the reports they made, their sanctions, solo records,
profile figures (`leaderboards.summaries`), the reviews of their rounds, and every table
nobody else played at. What stays: the finished games they played with other people,
whose seats, scores and rating changes belong to the other players as much as to them.
Those keep pointing at the same `User` row, emptied and deactivated under the name
"deleted-<id>" and shown as "deleted player" (`accounts.player_settings.display_name`);
the other players' ratings are untouched, and a recomputation
(`leaderboards.recording.recompute`) still finds every seat it rated.
"""
import time

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.dispatch import Signal
from django.utils import timezone

from accounts.erased import DELETED_PREFIX

REMOVAL_EVERY = 600.0  # seconds between two looks for stale guests (per process)

# Sent inside the erasing transaction with `user` (the row about to be emptied or
# deleted): apps above accounts (friends, notifications) remove what they hold of them.
erasing = Signal()


def _scrub_reports(user):
    from games.chat.models import ChatReport

    # Reports by others keep the table's recent lines for the moderators; the deleted
    # player's own words in them go like the lines themselves.
    for report in ChatReport.objects.filter(lines__contains=[{"user_id": user.pk}]):
        report.lines = [line if line.get("user_id") != user.pk else {**line, "user": "", "text": ""}
                        for line in report.lines]
        report.save(update_fields=["lines"])


def erase_user(user):
    """Delete `user`'s account as described in the module docstring, in one transaction.

    Returns "deleted" (no game with anyone else: the row itself is gone) or "anonymised"
    (the row stays, emptied, under games shared with other players)."""
    from allauth.account.models import EmailAddress
    from allauth.mfa.models import Authenticator

    from accounts.guests import Guest
    from accounts.moderation import Sanction
    from accounts.pictures import Picture
    from accounts.player_settings import PlayerSettings
    from accounts.relations import Block, Follow
    from games.chat.models import ChatMessage, ChatReport
    from games.models import RoundReview, Seat, Table

    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        others = Seat.objects.filter(table=OuterRef("pk"), user__isnull=False).exclude(user=user)
        Table.objects.filter(Q(creator=user) | Q(seats__user=user)).annotate(
            shared=Exists(others)).filter(shared=False).delete()
        _scrub_reports(user)
        erasing.send(sender=erase_user, user=user)
        Follow.objects.filter(Q(follower=user) | Q(followed=user)).delete()
        Block.objects.filter(Q(blocker=user) | Q(blocked=user)).delete()
        ChatMessage.objects.filter(user=user).delete()
        ChatReport.objects.filter(reporter=user).delete()
        if not (Seat.objects.filter(user=user).exists() or Table.objects.filter(creator=user).exists()):
            user.delete()
            return "deleted"
        from leaderboards.models import PlayerSummary, SoloRecord

        SoloRecord.objects.filter(user=user).delete()
        # their figures are a profile's, and an erased player has none; the other
        # players' summaries keep the shared matches
        PlayerSummary.objects.filter(user=user).delete()
        RoundReview.objects.filter(user=user).delete()
        for model in (EmailAddress, Authenticator, PlayerSettings, Guest, Sanction, Picture):
            model.objects.filter(user=user).delete()
        user.username = f"{DELETED_PREFIX}{user.pk}"
        user.email = user.first_name = user.last_name = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.last_login = None
        user.set_unusable_password()
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        return "anonymised"


def stale_guests(now=None):
    """QuerySet of the Guest rows unused for `accounts.guests.GUEST_LIFETIME` at `now`
    (datetime, default now)."""
    from accounts.guests import GUEST_LIFETIME, Guest

    now = now or timezone.now()
    return Guest.objects.filter(last_seen__lt=now - GUEST_LIFETIME).select_related("user")


def remove_stale_guests(now=None, limit=200):
    """Remove at most `limit` guests unused for `GUEST_LIFETIME` (`erase_user`: tables only
    they played go, shared finished games stay under "deleted player").
    Returns the number removed."""
    removed = 0
    for guest in stale_guests(now)[:limit]:
        try:
            erase_user(guest.user)
        except get_user_model().DoesNotExist:
            continue  # another worker's sweep removed it first
        removed += 1
    return removed


_next_removal = [0.0]  # time.monotonic() of this process's next look for stale guests


def remove_stale_guests_when_due(every=REMOVAL_EVERY):
    """`remove_stale_guests` at most once per `every` seconds in this process: the sweep
    calls it every couple of seconds, a look at the guests is due far less often. Returns
    the number removed (0 when not due)."""
    now = time.monotonic()
    if now < _next_removal[0]:
        return 0
    _next_removal[0] = now + every
    return remove_stale_guests()
