"""Moderation in the Django admin: users (search, suspend, ban, mute, lift; their matches,
sanctions and reports) and player settings. The table chat's lines and reports have their
admin pages with the chat (`games.chat.admin`). Uploaded pictures: seen and removed by staff."""
from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _

from accounts.admin_actions import reason_action
from accounts.faces import face_url
from accounts.moderation import Sanction, active_suspension, keeping_out, lift, sanction
from accounts.pictures import Picture
from accounts.player_settings import PlayerSettings
from games.chat.models import ChatReport
from games.models import Match, Seat
from okeysite.admin_counts import LargeTableAdmin
from okeysite.admin_search import AnyOf, SearchByUserName

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


def latest_matches(user, count):
    """The matches (with their tables) at the `count` tables `user` last sat at, newest
    start first. The user's seats are read newest table first by the (user, table) index
    and stop after `count`: a player with twenty thousand matches costs what one with
    thirty does (a table's id grows with its creation, and its match starts after)."""
    tables = list(Seat.objects.filter(user=user, table__match__isnull=False).order_by("-table_id")
                  .values_list("table_id", flat=True)[:count])
    return Match.objects.filter(table_id__in=tables).select_related("table").order_by("-started")


admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(LargeTableAdmin, UserAdmin):
    """Users with moderation: actions suspend / ban / mute / lift, and their matches and reports."""

    list_display = ("username", "email", "is_staff", "date_joined", "last_login", "standing")
    actions = [suspend_users, ban_users, mute_users, lift_sanctions]
    inlines = [SanctionInline]
    readonly_fields = ("matches", "reports")
    fieldsets = UserAdmin.fieldsets + ((_("Moderation"), {"fields": ("matches", "reports")}),)

    def get_queryset(self, request):
        # the standing column reads each listed user's suspensions and bans from one
        # query for the page, not one per row
        return super().get_queryset(request).prefetch_related(
            Prefetch("sanctions", queryset=keeping_out(), to_attr="keeping_out"))

    @admin.display(description=_("standing"))
    def standing(self, user):
        """'suspended'/'banned' with the end, or empty."""
        if hasattr(user, "keeping_out"):  # prefetched by the list
            found = user.keeping_out[0] if user.keeping_out else None
        else:
            found = active_suspension(user)
        if found is None:
            return ""
        return f"{found.get_kind_display()} {found.until:%Y-%m-%d %H:%M}" if found.until else found.get_kind_display()

    @admin.display(description=_("matches"))
    def matches(self, user):
        """The user's last 30 matches: links to the admin page and the public score table."""
        rows = latest_matches(user, 30)
        return format_html_join(
            "", '<div><a href="{}">{}</a> · <a href="{}">{}</a></div>',
            ((reverse("admin:games_match_change", args=[m.pk]), str(m), reverse("match", args=[m.table_id]),
              _("score table")) for m in rows),
        ) or "-"

    @admin.display(description=_("reports"))
    def reports(self, user):
        """Reports about and by the user (links to the report admin)."""
        rows = (ChatReport.objects.filter(Q(reported=user) | Q(reporter=user)).select_related("reporter")
                .order_by("-created"))
        return format_html_join(
            "", '<div><a href="{}">{}</a> ({})</div>',
            ((reverse("admin:games_chatreport_change", args=[r.pk]), str(r), r.reason) for r in rows[:30]),
        ) or "-"


@admin.register(Sanction)
class SanctionAdmin(LargeTableAdmin, admin.ModelAdmin):
    """Sanctions, one list of every one ever given: it grows with the players, so it pages
    like the big tables' lists (`LargeTableAdmin`: 50 rows, row checkboxes written
    directly, counts capped)."""

    list_display = ("user", "kind", "reason", "until", "created_by", "created", "lifted")
    list_select_related = ("user", "created_by")  # who gave it may be gone: not joined by default
    list_filter = ("kind",)
    search_fields = ("user__username", "user__email", "reason")
    readonly_fields = ("user", "kind", "created_by", "created")

    def get_search_results(self, request, queryset, search_term):
        """The sanctions of the users whose user name or e-mail contains the term (any
        case), those users read first through their trigram indexes
        (`okeysite.search_indexes`), and those whose reason contains it. Django's search
        of `search_fields` joined every user to the sanctions and read the users whole,
        for the page and again for its count."""
        term = search_term.strip()
        if not term:
            return queryset, False
        users = (get_user_model().objects.filter(Q(username__icontains=term) | Q(email__icontains=term))
                 .values_list("pk", flat=True))
        return queryset.filter(Q(AnyOf("user", users)) | Q(reason__icontains=term)), False

    def has_add_permission(self, request):
        return False  # from the user list's actions


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(SearchByUserName, LargeTableAdmin, admin.ModelAdmin):
    list_display = ("user", "display_name", "language", "public_solo_records")
    list_select_related = ("user",)
    word_fields = ("display_name",)
    search_help_text = _("A player's user name or display name, or part of it.")


@admin.register(Picture)
class PictureAdmin(admin.ModelAdmin):
    """Uploaded pictures: staff see each one and remove any (the player's generated face
    shows again); nobody uploads here."""

    list_display = ("user", "preview", "uploaded")
    search_fields = ("user__username",)
    fields = ("user", "preview", "uploaded")
    readonly_fields = fields

    @admin.display(description=_("picture"))
    def preview(self, picture):
        return format_html('<img src="{}" width="64" height="64" alt="">', face_url(picture.user_id))

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
