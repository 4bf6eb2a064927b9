"""Moderation in the Django admin: users (search, suspend, ban, mute, lift; their matches,
sanctions and reports), chat lines (remove, mute the author) and abuse reports."""
from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.admin_actions import reason_action
from accounts.moderation import ChatMessage, ChatReport, Sanction, active_suspension, lift, sanction
from accounts.player_settings import PlayerSettings
from games.models import Match

User = get_user_model()

# The admin login goes through allauth's (rate limits, multi-factor stage): accounts.staff_security.
admin.site.login = secure_admin_login(admin.site.login)


def _sanction_apply(kind):
    def apply(request, user, reason, until):
        sanction(user, kind, reason, until, by=request.user)
        return True

    apply.__name__ = kind
    return apply


def _lift_apply(request, user, reason, until):
    active = [s for s in Sanction.objects.filter(user=user, lifted__isnull=True) if s.active]
    for found in active:
        lift(found)
    return bool(active)


suspend_users = reason_action(_sanction_apply("suspend"), _("Suspend (with an end date)"), with_until=True)
ban_users = reason_action(_sanction_apply("ban"), _("Ban"))
mute_users = reason_action(_sanction_apply("mute"), _("Mute in chat"), with_until=True)
lift_sanctions = reason_action(_lift_apply, _("Lift active sanctions"), name="lift_sanctions")


class SanctionInline(admin.TabularInline):
    model = Sanction
    fk_name = "user"
    extra = 0
    fields = ("kind", "reason", "until", "created_by", "created", "lifted")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False  # through the actions, so sockets are closed at once


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(UserAdmin):
    """Users with moderation: actions suspend / ban / mute / lift, and their matches and reports."""

    list_display = ("username", "email", "is_staff", "date_joined", "last_login", "standing")
    actions = [suspend_users, ban_users, mute_users, lift_sanctions]
    inlines = [SanctionInline]
    readonly_fields = ("matches", "reports")
    fieldsets = UserAdmin.fieldsets + ((_("Moderation"), {"fields": ("matches", "reports")}),)

    @admin.display(description=_("standing"))
    def standing(self, user):
        """'suspended'/'banned' with the end, or empty."""
        found = active_suspension(user)
        if found is None:
            return ""
        return f"{found.get_kind_display()} {found.until:%Y-%m-%d %H:%M}" if found.until else found.get_kind_display()

    @admin.display(description=_("matches"))
    def matches(self, user):
        """The user's last 30 matches: links to the admin page and the public score table."""
        rows = Match.objects.filter(table__seats__user=user).select_related("table").order_by("-started")[:30]
        return format_html_join(
            "", '<div><a href="{}">{}</a> · <a href="{}">{}</a></div>',
            ((reverse("admin:games_match_change", args=[m.pk]), str(m), reverse("match", args=[m.table_id]),
              _("score table")) for m in rows),
        ) or "-"

    @admin.display(description=_("reports"))
    def reports(self, user):
        """Reports about and by the user (links to the report admin)."""
        rows = ChatReport.objects.filter(reported=user) | ChatReport.objects.filter(reporter=user)
        return format_html_join(
            "", '<div><a href="{}">{}</a> ({})</div>',
            ((reverse("admin:accounts_chatreport_change", args=[r.pk]), str(r), r.reason) for r in rows[:30]),
        ) or "-"


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "reason", "until", "created_by", "created", "lifted")
    list_filter = ("kind",)
    search_fields = ("user__username", "user__email", "reason")
    readonly_fields = ("user", "kind", "created_by", "created")

    def has_add_permission(self, request):
        return False  # from the user list's actions


def _remove_apply(request, message, reason, until):
    from games import chat

    return chat.remove(message.pk)


def _mute_author_apply(request, message, reason, until):
    sanction(message.user, "mute", reason, until, by=request.user)
    return True


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created", "table", "user", "text", "removed")
    list_filter = ("removed",)
    search_fields = ("text", "user__username", "table__id")
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
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ("created", "table", "reporter", "reported", "reason", "handled")
    list_filter = ("handled",)
    search_fields = ("reporter__username", "reported__username", "reason")
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


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "public_solo_records")
    search_fields = ("user__username", "display_name")
