"""The in-site notification list: challenges, a declined challenge, "it's your turn" at a
table whose page is in the background, a followed player's new public table, a friend
request.

`notify` stores a line and, after the commit, tells every open page of its reader
(`pages_group`); each page socket writes the line in its own language (`item`) and the
page shows it at once (a challenge as a box with Accept and Decline; the others as a
toast, and as a browser notification where the player allowed them).
"""
from django.urls import reverse
from django.utils.translation import gettext

from accounts.player_settings import display_name
from games.models import ruleset_name
from okeysite import socket_groups
from social.models import Challenge, Notification

LIST_LENGTH = 50  # lines the list page shows


def notify(user_id, kind, actor=None, table=None, challenge=None):
    """Store a notification of `kind` (a `Notification.Kind`) for user `user_id` (int) and
    push it to their open pages after the commit. `actor` (User), `table` (Table) and
    `challenge` (Challenge) as the kind needs. Returns the Notification."""
    note = Notification.objects.create(user_id=user_id, kind=kind, actor=actor, table=table, challenge=challenge)
    push(user_id, {"type": "page.notification", "id": note.pk})
    return note


def push(user_id, message):
    """Send `message` (a dict whose "type" a page socket handles: "page.frame",
    "page.notification", "page.challenge") to every open page of `user_id` (int) after the
    commit. Returns None."""
    socket_groups.send_after_commit([(socket_groups.pages_group(user_id), message)], "page message")


def text(note):
    """The line of `note` (a Notification with its actor, table and challenge loaded) in
    the active language (str)."""
    name = display_name(note.actor) if note.actor_id else ""
    if note.kind == Notification.Kind.CHALLENGE:
        return gettext("%(name)s challenges you to a game of %(game)s.") % {
            "name": name, "game": ruleset_name(note.challenge.ruleset if note.challenge else "")}
    if note.kind == Notification.Kind.DECLINED:
        return gettext("%(name)s declined.") % {"name": name}
    if note.kind == Notification.Kind.YOUR_TURN:
        return gettext("It's your turn at table %(table)s.") % {"table": note.table_id}
    if note.kind == Notification.Kind.TABLE_STARTED:
        return gettext("%(name)s opened a table of %(game)s.") % {
            "name": name, "game": note.table.ruleset_name if note.table_id else ""}
    if note.kind == Notification.Kind.FRIEND_REQUEST:
        return gettext("%(name)s follows you. Follow back to be friends.") % {"name": name}
    return ""


def url(note):
    """Where `note` leads (str): its table, the player it is about, or the list."""
    if note.table_id:
        return reverse("table", args=[note.table_id])
    if note.actor_id and note.actor.is_active:
        return reverse("player_profile", args=[note.actor.get_username()])
    return reverse("notifications")


def item(note):
    """`note` (a Notification) as the pages show it, in the active language: {"id",
    "kind", "text", "url", "created" (ISO 8601), "read", "challenge" (for a challenge still
    waiting: {"id", "accept", "decline" (button labels), "accept_url", "decline_url"};
    else None)}."""
    pending = note.challenge if note.challenge_id and note.challenge.status == Challenge.Status.PENDING else None
    return {
        "id": note.pk, "kind": note.kind, "text": text(note), "url": url(note), "created": note.created.isoformat(),
        "read": note.read,
        "challenge": None if pending is None or note.kind != Notification.Kind.CHALLENGE else {
            "id": pending.pk, "accept": gettext("Accept"), "decline": gettext("Decline"),
            "accept_url": reverse("challenge_answer", args=[pending.pk, "accept"]),
            "decline_url": reverse("challenge_answer", args=[pending.pk, "decline"]),
        },
    }


def loaded(queryset):
    """`queryset` of Notifications with what `text` and `url` read."""
    return queryset.select_related("actor", "actor__player_settings", "table", "challenge")


def unread_count(user):
    """How many of `user`'s notifications are unread (int)."""
    return Notification.objects.filter(user=user, read=False).count()
