"""Stored games: tables, seats, matches, rounds, the live game row and the move log.

Only `games.play` writes these (ARCHITECTURE.md invariant 2). Positions are the
engine's JSON (RULES.md §7, docs/engine-api.md); the `Move` log replays to them with
`engine.api.replay`. The table chat's models live in `games.chat.models`.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.arena.models import Arena, ArenaEntry, ArenaSchedule, ArenaTable  # noqa: F401 - registered with this app
from games.chat.models import ChatMessage, ChatReport  # noqa: F401 - registered with this app
from games.engine import fairdeal
from games.engine.api import RULESETS
from okeysite import socket_groups

RULESET_CHOICES = [(rules.id, rules.name) for rules in RULESETS.values()]


def ruleset_name(ruleset):
    """Display name of a ruleset id (str -> str): "okey51" -> "Okey 51"; unknown ids unchanged."""
    rules = RULESETS.get(ruleset)
    return rules.name if rules is not None else ruleset


BOT_LEVEL_CHOICES = [("easy", _("easy")), ("normal", _("normal")), ("strong", _("strong"))]


LEGACY_SHUFFLE = fairdeal.LEGACY
"""The algorithm id of the rounds dealt before verifiable deals (from a match seed with
Python's `random`): they have no client seeds and nothing to check their deal against."""


class Table(models.Model):
    """A table: its ruleset and options (RULES.md §6), its seats and (once started) one match."""

    class Mode(models.TextChoices):
        SOLO = "solo", _("solo (you + 3 computers)")
        ONLINE = "online", _("online (2–4 players)")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        CLOSED = "closed", _("closed")

    ruleset = models.CharField(max_length=16, choices=RULESET_CHOICES, default="okey51")
    options = models.JSONField(default=dict)  # normalized by the engine
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.ONLINE)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_tables")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    players = models.PositiveSmallIntegerField(default=4)
    move_time = models.PositiveSmallIntegerField(default=30)  # seconds per turn (D-16)
    assisted = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=10, choices=BOT_LEVEL_CHOICES, default="normal")
    created = models.DateTimeField(auto_now_add=True)
    closed_reason = models.CharField(max_length=300, blank=True, default="")  # why an admin closed it
    # A private table is not listed in the lobby; its invite code (in the invite link) lets
    # a friend take a seat or watch (games.play.invites).
    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=16, blank=True, default="", db_index=True)
    # Practice: no move clock, a learner is never taken over by a computer for thinking (solo only).
    practice = models.BooleanField(default=False)
    # Made by "Play now" (games.play.quickmatch): starts with computers after OKEY_QUICK_MATCH_WAIT.
    quick = models.BooleanField(default=False)
    # Sockets watching without a seat (anonymous visitors included), shown to the players and the lobby.
    spectators = models.PositiveIntegerField(default=0)
    # Rematch (games.play.rematch): the finished table points at the rematch offered from it;
    # the rematch table holds the invited humans' answers {user id: None | "yes" | "no"} and
    # when it starts anyway, with computers in the seats of those who declined or are silent.
    # The match's hash chain of server seeds (docs/fair-deals.md §10, okeysite-shuffle-2),
    # drawn when the table is created: `chain_tip` is public from then on, before anyone
    # takes a seat; `chain_seed` (the last round's seed, every other one derives from it)
    # stays secret; `chain_length` rounds can be dealt from it.
    chain_tip = models.CharField(max_length=64, blank=True, default="")
    chain_seed = models.CharField(max_length=64, blank=True, default="")
    chain_length = models.PositiveSmallIntegerField(default=0)
    # Seconds the first deal waits for every human seat's seed, connected or not, at a table
    # the site seated itself (an arena's: its players' pages are still on their way, and a
    # deal at once would hold no seed of theirs); 0: only connected seats are waited for.
    seed_wait = models.PositiveSmallIntegerField(default=0)
    rematch_table = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    rematch_answers = models.JSONField(default=dict, blank=True)
    rematch_deadline = models.DateTimeField(null=True, blank=True)
    # The ids of the users the creator removed (games.play.tables.remove_player): they may
    # watch, but never take a seat at this table again.
    removed = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created"]
        # the admin's list, newest first, reads the first rows of this index, not a sort of every table
        indexes = [models.Index(fields=["created", "id"], name="table_by_created")]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self):
        return f"#{self.pk} {self.ruleset} {self.mode} {self.status}"

    @property
    def ruleset_name(self):
        """The ruleset's display name ("Okey 51", "Okey 17", "Rami") for players."""
        return ruleset_name(self.ruleset)

    @property
    def group_name(self):
        """Channels group of this table's sockets: the public view and chat, never a rack
        (each seated user's view goes to `socket_groups.seat_group`)."""
        return socket_groups.table_group(self.pk)


class Seat(models.Model):
    """One seat of a table: a human (`user`) or a computer (`user` None, `bot_level`).

    `autoplay` means a computer plays the human's seat (two timeouts in a row, or a
    disconnect at an online table: RULES.md §6; a solo table waits for its player) until
    the human acts or reconnects.
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    bot_level = models.CharField(max_length=10, choices=BOT_LEVEL_CHOICES, blank=True, default="")
    connections = models.PositiveSmallIntegerField(default=0)
    consecutive_timeouts = models.PositiveSmallIntegerField(default=0)
    autoplay = models.BooleanField(default=False)
    # The player chose "Leave the match": a computer plays the seat for good, the player
    # watches, and they are last everywhere (games.results).
    left = models.BooleanField(default=False)
    # Set when the match ends: the player had no socket for its last OKEY_LEFT_AFTER_TURNS
    # turns, so they left it too (games.results); they keep the seat for a rematch offer.
    absent = models.BooleanField(default=False)
    # The seat's own turns that ended while its player had no socket at the table, since
    # their last socket closed; back to 0 when one opens or they act (games.results).
    away_turns = models.PositiveSmallIntegerField(default=0)
    # The client seed the seat's browser sent for the whole match after seeing the table's
    # chain tip (canonical, docs/fair-deals.md §10); None: nothing sent yet.
    client_seed = models.CharField(max_length=300, null=True, blank=True)

    class Meta:
        ordering = ["table", "index"]
        # a player's tables newest first (lobby, profile, the user admin) stop after the
        # few they show, whether the player sat at ten tables or twenty thousand
        indexes = [models.Index(fields=["user", "table"], name="seat_by_user_table")]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=models.Q(user__isnull=False), name="seat_unique_user"
            ),
        ]

    def __str__(self):
        return f"table {self.table_id} seat {self.index}"

    @property
    def connected(self):
        """True while at least one socket of the seat's user is open."""
        return self.connections > 0

    @property
    def is_computer(self):
        """True for a computer seat (no human ever sat there)."""
        return self.user_id is None and bool(self.bot_level)

    @property
    def computer_plays(self):
        """True when a computer plays this seat now (computer seat, or human on autoplay or gone)."""
        return self.is_computer or self.autoplay or self.left


class Match(models.Model):
    """A match of one or more rounds at a table; each round has its own seeds (`Round`)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="match")
    totals = models.JSONField(default=list)  # per seat, points so far (RULES.md §3)
    standings = models.JSONField(null=True, blank=True)  # seats best first, when finished
    rounds_planned = models.PositiveSmallIntegerField(null=True, blank=True)  # None: to a target
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    # When the finished match was written to the ratings or solo records (leaderboards.recording),
    # in the same transaction as that write; the sweeper records finished matches still without it.
    recorded = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        # exports and the ratings' recompute read matches in the order they ended, by keyset
        indexes = [models.Index(fields=["finished", "id"], name="match_by_finished")]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self):
        return f"match of table {self.table_id}"


class Round(models.Model):
    """One round (deal) of a match, with its results once over (docs/fair-deals.md).

    A round is created with a fresh secret `server_seed` and its `commitment` (sha256,
    public at once), then dealt (`initial_position`) by `algorithm` from the server seed,
    the round number (index + 1), the table id and the `client_seeds` in seat order. The
    server seed stays on the server until the round is over (`revealed_server_seed`); then
    anyone can re-deal and compare (the match page's Verify, `manage.py verify_round`,
    `python3 games/engine/fairdeal.py RECORD.json`). Rounds of `LEGACY_SHUFFLE` were dealt
    before that and have nothing to check.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    index = models.PositiveSmallIntegerField()
    server_seed = models.CharField(max_length=100)  # secret until the round is over
    commitment = models.CharField(max_length=64)
    client_seeds = models.JSONField(default=list)  # canonical, one per seat ("" for computers)
    algorithm = models.CharField(max_length=40)  # fairdeal.SHUFFLE_2 (or _1), or LEGACY_SHUFFLE
    chain_tip = models.CharField(max_length=64, blank=True, default="")  # shuffle-2: the table's chain tip
    first = models.PositiveSmallIntegerField(default=0)
    initial_position = models.JSONField(null=True, blank=True)  # null: committed, not dealt yet
    final_position = models.JSONField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)  # end-of-round amounts per seat
    penalties = models.JSONField(null=True, blank=True)  # in-round penalties per seat
    totals = models.JSONField(null=True, blank=True)  # scores + penalties per seat
    result = models.JSONField(null=True, blank=True)  # engine position["result"]
    # in-round penalties [{seat, amount, reason, tile, by}]: the round's Move.events, in play order
    penalty_events = models.JSONField(null=True, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    # Once the match is old (games.compaction): the round's move entries of the game record,
    # exactly as its Move rows gave them, and the rows deleted. Null: the rows are the moves.
    archived_moves = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="round_unique_index")]

    def __str__(self):
        return f"round {self.index} of match {self.match_id}"

    @property
    def is_over(self):
        """True once the round's results are stored."""
        return self.finished is not None

    @property
    def number(self):
        """The round number of the deal seed and the game record: 1 for the match's first round."""
        return self.index + 1

    @property
    def revealed_server_seed(self):
        """The server seed once the round is over, else None: nothing shown before (views,
        snapshot, admin, records) may let anyone re-deal a running round."""
        return self.server_seed if self.is_over else None

    @property
    def is_legacy(self):
        """True for a round dealt before verifiable deals (`LEGACY_SHUFFLE`)."""
        return self.algorithm == LEGACY_SHUFFLE


class RoundReview(models.Model):
    """The review of one seat's play in a finished round (docs/review.md): every turn of
    the seat judged against the best decision it could know of (`games.review`).

    Written once per (round, seat) by the `review_round` task after the round commits;
    `seed` is the text the sampled draws came from, so `games.review.review_seat` gives
    the same `turns` again. `user` is the seat's player when the round ended (None for a
    computer's seat, reviewed only by the benchmark). Private to that player unless their
    settings make their marks public (`PlayerSettings.public_review_marks`).
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="round_reviews")
    ruleset = models.CharField(max_length=16)
    method = models.PositiveSmallIntegerField()  # games.review.VERSION
    seed = models.CharField(max_length=64)
    accuracy = models.FloatField(null=True, blank=True)  # 0-100, None: no turn judged
    cost = models.PositiveIntegerField(default=0)  # RULES.md points given away in the round
    marks = models.JSONField(default=dict)  # {mark: count}
    turns = models.JSONField(default=list)  # games.review.review_seat()["turns"]
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["round", "seat"]
        constraints = [models.UniqueConstraint(fields=["round", "seat"], name="review_unique_round_seat")]

    def __str__(self):
        return f"review of seat {self.seat} in {self.round}"


class SolvedPuzzle(models.Model):
    """A "Find the better move" puzzle its player solved (docs/review.md, `games.training`):
    one turn of one of their `RoundReview`s. Kept in the database, not the session, so
    what a player solved survives a new login and another device."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="solved_puzzles")
    review = models.ForeignKey(RoundReview, on_delete=models.CASCADE, related_name="solved_puzzles")
    turn = models.PositiveSmallIntegerField()  # the review's turn number
    solved = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "review", "turn"], name="solved_puzzle_unique")]

    def __str__(self):
        return f"puzzle {self.review_id}-{self.turn} solved by {self.user_id}"


class Game(models.Model):
    """The live state of a table: one row, locked and version-checked by every write.

    `deadline` + `deadline_kind` is the single timer (ARCHITECTURE.md invariant 5):
    `move` (a human's turn time), `bot` (a computer's next action), `next_round`, `seed`
    (the seeding window before a deal, `games.play.seeding`); `timer_sent` the deadline
    whose timer task was sent.
    """

    class Deadline(models.TextChoices):
        NONE = "", "-"
        MOVE = "move", "move"
        BOT = "bot", "bot"
        NEXT_ROUND = "next_round", "next round"
        SEED = "seed", "seeding window"

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.CASCADE)
    round = models.ForeignKey(Round, null=True, blank=True, on_delete=models.SET_NULL)
    position = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    turn = models.SmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_kind = models.CharField(max_length=12, choices=Deadline.choices, blank=True, default="")
    # The deadline whose timer task went to the broker (games.play.timers): the writer sends
    # the timer of a deadline due soon, the sweep that of a later one once it is due soon;
    # this says which of them was sent, so neither sends it twice.
    timer_sent = models.DateTimeField(null=True, blank=True)

    def __str__(self):
        return f"game of table {self.table_id} v{self.version}"


class Move(models.Model):
    """Append-only move log: every accepted action, and refused ones that left a penalty.

    `events` are the in-round penalties the move caused, as the engine's step reported
    them (`Penalty.as_dict`: {seat, amount (points), reason, tile, by}); the score table
    reads them, nothing replays the log to rebuild them.
    """

    class Actor(models.TextChoices):
        HUMAN = "human", _("player")
        COMPUTER = "computer", _("computer")
        TIMEOUT = "timeout", _("computer (time out)")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()  # 1, 2, ... within the round
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    result = models.CharField(max_length=40, default="ok")  # "ok" or an error code
    actor = models.CharField(max_length=10, choices=Actor.choices, default=Actor.HUMAN)
    version = models.PositiveIntegerField()  # game version after this move
    events = models.JSONField(default=list, blank=True, null=True)  # null: logged before moves kept events
    # Draws of the round up to and including this move: the n-th draw took the n-th tile of
    # the pile as dealt (the move history names it for the drawer, games.history).
    draw_no = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="move_unique_number")]

    def __str__(self):
        return f"move {self.number} of round {self.round_id}: {self.action}"


class Connection(models.Model):
    """One open table socket, alive until `expires` (games.play.presence).

    A socket refreshes its row while its client keeps sending (the heartbeat), so a row
    left behind by a process that died expires on its own: presence and the per-user and
    per-IP socket caps count live rows, never a counter that a crash can leave too high.
    `seat` is set for a socket of the seat's player, None for a spectator.
    """

    channel = models.CharField(max_length=200, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+")
    ip = models.CharField(max_length=64, blank=True, default="")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.CASCADE, related_name="live_connections")
    expires = models.DateTimeField(db_index=True)

    class Meta:
        indexes = [models.Index(fields=["user", "expires"]), models.Index(fields=["ip", "expires"])]

    def __str__(self):
        return f"{self.channel} at table {self.table_id}"
