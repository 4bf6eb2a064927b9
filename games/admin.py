"""Admin: read-mostly views of tables, matches, rounds and the move log.

Games change only through `games.services`; the admin is for looking, not playing.
"""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from games.models import Game, Match, Move, Round, Seat, Table
from games.moderation import admin_actions

close_tables, void_matches = admin_actions()  # moderation (issue 5): ask for a reason first


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "connections", "consecutive_timeouts", "autoplay")
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "ruleset", "mode", "status", "creator", "move_time", "assisted", "created")
    list_filter = ("ruleset", "mode", "status")
    inlines = [SeatInline]
    actions = [close_tables]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "totals", "started", "finished", "score_table")
    actions = [void_matches]

    @admin.display(description=_("score table and move log"))
    def score_table(self, match):
        return format_html('<a href="{}">{}</a>', reverse("match", args=[match.table_id]), _("open"))


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "index", "commitment", "scores", "totals", "finished")
    readonly_fields = ("seed", "commitment", "initial_position", "final_position")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "version", "turn", "deadline_kind", "deadline")
    readonly_fields = ("position",)


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("id", "round", "number", "seat", "actor", "result", "version", "created")
    list_filter = ("actor", "result")

    def has_change_permission(self, request, obj=None):
        return False  # the move log is append-only
