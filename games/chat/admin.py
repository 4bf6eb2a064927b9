"""The table chat in the Django admin: lines (remove them, mute their authors) and abuse
reports (read the copied lines, mute the reported player). Every action asks for a reason
the player will see (PLAYERS.md complaint 5)."""
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.html import format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.admin_actions import reason_action
from accounts.moderation import sanction
from games.chat import service
from games.chat.models import ChatMessage, ChatReport
from okeysite import search_indexes
from okeysite.admin_counts import LargeTableAdmin
from okeysite.admin_search import AnyOf, users_named


def _remove_apply(request, message, reason, until):
    return service.remove(message.pk)


def _mute_author_apply(request, message, reason, until):
    sanction(message.user, "mute", reason, until, by=request.user)
    return True


@admin.register(ChatMessage)
class ChatMessageAdmin(LargeTableAdmin, admin.ModelAdmin):
    list_display = ("created", "table", "user", "text", "removed")
    list_filter = ("removed",)
    search_fields = ("text",)
    search_help_text = _("A table number, a player's user name, or words of the line. A word of one or two "
                         "letters finds the lines where it stands as a whole word.")
    list_select_related = ("table", "user")

    def get_search_results(self, request, queryset, search_term):
        """A table number finds that table's lines (by index, not `table_id::text LIKE`);
        other text the lines of the user of that name (any case) and the lines that
        contain it, or for a term of one or two letters the lines that have it as a word.
        The user is read first, so both halves go through an index (the line's user; the
        trigram or word index on its text, `okeysite.search_indexes`) rather than a join
        that reads every line."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if term.isdigit():
            return queryset.filter(table_id=int(term)), False
        users = list(get_user_model().objects.filter(username__iexact=term).values_list("pk", flat=True))
        # trigrams need three letters: a shorter term is a whole word of the line, read
        # from the index of the lines' words (`okeysite.search_indexes.has_word`)
        words = (Q(search_indexes.has_word(ChatMessage, "text", term)) if len(term) < search_indexes.SHORT_TERM
                 else Q(text__icontains=term))
        return queryset.filter(Q(user_id__in=users) | words), False
    readonly_fields = ("table", "user", "text", "created")
    actions = [
        reason_action(_remove_apply, _("Remove the lines"), name="remove_lines"),
        reason_action(_mute_author_apply, _("Mute the authors"), with_until=True, name="mute_authors"),
    ]


def _mute_reported_apply(request, report, reason, until):
    if report.reported is None:
        return False
    sanction(report.reported, "mute", reason, until, by=request.user)
    report.handled = True
    report.save(update_fields=["handled"])
    return True


@admin.register(ChatReport)
class ChatReportAdmin(LargeTableAdmin, admin.ModelAdmin):
    """Abuse reports: they grow with the online matches, so the list pages like the other
    big tables' (`LargeTableAdmin`: 50 rows, row checkboxes written directly, counts
    capped); at 100 rows a page, formatting the cells was about 100 ms."""

    list_display = ("created", "table", "reporter", "reported", "reason", "handled")
    list_select_related = ("table", "reporter", "reported")  # the reported player may be gone: not joined by default
    list_filter = ("handled",)
    search_fields = ("reporter__username", "reported__username", "reason")

    def get_search_results(self, request, queryset, search_term):
        """The reports by or about the users whose user name contains the term (any case),
        those users read first through the trigram index on their names, and those whose
        reason contains it: Django's search joined both users to every report."""
        term = search_term.strip()
        if not term:
            return queryset, False
        users = users_named(term)
        return queryset.filter(Q(AnyOf("reporter", users)) | Q(AnyOf("reported", users))
                               | Q(reason__icontains=term)), False
    readonly_fields = ("table", "reporter", "reported", "reason", "created", "chat_lines")
    fields = ("table", "reporter", "reported", "reason", "created", "chat_lines", "handled")
    actions = [reason_action(_mute_reported_apply, _("Mute the reported players"), with_until=True,
                             name="mute_reported")]

    @admin.display(description=_("chat lines"))
    def chat_lines(self, report):
        """The copied lines, oldest first (removed ones struck through)."""
        return format_html_join(
            "", "<div>{} <b>{}</b>: {}{}</div>",
            ((line.get("at", "")[:19], line.get("user", ""), line.get("text", ""),
              " ✗" if line.get("removed") else "") for line in report.lines),
        ) or "-"
