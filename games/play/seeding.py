"""The seeding window before each deal (docs/fair-deals.md §1, PROTOCOL `seeding` / `seed`).

A round is committed first (`rounds.open_round`: a fresh server seed, its commitment
public from now on); the table is told the commitment with the `seeding` frame and the
seats' browsers answer with a client seed each (`submit_seed`). The round is dealt as soon
as every connected human seat sent one, or when the window of OKEY_SEED_WINDOW seconds
passes (the `seed` deadline and its timer, `close_window`); a seat that sent nothing, a
computer and an empty seat contribute "". A seed only counts inside its round's window,
that is after the server published that round's commitment, which is what makes the
player's fresh seed a protection against a server choosing its seed (docs/fair-deals.md §1).

Without a window (OKEY_SEED_WINDOW 0, or a table with no human seat) the round is dealt at
once with empty seeds. Everything here runs on the commit path (`games.play.commit`).
"""
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import seeding_state
from games.engine import fairdeal
from games.models import Game, Table
from games.play import commit, rounds

EARLY_TOLERANCE = timedelta(seconds=0.5)  # a window timer firing earlier than this waits for its time
MAX_SEED_CHARS = 256  # longer texts are refused before normalisation (which allows 64 code points)


@dataclass
class SeedOutcome:
    """Result of `submit_seed`: `ok`, the canonical `seed` kept (when ok), the refusal
    `code` (games.errors), and `dealt` (the seed completed the window: the round is dealt)."""

    ok: bool
    seed: str | None = None
    code: str | None = None
    dealt: bool = False


def start_match(write):
    """Open the write's table's match and begin its round 0 (`begin_round`). Returns None."""
    rounds.new_match(write.game, write.table)
    begin_round(write, 0)


def begin_round(write, index):
    """Commit round `index` (0-based) of the write's match and either deal it now (no
    window: OKEY_SEED_WINDOW 0 or no human seat) or open its seeding window: the `seed`
    deadline OKEY_SEED_WINDOW seconds from now, a version bump whose snapshots carry
    `seeding`, and the `seeding` frame to the table's sockets after commit. Returns None."""
    game, table = write.game, write.table
    rnd = rounds.open_round(table, game.match, index)
    window = settings.OKEY_SEED_WINDOW
    if window <= 0 or not any(seat.user_id is not None for seat in write.seats):
        _deal(write, rnd, {})
        return
    write.open_seeding(timezone.now() + timedelta(seconds=window))
    commit.send_to_table(table, {"type": "table.seeding", "version": game.version,
                                 "seeding": seeding_state.seeding_frame(game, rnd)})


def submit_seed(user, table_id, number, seed):
    """A seat's browser sends its client seed for round `number` (from 1).

    Checks in order: seated (`not_seated`: spectators send none), a window open for that
    round (`seed_closed`: before the commitment was published, or after the deal), the
    seed itself (`bad_seed`: not a string, longer than MAX_SEED_CHARS, or refused by
    `fairdeal.normalise_client_seed`). A refusal changes nothing. An accepted seed replaces
    the seat's earlier one in this window; when every connected human seat has sent one
    the round is dealt now. Returns SeedOutcome. Raises TableError("not_found").
    """
    with commit.locked(table_id) as write:
        game = write.game
        seat = write.seat_of(user)
        if seat is None:
            return SeedOutcome(False, code="not_seated")
        rnd = seeding_state.pending_round(game) if game.deadline_kind == Game.Deadline.SEED else None
        if rnd is None or write.table.status != Table.Status.PLAYING or rnd.number != number:
            return SeedOutcome(False, code="seed_closed")
        if not isinstance(seed, str) or len(seed) > MAX_SEED_CHARS:
            return SeedOutcome(False, code="bad_seed")
        try:
            canonical = fairdeal.normalise_client_seed(seed)
        except ValueError:
            return SeedOutcome(False, code="bad_seed")
        seeds = seeding_state.pending_seeds(rnd, write.table.players)
        seeds[seat.index] = canonical
        rnd.client_seeds = seeds
        rnd.save(update_fields=["client_seeds"])
        waiting = [s.index for s in write.seats if s.user_id is not None and s.connected and seeds[s.index] is None]
        if waiting:
            return SeedOutcome(True, canonical)
        _deal(write, rnd, seeds)
        return SeedOutcome(True, canonical, dealt=True)


def close_window(game_id, token):
    """The seeding window whose deadline token is `token` passed (Celery `seeding_timeout`): deal the
    round with the seeds that arrived ("" for the others). Does nothing (returns False)
    when the deadline moved on from that one or is not a window's; sends the timer again when
    it fired early. Returns True when it dealt."""
    with commit.locked_timer(game_id, token, Game.Deadline.SEED) as write:
        if write is None:
            return False
        game = write.game
        if game.deadline and game.deadline > timezone.now() + EARLY_TOLERANCE:
            write.resend_timer()
            return False
        rnd = seeding_state.pending_round(game)
        if rnd is None or write.table.status != Table.Status.PLAYING:
            write.end_seeding()
            write.commit()
            return False
        _deal(write, rnd, seeding_state.pending_seeds(rnd, write.table.players))
        return True


def _deal(write, rnd, seeds):
    # `seeds`: per seat the canonical seed or None, or {} (none): None and missing are "".
    sent = {seat: seed for seat, seed in (enumerate(seeds) if isinstance(seeds, list) else seeds.items())
            if seed is not None}
    game, table = write.game, write.table
    write.end_seeding()  # the commit arms the first turn
    write.commit(rounds.deal_round(game, table, game.match, rnd.index, sent))
    if not table.private and table.mode == Table.Mode.ONLINE:
        write.lobby_changed()  # the lobby's running matches show the round now being played
