"""The arenas in the Django admin: staff make one-off arenas and edit the hourly
schedules; the entries are listed per arena with their scores."""
from django.contrib import admin

from games.arena.models import Arena, ArenaEntry, ArenaSchedule


class EntryInline(admin.TabularInline):
    model = ArenaEntry
    extra = 0
    fields = ("user", "score", "matches", "streak", "paused", "withdrawn")
    readonly_fields = ("user", "score", "matches", "streak")
    can_delete = False
    show_change_link = False


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    list_display = ("__str__", "ruleset", "starts", "minutes", "seats", "rated", "schedule")
    list_filter = ("ruleset", "rated")
    date_hierarchy = "starts"
    search_fields = ("name",)
    inlines = [EntryInline]
    show_full_result_count = False


@admin.register(ArenaSchedule)
class ArenaScheduleAdmin(admin.ModelAdmin):
    list_display = ("__str__", "ruleset", "every_minutes", "minutes", "move_time", "seats", "rated", "active")
    list_editable = ("active",)
