"""Admin: read-mostly views of tables, matches, rounds and the move log.

Games change only through `games.services`; the admin is for looking, not playing.
"""
from django.contrib import admin

from games.models import Game, Match, Move, Round, Seat, Table


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


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "totals", "started", "finished")


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
