"""Table chat (docs/protocol.md §2 `chat` frame): seated players only, a size limit and a rate
limit, abuse reports to the admins, removal of lines by admins.

Chat text is public at the table, so whole lines travel through the table's Channels
group (`chat.message`, `chat.removed`); each consumer forwards them as `chat` /
`chat_removed` frames. Rack contents never do (ARCHITECTURE.md invariant 3).
"""
import logging
import re
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import mail_admins
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from accounts.moderation import active_mute
from accounts.player_settings import display_name
from accounts.relations import blocked_among
from games.chat.models import ChatMessage, ChatReport
from games.engine import text_rules
from games.models import Seat
from okeysite import socket_groups
from okeysite.visible_text import cap_combining

log = logging.getLogger("games.chat")

MAX_CHARS = getattr(settings, "OKEY_CHAT_MAX_CHARS", 300)  # characters per line
RATE_COUNT = getattr(settings, "OKEY_CHAT_RATE_COUNT", 5)  # lines per user and table ...
RATE_SECONDS = getattr(settings, "OKEY_CHAT_RATE_SECONDS", 10)  # ... within this many seconds
REPORT_LINES = 30  # recent lines copied into a report
HISTORY_LINES = 30  # lines sent to a socket when it connects

CHAT_ERRORS = {
    "chat_empty": _("Your message is empty."),
    "chat_too_long": _("Your message is too long."),
    "bad_text": _("That text holds characters that cannot be sent (control characters or invalid Unicode)."),
    "muted": _("You are muted: %(reason)s"),
    "rate_limited": _("Too fast: wait a moment."),
    "not_seated": _("Only the players at this table can chat."),
    "blocked_chat": _("A player at this table blocked you: your messages are not sent here."),
    "report_unknown_user": _("You can only report a player who sat or chatted at this table."),
    "report_too_long": _("Your report is too long (300 characters at most)."),
}

REPORT_MAX_CHARS = 300  # ChatReport.reason's length
# Bidi embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069) can reverse how
# the rest of a page reads; chat lines never need them.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def clean_text(text):
    """A chat line made safe to show: bidi override/isolate controls removed and at most
    `visible_text.MAX_COMBINING` combining marks kept after each base character (floods of marks
    draw over the neighbouring lines). str -> str; surrounding spaces stripped."""
    return cap_combining(BIDI_CONTROLS.sub("", text)).strip()


class ChatError(Exception):
    """A refused chat line or report. `code` is a key of CHAT_ERRORS; `reason` the mute reason."""

    def __init__(self, code, reason=""):
        super().__init__(code)
        self.code = code
        self.reason = reason

    def message(self):
        """The refusal in the active language (str)."""
        text = CHAT_ERRORS.get(self.code)
        if text is None:
            return self.code
        return str(text) % {"reason": self.reason} if "%(reason)s" in str(text) else str(text)


def line_payload(message):
    """The public form of one chat line: {"id", "user" (username), "name" (display name),
    "text", "at" (epoch ms)}."""
    return {
        "id": message.pk, "user": message.user.get_username(), "name": display_name(message.user),
        "text": message.text, "at": int(message.created.timestamp() * 1000),
    }


def _group_send(table_id, message):
    # After the line is committed, so the sockets never show a line that rolled back.
    socket_groups.send_after_commit([(socket_groups.table_group(table_id), message)], "chat")


def post(user, table_id, text):
    """Store and broadcast a chat line of `user` at table `table_id`.

    The text is cleaned first (`clean_text`: no bidi controls, at most `visible_text.MAX_COMBINING`
    combining marks per character). Checks in order: text is a non-empty string (`chat_empty`),
    no control character, surrogate or noncharacter (`bad_text`: `text_rules.refused_char`, the
    rule of the socket's frames and of client seeds), at most MAX_CHARS characters (`chat_too_long`), the user
    is seated there (`not_seated`), no other player seated there blocked them (`blocked_chat`,
    `accounts.relations`: a blocked player cannot chat to the one who blocked them), not muted or suspended
    (`muted`, with the reason), at most RATE_COUNT lines in RATE_SECONDS (`rate_limited`).
    Returns the line payload (`line_payload`). Raises ChatError(code).
    """
    if not isinstance(text, str):
        raise ChatError("chat_empty")
    text = clean_text(text)
    if not text:
        raise ChatError("chat_empty")
    if text_rules.refused_char(text) is not None:
        raise ChatError("bad_text")
    if len(text) > MAX_CHARS:
        raise ChatError("chat_too_long")
    if not Seat.objects.filter(table_id=table_id, user=user).exists():
        raise ChatError("not_seated")
    others = Seat.objects.filter(table_id=table_id, user__isnull=False).exclude(user=user).values_list("user_id",
                                                                                                        flat=True)
    if blocked_among(user, others):
        raise ChatError("blocked_chat")
    mute = active_mute(user)
    if mute is not None:
        raise ChatError("muted", mute.reason)
    with transaction.atomic():
        # Lock the user's row so two sockets of one user cannot both pass the rate check.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        since = timezone.now() - timedelta(seconds=RATE_SECONDS)
        if ChatMessage.objects.filter(table_id=table_id, user=user, created__gte=since).count() >= RATE_COUNT:
            raise ChatError("rate_limited")
        message = ChatMessage.objects.create(table_id=table_id, user=user, text=text)
        payload = line_payload(message)
        _group_send(table_id, {"type": "chat.message", "line": payload})
    return payload


def system_line(table_id, by, text):
    """A line from staff (`by`) at a table, e.g. why it was closed. Broadcast like any line;
    no seat, mute or rate checks. Returns the line payload."""
    message = ChatMessage.objects.create(table_id=table_id, user=by, text=str(text)[:MAX_CHARS])
    payload = line_payload(message)
    _group_send(table_id, {"type": "chat.message", "line": payload})
    return payload


def history(table_id, count=HISTORY_LINES):
    """The last `count` visible lines of a table, oldest first (list of line payloads)."""
    lines = (ChatMessage.objects.filter(table_id=table_id, removed=False).select_related("user")
             .order_by("-created", "-pk")[:count])
    return [line_payload(m) for m in reversed(list(lines))]


def remove(message_id):
    """Hide a chat line (admin) and tell the table's sockets to drop it. Returns True when
    it was visible."""
    message = ChatMessage.objects.filter(pk=message_id, removed=False).first()
    if message is None:
        return False
    message.removed = True
    message.save(update_fields=["removed"])
    _group_send(message.table_id, {"type": "chat.removed", "id": message.pk})
    return True


def report(user, table_id, reported=None, reason=""):
    """A seated player reports abuse: the table's last REPORT_LINES lines (removed ones too)
    are copied into a ChatReport and mailed to the admins (settings.ADMINS).

    Args: `reported` (username str or None: the reported user must have sat or chatted at
    this table, else `report_unknown_user`), `reason` (str of at most REPORT_MAX_CHARS
    characters after stripping, else `report_too_long`; any other type counts as empty).
    At most one report per reporter and table per minute (`rate_limited`).
    Returns the ChatReport. Raises ChatError("not_seated" | "report_too_long" |
    "report_unknown_user" | "rate_limited").
    """
    if not Seat.objects.filter(table_id=table_id, user=user).exists():
        raise ChatError("not_seated")
    reason = reason.strip() if isinstance(reason, str) else ""
    if len(reason) > REPORT_MAX_CHARS:
        raise ChatError("report_too_long")
    target = None
    if isinstance(reported, str) and reported:
        target = get_user_model().objects.filter(username=reported).first()
        if target is None or not (Seat.objects.filter(table_id=table_id, user=target).exists()
                                  or ChatMessage.objects.filter(table_id=table_id, user=target).exists()):
            raise ChatError("report_unknown_user")
    if ChatReport.objects.filter(reporter=user, table_id=table_id,
                                 created__gte=timezone.now() - timedelta(minutes=1)).exists():
        raise ChatError("rate_limited")
    lines = (ChatMessage.objects.filter(table_id=table_id).select_related("user")
             .order_by("-created", "-pk")[:REPORT_LINES])
    copied = [{"id": m.pk, "user": m.user.get_username(), "user_id": m.user_id, "text": m.text,
               "at": m.created.isoformat(), "removed": m.removed} for m in reversed(list(lines))]
    obj = ChatReport.objects.create(table_id=table_id, reporter=user, reported=target, reason=reason, lines=copied)
    body = "\n".join(f"[{line['at']}] {line['user']}: {line['text']}" for line in copied)
    try:
        mail_admins(
            gettext("Chat report at table %(table)s") % {"table": table_id},
            f"{user.get_username()} -> {target.get_username() if target else '-'}: {obj.reason}\n\n{body}",
            fail_silently=True,
        )
    except Exception:  # noqa: BLE001 - the stored report is what counts
        log.exception("could not mail chat report %s", obj.pk)
    return obj

