"""The table chat's stored lines and abuse reports (docs/protocol.md §2 `chat`).

They belong to the `games` app, next to the tables they serve; the tables keep the
names they had under `accounts` in earlier releases only through the migrations
(`games` 0005, `accounts` 0002), not here.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ChatMessage(models.Model):
    """One line of a table's chat. `removed` lines are hidden from players."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    text = models.CharField(_("text"), max_length=300)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    removed = models.BooleanField(_("removed"), default=False)

    class Meta:
        app_label = "games"
        ordering = ["created", "id"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self):
        return f"{self.user}: {self.text[:40]}"


class ChatReport(models.Model):
    """A player's abuse report: the table's recent chat lines, copied at report time."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="chat_reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="reports_received")
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    lines = models.JSONField(default=list)  # [{"id", "user", "user_id", "text", "at", "removed"}], oldest first
    created = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(_("handled"), default=False)

    class Meta:
        app_label = "games"
        ordering = ["handled", "-created"]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")

    def __str__(self):
        return f"report by {self.reporter} at table {self.table_id}"
