"""Stored social rows: challenges between players, notifications, and the open pages that
make a player's presence.

Follows and blocks are accounts' (`accounts.relations`): they are about accounts alone.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import RULESET_CHOICES, Table


class Challenge(models.Model):
    """`challenger` asks `challenged` to play a new table of `ruleset` (RULES.md §6).

    Pending until answered: "accepted" once the table is made (`table`), "declined",
    "cancelled" by the challenger (or by a block), "expired" after
    `social.challenges.LIFETIME`.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")
        EXPIRED = "expired", _("expired")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="challenges_received")
    ruleset = models.CharField(max_length=16, choices=RULESET_CHOICES)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    answered = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")

    def __str__(self):
        return f"{self.challenger} challenges {self.challenged} ({self.ruleset}, {self.status})"


class Notification(models.Model):
    """One line of `user`'s notification list. `kind` says what happened; `actor` is the
    player it is about (None for "your turn"), `table` the table it leads to, `challenge`
    the challenge it carries. Its text is written when shown, in the reader's language
    (`social.notifications.text`)."""

    class Kind(models.TextChoices):
        CHALLENGE = "challenge", _("challenge")
        DECLINED = "declined", _("challenge declined")
        YOUR_TURN = "your_turn", _("your turn")
        TABLE_STARTED = "table_started", _("new table")
        FRIEND_REQUEST = "friend_request", _("friend request")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    challenge = models.ForeignKey(Challenge, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    read = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created", "-id"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")

    def __str__(self):
        return f"{self.kind} for {self.user}"


class PageSocket(models.Model):
    """One open page of a signed-in player (its `/ws/me/` socket, `channel`): where they
    are (`table`, and `seated` there or only watching). `seen` is refreshed by the socket's
    heartbeat, so a row left behind by a process that died stops counting after
    `social.presence.TTL`."""

    channel = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    seated = models.BooleanField(default=False)
    seen = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("open page")
        verbose_name_plural = _("open pages")
