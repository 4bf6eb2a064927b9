"""Stored ratings, rating changes, voided matches and solo records (RULES.md §6 "Records").

Only `leaderboards.recording` writes these. Every rating can be rebuilt from the stored
matches (`recording.recompute`), so `RatingChange` is a log, not the source of truth.
"""
from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import RULESET_CHOICES, Match
from leaderboards import ratings


class Rating(models.Model):
    """A player's current multiplayer rating in one ruleset (openskill mu/sigma)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.CharField(_("ruleset"), max_length=16, choices=RULESET_CHOICES)
    mu = models.FloatField(default=ratings.DEFAULT_MU)
    sigma = models.FloatField(default=ratings.DEFAULT_SIGMA)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    updated = models.DateTimeField(auto_now=True)
    # The conservative estimate mu − 3σ the leaderboard ranks by, stored by the database
    # with each write so the ranking reads an index instead of computing and sorting it
    # for every rating on every page.
    ordinal = models.GeneratedField(expression=F("mu") - 3 * F("sigma"), output_field=models.FloatField(),
                                    db_persist=True)
    # The end of the player's latest rated match in this ruleset (the latest `played` of
    # their rating changes), kept by `leaderboards.recording` with mu and sigma. "Played in
    # this month / week" is then a test on the rating row itself: the period's ranking
    # read the month's rating changes to find its players, a cost that grew with the
    # month's matches on every page.
    last_played = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "ruleset"], name="rating_unique_user_ruleset")]
        indexes = [
            models.Index(fields=["ruleset", "-ordinal", "user"], name="rating_rank_order"),
            # the ranked (established) players alone: a few thousand of a hundred thousand
            # ratings, so even the last page's OFFSET walks only them; with the latest match,
            # a period's ranking and its rank counts are read from the index alone
            models.Index(fields=["ruleset", "-ordinal", "user"], condition=Q(matches__gte=ratings.PROVISIONAL_MATCHES),
                         include=["last_played"], name="rating_rank_established"),
            # a period's players of a ruleset (those with a rated match since its start),
            # for the provisional list: most ratings are provisional and few of them recent
            models.Index(fields=["ruleset", "last_played"], name="rating_by_last_played"),
        ]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self):
        return f"{self.user} {self.ruleset} {self.value}"

    @property
    def value(self):
        """Shown rating (int points, `ratings.display`)."""
        return ratings.display(self.mu, self.sigma)

    @property
    def provisional(self):
        """True until the player has `ratings.PROVISIONAL_MATCHES` rated matches."""
        return self.matches < ratings.PROVISIONAL_MATCHES


class RatingChange(models.Model):
    """One player's rating before and after one rated match. Unique per (match, user):
    recording a match twice changes nothing."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    ruleset = models.CharField(max_length=16, choices=RULESET_CHOICES)
    place = models.PositiveSmallIntegerField()  # 1 = best among the rated places
    abandoned = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    played = models.DateTimeField(db_index=True)  # the match's end

    class Meta:
        ordering = ["played", "match_id"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="ratingchange_unique_match_user")]
        indexes = [
            # a player's latest changes (the profile's chart, a period ranking's gains) and a
            # ruleset's changes in the order they were played
            models.Index(fields=["user", "played"], name="ratingchange_by_user_played"),
            models.Index(fields=["ruleset", "played"], name="ratingchange_by_ruleset_played"),
        ]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self):
        return f"{self.user} match {self.match_id}: {self.before} -> {self.after}"

    @property
    def before(self):
        """Shown rating before the match (int points)."""
        return ratings.display(self.mu_before, self.sigma_before)

    @property
    def after(self):
        """Shown rating after the match (int points)."""
        return ratings.display(self.mu_after, self.sigma_after)

    @property
    def delta(self):
        """Change of the shown rating (int points, may be negative)."""
        return self.after - self.before


class VoidedMatch(models.Model):
    """A match an admin voided: it no longer counts for ratings or solo records."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="void")
    reason = models.CharField(_("reason"), max_length=300)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("voided match")
        verbose_name_plural = _("voided matches")

    def __str__(self):
        return f"void of match {self.match_id}"


class SoloRecord(models.Model):
    """A player's best completed solo match in one ruleset (okey: lowest total; rami: highest)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="solo_records")
    ruleset = models.CharField(_("ruleset"), max_length=16, choices=RULESET_CHOICES)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    total = models.IntegerField(_("total"))  # the player's match total (points)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    played = models.DateTimeField()
    # The player chose to appear in the public ranking (`PlayerSettings.public_solo_records`),
    # copied here by `leaderboards.solo_visibility` whenever either changes: the ranking
    # and the count of the ranks ahead of a late page then read the partial indexes below
    # alone, instead of looking up every record's settings.
    public = models.BooleanField(_("public"), default=False, db_default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "ruleset"], name="solorecord_unique_user_ruleset")]
        # the solo ranking's two orders (okey: lowest total first; rami: highest), read
        # page by page from an index of the public records instead of sorting every record;
        # the user is in the index so the "not a guest" check needs no visit of the table
        indexes = [models.Index(fields=["ruleset", "total", "played", "id"], include=["user"],
                                condition=Q(public=True), name="solorecord_public_lowest"),
                   models.Index(fields=["ruleset", "-total", "played", "id"], include=["user"],
                                condition=Q(public=True), name="solorecord_public_highest")]
        verbose_name = _("solo record")
        verbose_name_plural = _("solo records")

    def __str__(self):
        return f"{self.user} {self.ruleset} {self.total}"


class PlayerSummary(models.Model):
    """A player's running figures in one ruleset over every recorded, not voided match
    they sat at (the profile's "Matches" table): kept by `leaderboards.summaries` on the
    path that records a match and the one that voids it, so the profile reads a row per
    ruleset instead of aggregating thousands of matches and rounds."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="summaries")
    ruleset = models.CharField(_("ruleset"), max_length=16, choices=RULESET_CHOICES)
    matches = models.PositiveIntegerField(_("matches"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    rounds = models.PositiveIntegerField(_("rounds"), default=0)  # finished rounds with totals
    round_sum = models.BigIntegerField(default=0)  # the player's totals over those rounds (points)
    openings = models.PositiveIntegerField(_("openings"), default=0)
    penalties = models.BigIntegerField(_("penalties taken"), default=0)  # in-round penalties (points)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "ruleset"], name="playersummary_unique_user_ruleset")]
        verbose_name = _("player summary")
        verbose_name_plural = _("player summaries")

    def __str__(self):
        return f"{self.user} {self.ruleset} {self.matches}"

    @property
    def average_round(self):
        """The player's mean round total (float points, one decimal) or None without rounds."""
        return round(self.round_sum / self.rounds, 1) if self.rounds else None
