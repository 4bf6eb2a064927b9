"""The stored arenas: an event (`Arena`), the schedule that makes the hourly ones
(`ArenaSchedule`), a player's entry with their score (`ArenaEntry`) and the tables the
arena seated (`ArenaTable`)."""
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _

from games.engine.api import RULESETS

RULESET_CHOICES = [(rid, rid) for rid in RULESETS]


class Arena(models.Model):
    """One arena: `ruleset`, `starts` (aware datetime), `minutes` (its length), the
    tables' `move_time` (seconds) and `seats` (the ruleset's seat counts; rami 2-4),
    `rated`, and `bot_wait` (seconds a table short of humans waits before computers fill
    it). Before `starts` it is upcoming, until `ends` running, then over."""

    name = models.CharField(_("name"), max_length=80, blank=True)
    ruleset = models.CharField(_("ruleset"), max_length=16, choices=RULESET_CHOICES)
    starts = models.DateTimeField(_("starts"), db_index=True)
    minutes = models.PositiveSmallIntegerField(_("minutes"), default=45)
    move_time = models.PositiveSmallIntegerField(_("move time (seconds)"), default=20)
    seats = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    rated = models.BooleanField(_("rated"), default=True)
    bot_wait = models.PositiveSmallIntegerField(_("wait for humans (seconds)"), default=20)
    finished = models.BooleanField(default=False)  # over, every match scored, final ranks set
    schedule = models.ForeignKey("ArenaSchedule", null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="arenas")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts"]
        verbose_name = _("arena")
        verbose_name_plural = _("arenas")

    def __str__(self):
        return self.title

    @property
    def title(self):
        """The arena's name, or "<game> arena" in the active language when it has none (str)."""
        return self.name or gettext("%(game)s arena") % {"game": self.ruleset_title}

    @property
    def ruleset_title(self):
        """The ruleset's name for players ("Okey 51", ...)."""
        return RULESETS[self.ruleset].name

    @property
    def ends(self):
        """When the arena ends (aware datetime): `starts` + `minutes`."""
        return self.starts + timedelta(minutes=self.minutes)

    def state(self, now=None):
        """"upcoming", "running" or "over" at `now` (aware datetime; default now)."""
        now = now or timezone.now()
        return "upcoming" if now < self.starts else "running" if now < self.ends else "over"


class ArenaSchedule(models.Model):
    """Makes an arena of `ruleset` every `every_minutes` (from the hour), each with these
    settings, while `active`; the sweep keeps the next one made (`service.tick`)."""

    ruleset = models.CharField(_("ruleset"), max_length=16, choices=RULESET_CHOICES)
    every_minutes = models.PositiveSmallIntegerField(_("every (minutes)"), default=60)
    minutes = models.PositiveSmallIntegerField(_("minutes"), default=45)
    move_time = models.PositiveSmallIntegerField(_("move time (seconds)"), default=20)
    seats = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    rated = models.BooleanField(_("rated"), default=True)
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("arena schedule")
        verbose_name_plural = _("arena schedules")

    def __str__(self):
        return f"{self.ruleset} / {self.every_minutes} min"


class ArenaEntry(models.Model):
    """A player in an arena: `score` (points), `matches` scored, `streak` (matches won in a
    row: from two on, each place scores double), `paused`/`withdrawn` (not paired),
    `last_opponents` (user ids of their last table), `reached` (when the score last
    changed: the tie-break), `seen` (the arena page last asked for the standings: a
    player away for two pairings is not paired)."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arena_entries")
    score = models.IntegerField(default=0)
    matches = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    paused = models.BooleanField(default=False)
    withdrawn = models.BooleanField(default=False)
    last_opponents = models.JSONField(default=list, blank=True)
    joined = models.DateTimeField(auto_now_add=True)
    reached = models.DateTimeField(default=timezone.now)
    seen = models.DateTimeField(default=timezone.now)
    rank = models.PositiveIntegerField(null=True, blank=True)  # the final place, once the arena finished

    class Meta:
        constraints = [models.UniqueConstraint(fields=["arena", "user"], name="arena_entry_unique")]
        verbose_name = _("arena player")
        verbose_name_plural = _("arena players")

    def __str__(self):
        return f"{self.arena_id}: {self.user_id}"


class ArenaTable(models.Model):
    """A table the arena seated; `scored` once its finished match scored its players."""

    arena = models.ForeignKey(Arena, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="arena_link")
    scored = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["arena", "scored"])]
