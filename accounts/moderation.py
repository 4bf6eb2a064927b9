"""Moderation: sanctions (suspend, ban, mute) with a reason the user sees (PLAYERS.md
complaint 5).

A suspended or banned user cannot use the site: `SuspensionMiddleware` logs them out and
shows the reason, the table sockets refuse them, and `sanction()` closes the sockets they
have open (a `user.kick` message to their `user-<id>` group). What a sanction means at
the game tables is the games' business: `sanction()` sends the `sanctioned` signal after
its transaction commits, and the games app (which this module never imports) receives it.
"""
import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.db import models, transaction
from django.db.models import Q
from django.dispatch import Signal
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy as _

from okeysite import socket_groups

log = logging.getLogger("okeysite.moderation")

KICK_CLOSE_CODE = 4403  # WebSocket close code sent to a suspended user's sockets

sanctioned = Signal()
"""Sent by `sanction()` once the sanction is committed: sender `Sanction`, `sanction` (the
new, active Sanction). `Sanction.keeps_out` says whether the user must leave the tables."""


class Sanction(models.Model):
    """A moderation action on a user, with the reason shown to them.

    `kind`: "suspend" (until `until`), "ban" (no end), "mute" (no chat until `until`, or
    for good when None). It is active while not lifted and `until` is None or in the future.
    """

    class Kind(models.TextChoices):
        SUSPEND = "suspend", _("suspension")
        BAN = "ban", _("ban")
        MUTE = "mute", _("mute")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    reason = models.CharField(_("reason (shown to the user)"), max_length=300)
    until = models.DateTimeField(_("until"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    lifted = models.DateTimeField(_("lifted"), null=True, blank=True)

    class Meta:
        app_label = "accounts"
        ordering = ["-created"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")

    def __str__(self):
        return f"{self.kind} of {self.user}"

    @property
    def active(self):
        """True while not lifted and not past `until`."""
        return self.lifted is None and (self.until is None or self.until > timezone.now())

    @property
    def keeps_out(self):
        """True for a suspension or a ban: the user may not use the site (nor sit at a table)."""
        return self.kind in (self.Kind.SUSPEND, self.Kind.BAN)


def _active(user, kinds):
    now = timezone.now()
    return (Sanction.objects.filter(user=user, kind__in=kinds, lifted__isnull=True)
            .filter(Q(until__isnull=True) | Q(until__gt=now)).order_by("-created").first())


def keeping_out(now=None):
    """The Sanctions that keep their user out now (suspensions and bans, not lifted, not
    past `until`), newest first: a queryset to prefetch for many users at once."""
    now = now or timezone.now()
    return (Sanction.objects.filter(kind__in=[Sanction.Kind.SUSPEND, Sanction.Kind.BAN], lifted__isnull=True)
            .filter(Q(until__isnull=True) | Q(until__gt=now)).order_by("-created"))


def active_suspension(user):
    """The active suspension or ban of `user` (a Sanction), or None. Anonymous users: None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return _active(user, [Sanction.Kind.SUSPEND, Sanction.Kind.BAN])


def active_mute(user):
    """The active mute (or suspension/ban, which also silences) of `user`, or None."""
    return _active(user, [Sanction.Kind.MUTE, Sanction.Kind.SUSPEND, Sanction.Kind.BAN])


def suspension_message(found):
    """What a suspended or banned user is told (str, in the active language): the kind,
    the reason and, for a suspension, its end (UTC). `found` is an active Sanction."""
    if found.kind == Sanction.Kind.BAN:
        text = gettext("Your account is banned. Reason: %(reason)s") % {"reason": found.reason}
    else:
        text = gettext("Your account is suspended. Reason: %(reason)s") % {"reason": found.reason}
    if found.until is not None:
        until = formats.date_format(timezone.localtime(found.until), "DATETIME_FORMAT")  # TIME_ZONE is UTC
        text += " " + gettext("Until %(until)s (UTC).") % {"until": until}
    return text


def kick_sockets(user_id):
    """Close every open WebSocket of user `user_id` (after the current transaction commits)."""

    socket_groups.send_after_commit([(socket_groups.user_group(user_id), {"type": "user.kick"})], "kick")


def sanction(user, kind, reason, until=None, by=None):
    """Record a sanction on `user` and apply it at once.

    Args: `kind` ("suspend" | "ban" | "mute"), `reason` (str shown to the user, required),
    `until` (aware datetime or None: a ban ignores it), `by` (the staff user or None).
    Suspensions and bans close the user's open sockets. Once the sanction is committed the
    `sanctioned` signal goes out (the games release the user's seats on it).
    Returns the Sanction. Raises ValueError on an unknown kind or an empty reason.
    """
    if kind not in Sanction.Kind.values:
        raise ValueError(f"unknown sanction {kind!r}")
    if not (reason or "").strip():
        raise ValueError("a sanction needs a reason the user can see")
    with transaction.atomic():
        obj = Sanction.objects.create(
            user=user, kind=kind, reason=reason.strip(), until=None if kind == Sanction.Kind.BAN else until,
            created_by=by,
        )
        if obj.keeps_out:
            kick_sockets(user.pk)
        # After the commit: the receivers lock game rows in transactions of their own.
        transaction.on_commit(lambda: sanctioned.send(sender=Sanction, sanction=obj))
    return obj


def lift(sanction_obj):
    """End a sanction now. Returns the Sanction."""
    sanction_obj.lifted = timezone.now()
    sanction_obj.save(update_fields=["lifted"])
    return sanction_obj


class SuspensionMiddleware:
    """Log out a suspended or banned user on any request and show them the reason (403).

    Put after `AuthenticationMiddleware`. Staff keep no exception: a suspended admin is out too.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        found = active_suspension(user)
        if found is not None:
            # Drop queued messages such as allauth's "Successfully signed in as ...": the
            # user is not signed in, and the page says why.
            for _message in messages.get_messages(request):
                pass
            logout(request)
            return render(request, "accounts/suspended.html", {"sanction": found, "messages": []}, status=403)
        return self.get_response(request)
