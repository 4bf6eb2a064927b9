"""Deleting a player's account (their own choice, or a guest's clean-up).

What goes: the login (name, e-mail addresses, password, second factors), the settings,
their uploaded picture, their friends and blocks, the chat lines they wrote (and their
words copied into abuse reports), the reports they made, their sanctions, solo records,
the reviews of their rounds, and every table nobody else played at. What stays: the
finished games they played with other people, whose seats, scores and rating changes
belong to the other players as much as to them. Those keep pointing at the same `User`
row, emptied and deactivated under the name "deleted-<id>" and shown as "deleted player"
(`accounts.player_settings.display_name`); the other players' ratings are untouched, and
a recomputation (`leaderboards.recording.recompute`) still finds every seat it rated.
"""
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.dispatch import Signal

DELETED_PREFIX = "deleted-"

# Sent inside the erasing transaction with `user` (the row about to be emptied or
# deleted): apps above accounts (friends, notifications) remove what they hold of them.
erasing = Signal()


def is_erased(user):
    """True when `user` is the emptied row of a deleted account (a placeholder in others'
    games). Reads no database row."""
    return (user is not None and not getattr(user, "is_active", True)
            and (user.get_username() or "").startswith(DELETED_PREFIX))


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
        from leaderboards.models import SoloRecord

        SoloRecord.objects.filter(user=user).delete()
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
