"""Players' presence from their open pages: offline, online, at a table or watching one.

Every page of the site a signed-in player has open holds one `/ws/me/` socket
(`social.page_socket`), stored as a `PageSocket` row with the table the page shows, if
any. A player's presence is the strongest of their live rows: "playing" (a page of a
table where they hold a seat in a match not over), "watching" (a table page without such
a seat), "online" (any other page), else "offline". Whenever a page opens or closes and
the player's presence changes, every player who follows them (and whom they did not
block) gets a `presence` frame on each of their open pages, sent after the commit.
"""
from datetime import timedelta

from django.db import transaction
from django.urls import Resolver404, resolve
from django.utils import timezone

from accounts.player_settings import display_name
from accounts.relations import Block, Follow
from games.models import Seat, Table
from okeysite import socket_groups
from social.models import PageSocket

TTL = timedelta(seconds=90)  # a row whose socket's heartbeat stopped this long ago counts no more
SEEN_EVERY = timedelta(seconds=20)  # `seen` is written at most this often per socket
RANK = {"offline": 0, "online": 1, "watching": 2, "playing": 3}
LIVE = (Table.Status.OPEN, Table.Status.PLAYING)


def table_of_path(path):
    """The table id (int) a page's path shows ("/table/12/" -> 12), else None."""
    try:
        match = resolve(path or "/")
    except Resolver404:
        return None
    return match.kwargs.get("table_id") if match.url_name == "table" else None


def _state(row):
    if row["table_id"] is None:
        return "online"
    return "playing" if row["seated"] else "watching"


def presence_of(user_ids):
    """The presence of each of `user_ids` (iterable of int): {id: {"state": "offline" |
    "online" | "watching" | "playing", "table": a public table's id or None}}. A private
    table's id is never given: only those it invited may find it."""
    out = {uid: {"state": "offline", "table": None} for uid in user_ids}
    rows = (PageSocket.objects.filter(user_id__in=list(out), seen__gte=timezone.now() - TTL)
            .values("user_id", "table_id", "seated", "table__private"))
    for row in rows:
        state = _state(row)
        if RANK[state] > RANK[out[row["user_id"]]["state"]]:
            table = row["table_id"] if row["table_id"] and not row["table__private"] else None
            out[row["user_id"]] = {"state": state, "table": table}
    return out


def page_opened(channel, user, path):
    """Record `user`'s page at `path` (str) open on socket `channel` (str) and tell their
    followers if their presence changed. Returns the page's row (PageSocket)."""
    table_id = table_of_path(path)
    seated = False
    if table_id is not None:
        if not Table.objects.filter(pk=table_id).exists():
            table_id = None
        else:
            seated = Seat.objects.filter(table_id=table_id, user=user, left=False,
                                         table__status__in=LIVE).exists()
    with transaction.atomic():
        before = presence_of([user.pk])[user.pk]
        # rows a dead process left behind count no more: the player's own go now
        PageSocket.objects.filter(user=user, seen__lt=timezone.now() - TTL).delete()
        row, _created = PageSocket.objects.update_or_create(
            channel=channel, defaults={"user": user, "table_id": table_id, "seated": seated, "seen": timezone.now()})
        _publish(user, before)
    return row


def page_seen(channel):
    """The page on `channel` is still open (its heartbeat): refresh its row, at most once
    per SEEN_EVERY. Returns None."""
    now = timezone.now()
    PageSocket.objects.filter(channel=channel, seen__lt=now - SEEN_EVERY).update(seen=now)


def page_closed(channel):
    """The page on `channel` closed: forget it and tell the player's followers if their
    presence changed. Returns None."""
    row = PageSocket.objects.filter(channel=channel).select_related("user").first()
    if row is None:
        return
    with transaction.atomic():
        before = presence_of([row.user_id])[row.user_id]
        row.delete()
        _publish(row.user, before)


def presence_frame(user, presence):
    """The `presence` frame of `user` (a User) in `presence` ({"state", "table"}) for a
    follower's pages: {"type": "presence", "user" (id), "username", "name", "state", "table"}."""
    return {"type": "presence", "user": user.pk, "username": user.get_username(), "name": display_name(user),
            **presence}


def _publish(user, before):
    after = presence_of([user.pk])[user.pk]
    if after == before:
        return
    blocked = Block.objects.filter(blocker=user).values_list("blocked_id", flat=True)
    followers = Follow.objects.filter(followed=user).exclude(follower_id__in=blocked).values_list("follower_id",
                                                                                                   flat=True)
    frame = presence_frame(user, after)
    socket_groups.send_after_commit([(socket_groups.pages_group(f), {"type": "page.frame", "frame": frame})
                                     for f in followers], "presence")
