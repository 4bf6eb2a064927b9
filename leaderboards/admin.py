"""Admin: ratings (recompute a ruleset), rating changes, voided matches, solo records."""
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from leaderboards.models import Rating, RatingChange, SoloRecord, VoidedMatch
from leaderboards.recording import recompute
from okeysite.admin_counts import LargeTableAdmin
from okeysite.admin_search import SearchByUserName


@admin.action(description=_("Recompute the ratings of these rulesets from the stored matches"))
def recompute_rulesets(modeladmin, request, queryset):
    for ruleset in sorted(set(queryset.values_list("ruleset", flat=True))):
        count = recompute(ruleset)
        modeladmin.message_user(request, _("%(ruleset)s: %(count)d matches rated.") % {"ruleset": ruleset,
                                                                                     "count": count},
                                messages.SUCCESS)


@admin.register(Rating)
class RatingAdmin(SearchByUserName, LargeTableAdmin, admin.ModelAdmin):
    list_display = ("user", "ruleset", "value", "mu", "sigma", "matches", "wins", "provisional", "updated")
    list_filter = ("ruleset",)
    actions = [recompute_rulesets]
    readonly_fields = ("user", "ruleset", "mu", "sigma", "matches", "wins")


@admin.register(RatingChange)
class RatingChangeAdmin(SearchByUserName, LargeTableAdmin, admin.ModelAdmin):
    list_display = ("played", "match", "user", "ruleset", "place", "abandoned", "before", "after")
    list_filter = ("ruleset", "abandoned")

    def has_change_permission(self, request, obj=None):
        return False  # rebuilt by recompute, never edited


@admin.register(VoidedMatch)
class VoidedMatchAdmin(admin.ModelAdmin):
    list_display = ("match", "reason", "voided_by", "created")
    readonly_fields = ("match", "voided_by", "created")

    def has_add_permission(self, request):
        return False  # from the match list's "void" action, which recomputes the ratings


@admin.register(SoloRecord)
class SoloRecordAdmin(SearchByUserName, LargeTableAdmin, admin.ModelAdmin):
    list_display = ("user", "ruleset", "total", "rounds", "played", "match")
    list_filter = ("ruleset",)
