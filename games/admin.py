"""Admin: views of tables, matches, rounds, the live game rows and the move log, plus the
moderation actions (close a table, void a match) and the table chat (`games.chat.admin`).

Games change only through `games.play`: every field that is game state is read-only
here, so a staff member cannot move a game on (or break it) by editing a form.
"""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.chat import admin as chat_admin  # noqa: F401 - registers the chat's admin pages
from games.models import Game, Match, Move, Round, Seat, Table
from games.moderation import admin_actions

close_tables, void_matches = admin_actions()  # both ask for a reason first


class LookOnly:
    """Every model field read-only and nothing added by hand (the rows come from play)."""

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False


class SeatInline(LookOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "connections", "consecutive_timeouts", "autoplay")
    can_delete = False


@admin.register(Table)
class TableAdmin(LookOnly, admin.ModelAdmin):
    list_display = ("id", "ruleset", "mode", "status", "creator", "move_time", "assisted", "created")
    list_filter = ("ruleset", "mode", "status")
    inlines = [SeatInline]
    actions = [close_tables]


@admin.register(Match)
class MatchAdmin(LookOnly, admin.ModelAdmin):
    list_display = ("id", "table", "totals", "started", "finished", "recorded", "score_table")
    actions = [void_matches]

    @admin.display(description=_("score table and move log"))
    def score_table(self, match):
        return format_html('<a href="{}">{}</a>', reverse("match", args=[match.table_id]), _("open"))


@admin.register(Round)
class RoundAdmin(LookOnly, admin.ModelAdmin):
    list_display = ("id", "match", "index", "algorithm", "commitment", "scores", "totals", "finished")
    exclude = ("server_seed",)

    def get_readonly_fields(self, request, obj=None):
        # the server seed stays secret until the round is over, for staff too (docs/fair-deals.md §1)
        return [name if name != "server_seed" else "revealed_server_seed"
                for name in super().get_readonly_fields(request, obj)]

    @admin.display(description=_("server seed"))
    def revealed_server_seed(self, rnd):
        return rnd.revealed_server_seed or _("secret until the round is over")


@admin.register(Game)
class GameAdmin(LookOnly, admin.ModelAdmin):
    list_display = ("id", "table", "version", "turn", "deadline_kind", "deadline")


@admin.register(Move)
class MoveAdmin(LookOnly, admin.ModelAdmin):
    list_display = ("id", "round", "number", "seat", "actor", "result", "version", "created")
    list_filter = ("actor", "result")

    def has_change_permission(self, request, obj=None):
        return False  # the move log is append-only
