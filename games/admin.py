"""Admin: views of tables, matches, rounds, the live game rows and the move log, plus the
moderation actions (close a table, void a match) and the table chat (`games.chat.admin`).

Games change only through `games.play`: every field that is game state is read-only
here, so a staff member cannot move a game on (or break it) by editing a form.

What no player may see while a round is played — the racks and the pile's order (the
game's position, the round's initial position) and the server seed that deals them — is
hidden here too (`games.admin_reveal`):
a staff member who needs it asks for it with a reason, and the reveal is logged.
"""
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _, pgettext

from games import results
from games.admin_reveal import HidesRunningState, RefusesHiddenLookups
from games.arena import admin as arena_admin  # noqa: F401 - registers the arenas' admin pages
from games.chat import admin as chat_admin  # noqa: F401 - registers the chat's admin pages
from games.models import Game, Match, Move, Round, Seat, Table
from games.moderation import admin_actions
from games.snapshot import computer_label
from okeysite.admin_counts import LargeTableAdmin
from okeysite.admin_search import AnyOf

close_tables, void_matches = admin_actions()  # both ask for a reason first


class SearchByTableOrPlayer(LargeTableAdmin):
    """The search box of the game lists: a table number finds that table's rows, any other
    text the rows of the latest `PLAYER_TABLES` tables where a player of that user name
    (any case) sat. Both go through indexes (the table id; a user's seats newest first),
    never a `LIKE` over the rows; the player's table ids are read first, so the list is
    planned on a short list of ids rather than a subquery the planner guesses.
    `table_field` is the lookup from the model to its table's id."""

    PLAYER_TABLES = 1000
    table_field = "table_id"
    search_fields = ("id",)  # shows the box; the search itself is `get_search_results`
    search_help_text = _("A table number, or a player's user name.")

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        if not term:
            return queryset, False
        if term.isdigit():
            return queryset.filter(**{self.table_field: int(term)}), False
        # the name as typed through the unique index; any case only when that finds nobody
        # (UPPER(username) reads every user)
        users = get_user_model().objects.values_list("pk", flat=True)
        users = list(users.filter(username=term)) or list(users.filter(username__iexact=term))
        tables = list(Seat.objects.filter(user_id__in=users).order_by("-table_id")
                      .values_list("table_id", flat=True)[:self.PLAYER_TABLES])
        # up to `PLAYER_TABLES` ids as one array constant (`okeysite.admin_search.AnyOf`)
        return queryset.filter(AnyOf(self.table_field, tables)), False


class ListDefers:
    """Leave the big JSON columns (`list_defer`) out of the changelist's rows: a page of
    100 rounds would otherwise read 100 deals and final positions it never shows."""

    list_defer = ()

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and match.url_name and match.url_name.endswith("_changelist"):
            queryset = queryset.defer(*self.list_defer)
        return queryset


class MoveOutcomeFilter(admin.SimpleListFilter):
    """Accepted moves or refused ones whose penalty stays, without reading the distinct
    results of the whole log (Django's filter on a plain field does)."""

    title = _("result")
    parameter_name = "outcome"

    def lookups(self, request, model_admin):
        return [("ok", _("accepted move")), ("refused", _("refused move, penalty kept"))]

    def queryset(self, request, queryset):
        if self.value() == "ok":
            return queryset.filter(result="ok")
        if self.value() == "refused":
            return queryset.exclude(result="ok")
        return queryset


class LookOnly(RefusesHiddenLookups):
    """Every model field read-only and nothing added by hand (the rows come from play), and
    no filter on hidden state (`games.admin_reveal.RefusesHiddenLookups`)."""

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False


class SeatInline(LookOnly, admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("index", "user", "bot_level", "connections", "consecutive_timeouts", "autoplay", "away_turns", "left",
              "absent")
    can_delete = False


@admin.register(Table)
class TableAdmin(SearchByTableOrPlayer, HidesRunningState, LookOnly, admin.ModelAdmin):
    table_field = "id"
    list_display = ("id", "ruleset", "mode", "status", "creator", "move_time", "assisted", "created")
    list_filter = ("ruleset", "mode", "status")
    inlines = [SeatInline]
    actions = [close_tables]
    # the last seed of the match's hash chain yields every round's server seed: secret while
    # the table plays, for staff too unless they reveal it (logged); docs/fair-deals.md §10
    secret_fields = ("chain_seed",)

    def state_is_secret(self, table):
        return table.status in (Table.Status.OPEN, Table.Status.PLAYING)


@admin.register(Match)
class MatchAdmin(SearchByTableOrPlayer, LookOnly, admin.ModelAdmin):
    list_display = ("id", "table", "totals", "result", "started", "finished", "recorded", "score_table")
    actions = [void_matches]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("table").prefetch_related("table__seats__user")

    @admin.display(description=_("result"))
    def result(self, match):
        """The seats best first as every page shows them (`games.results`): place, name,
        ★ for the winner, "left" for a player who left the match."""
        if match.finished is None:
            return "–"
        seats = sorted(match.table.seats.all(), key=lambda seat: seat.index)
        outcome = results.result_of(match, seats)
        names = {seat.index: seat.user.get_username() if seat.user_id else computer_label(seat.index, seat.bot_level)
                 for seat in seats}
        parts = []
        for index in outcome.order:
            text = f"{outcome.place_of(index)}. {names.get(index, index)}"
            if outcome.won(index):
                text += " ★"
            if index in outcome.left:
                text += f" ({pgettext('player left the match', 'left')})"
            parts.append(text)
        return ", ".join(parts)

    @admin.display(description=_("score table and move log"))
    def score_table(self, match):
        return format_html('<a href="{}">{}</a>', reverse("match", args=[match.table_id]), _("open"))


@admin.register(Round)
class RoundAdmin(SearchByTableOrPlayer, ListDefers, HidesRunningState, LookOnly, admin.ModelAdmin):
    table_field = "match__table_id"
    list_display = ("id", "match", "index", "algorithm", "commitment", "scores", "totals", "finished")
    list_defer = ("initial_position", "final_position", "archived_moves", "penalty_events", "client_seeds")
    # the server seed deals the round: secret until the round is over, for staff too unless
    # they reveal it (logged); docs/fair-deals.md
    secret_fields = ("server_seed", "initial_position", "final_position")

    def state_is_secret(self, rnd):
        return not rnd.is_over and rnd.match.table.status in (Table.Status.OPEN, Table.Status.PLAYING)


@admin.register(Game)
class GameAdmin(SearchByTableOrPlayer, ListDefers, HidesRunningState, LookOnly, admin.ModelAdmin):
    list_display = ("id", "table", "version", "turn", "deadline_kind", "deadline")
    list_defer = ("position",)
    secret_fields = ("position",)

    def state_is_secret(self, game):
        running = game.round is not None and not game.round.is_over
        return running and game.table.status == Table.Status.PLAYING


@admin.register(Move)
class MoveAdmin(SearchByTableOrPlayer, LookOnly, admin.ModelAdmin):
    """The move log holds only what was played at the table (a draw names no tile), so
    nothing here is hidden; its round's page hides that round's seed and deal."""

    table_field = "round__match__table_id"
    list_display = ("id", "round", "number", "seat", "actor", "result", "version", "created")
    list_filter = ("actor", MoveOutcomeFilter)

    def get_queryset(self, request):
        # the round column shows "round N of match M": its deal and positions stay unread
        return super().get_queryset(request).select_related("round").only(
            *(f.name for f in Move._meta.fields), "round__id", "round__index", "round__match_id")

    def has_change_permission(self, request, obj=None):
        return False  # the move log is append-only
