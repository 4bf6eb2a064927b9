"""The seats' client seeds (docs/fair-deals.md §1, §10, docs/protocol.md §2-§3 `seed` / `seeding`).

Tables with a hash chain (okeysite-shuffle-2, every table created now): the chain's tip is
public from the table's creation; each human seat's browser sends its client seed once for
the whole match as it takes the seat (`submit_seed` while the table is open, kept in
`Seat.client_seed`). At the start (`start_match`) round 1 is dealt at once when every
connected human seat has sent one; otherwise a short window (OKEY_SEED_WINDOW) lets those
seats send theirs; a solo table waits for its player's seed (at most OKEY_SOLO_SEED_CAP), a
table the site seated itself for every player's (at most its `seed_wait`: an arena's). A
computer, and a human that sent nothing and whose socket stayed closed, contribute "".
Every later round is dealt at once from the same seeds, with no window.

Older tables (okeysite-shuffle-1, no chain) keep one window per round, as follows.

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
from games.engine import fairdeal, text_rules
from games.models import Game, Round, Table
from games.play import commit, rounds

EARLY_TOLERANCE = timedelta(seconds=0.5)  # a window timer firing earlier than this waits for its time


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


def _solo(table):
    return table.mode == Table.Mode.SOLO


def _waiting(write, seeds):
    """Human seats whose seed the first deal of a chained match still waits for: at a solo
    table, or one the site seated itself (`Table.seed_wait`), every human, connected or not
    (the page may still be loading); elsewhere the connected humans without one. `seeds`:
    per seat the canonical seed or None."""
    every = _solo(write.table) or write.table.seed_wait > 0
    return [s.index for s in write.seats if s.user_id is not None and seeds[s.index] is None
            and (s.connected or every)]


def _begin_chained(write, rnd):
    """Round `rnd` of a chained match: round 1 waits for the seats' seeds (module doc),
    every later round is dealt now from the seeds round 1 was dealt with."""
    game, table = write.game, write.table
    if rnd.index > 0:
        first = Round.objects.filter(match=game.match, index=0).values_list("client_seeds", flat=True).first()
        _deal(write, rnd, dict(enumerate(first or [])))
        return
    given = rounds.match_seeds(table, write.seats)
    seeds = [given.get(i) for i in range(table.players)]
    window = settings.OKEY_SEED_WINDOW
    if window <= 0 or not _waiting(write, seeds):
        _deal(write, rnd, given)
        return
    rnd.client_seeds = seeds
    rnd.save(update_fields=["client_seeds"])
    if _solo(table):
        wait = max(window, settings.OKEY_SOLO_SEED_CAP)
    else:
        wait = table.seed_wait or window
    write.open_seeding(timezone.now() + timedelta(seconds=wait))
    commit.send_to_table(table, {"type": "table.seeding", "version": game.version,
                                 "seeding": seeding_state.seeding_frame(game, rnd)})


def begin_round(write, index):
    """Commit round `index` (0-based) of the write's match and either deal it now (no
    window: OKEY_SEED_WINDOW 0 or no human seat) or open its seeding window: the `seed`
    deadline OKEY_SEED_WINDOW seconds from now, a version bump whose snapshots carry
    `seeding`, and the `seeding` frame to the table's sockets after commit. Returns None."""
    game, table = write.game, write.table
    rnd = rounds.open_round(table, game.match, index)
    if rnd.algorithm == fairdeal.SHUFFLE_2:
        _begin_chained(write, rnd)
        return
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
    seed itself (`bad_seed`: `text_rules.seed_text` refuses it: 1-128 printable ASCII
    characters, docs/fair-deals.md §2; a table from before the chain takes 64 at most).
    A refusal changes nothing. An accepted seed replaces the seat's earlier one in this
    window; when every connected human seat has sent one the round is dealt now.
    Returns SeedOutcome. Raises TableError("not_found").
    """
    with commit.locked(table_id) as write:
        game = write.game
        seat = write.seat_of(user)
        if seat is None:
            return SeedOutcome(False, code="not_seated")
        if write.table.chain_seed:
            return _submit_chained(write, seat, number, seed)
        rnd = seeding_state.pending_round(game) if game.deadline_kind == Game.Deadline.SEED else None
        if rnd is None or write.table.status != Table.Status.PLAYING or rnd.number != number:
            return SeedOutcome(False, code="seed_closed")
        canonical = _canonical(seed)
        if canonical is None or len(canonical) > fairdeal.LEGACY_SEED_MAX:  # a shuffle-1 round holds 64 at most
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


def _canonical(seed):
    # the one rule for typed text, then the record grammar's printable ASCII
    try:
        return text_rules.seed_text(seed)
    except ValueError:
        return None


def _submit_chained(write, seat, number, seed):
    # The match's seed is sent for round 1: accepted while the table is open (a later one
    # replaces it) and in the start's window, refused once round 1 is dealt.
    game, table = write.game, write.table
    rnd = seeding_state.pending_round(game) if game.deadline_kind == Game.Deadline.SEED else None
    window_open = rnd is not None and rnd.index == 0 and table.status == Table.Status.PLAYING
    if number != 1 or not (table.status == Table.Status.OPEN or window_open):
        return SeedOutcome(False, code="seed_closed")
    canonical = _canonical(seed)
    if canonical is None:
        return SeedOutcome(False, code="bad_seed")
    seat.client_seed = canonical
    seat.save(update_fields=["client_seed"])
    if not window_open:
        return SeedOutcome(True, canonical)
    seeds = seeding_state.pending_seeds(rnd, table.players)
    seeds[seat.index] = canonical
    rnd.client_seeds = seeds
    rnd.save(update_fields=["client_seeds"])
    if _waiting(write, seeds):
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
