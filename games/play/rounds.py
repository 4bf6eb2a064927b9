"""Match flow on the stored rows: a new match, a round's commitment and deal, a finished
round's results.

Called only inside the commit path's transaction (`games.play.commit`), which then bumps
the version and arms the deadline; nothing here touches the version, the move log or
the deadline. Every fact about the ruleset comes from its object (`api.ruleset`).

A round is dealt in two steps (docs/fair-deals.md §1): `open_round` creates it with a
fresh secret server seed and its public commitment, then `deal_round` deals it from that
server seed and the client seeds the seats sent after seeing the commitment. The seeding
window between the two (`games.play.seeding`) collects those seeds in the round's
`client_seeds` (`games.seeding_state.pending_seeds`: None for a seat that sent nothing yet).
"""
from django.utils import timezone

from games import results
from games.engine import api, fairdeal
from games.models import Match, Move, Round, Seat, Table


def new_match(game, table):
    """Open the match of `table` and set the table playing; its round 0 is not committed
    yet (`games.play.seeding.begin_round` does that). Returns the Match."""
    rules = api.ruleset(table.ruleset)
    match = Match.objects.create(
        table=table, totals=[0] * table.players, rounds_planned=rules.match_length(table.options, table.players),
    )
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    game.match = match
    return match


def open_round(table, match, index):
    """Round `index` (0-based) of `match`, committed and not dealt yet: a fresh server seed
    (`fairdeal.server_seed`, 32 bytes from `secrets`), its commitment (public from now on),
    the algorithm id and the first seat, which rotates one seat per round (RULES.md §1).
    The round already committed for `index` is returned as it is: a round has exactly one
    commitment (docs/fair-deals.md §1). Returns the Round."""
    committed = Round.objects.filter(match=match, index=index).first()
    if committed is not None:
        return committed
    server_seed = fairdeal.server_seed()
    return Round.objects.create(
        match=match, index=index, server_seed=server_seed, commitment=fairdeal.commitment(server_seed),
        algorithm=fairdeal.ALGORITHM, first=index % table.players, client_seeds=[],
    )


def client_seeds_for(table, seeds=None):
    """The client seeds of a deal in seat order, canonical (docs/fair-deals.md §2).

    Args: `table`; `seeds`: {seat index: text} from the seats' browsers, or None (every
    seat ""). A computer seat always contributes "" (a seed the server picked for its own
    seat would let it try deals). Returns a list of str, one per seat.
    Raises ValueError for a seed normalisation refuses, or a seat the table does not have.
    """
    seeds = dict(seeds or {})
    if any(type(seat) is not int or not 0 <= seat < table.players for seat in seeds):
        raise ValueError("a client seed names a seat the table does not have")
    computers = set(Seat.objects.filter(table=table, user__isnull=True).values_list("index", flat=True))
    return ["" if seat in computers else fairdeal.normalise_client_seed(seeds.get(seat, ""))
            for seat in range(table.players)]


def deal_round(game, table, match, index, client_seeds=None):
    """Deal round `index` (0-based) of `match` and make it the game's round.

    The round is the one `open_round` committed (committed now if it was not); the deal
    seed is `fairdeal.deal_seed(server seed, round number index + 1, table id, client
    seeds)` and the ruleset lays the round out with it (`okeysite-shuffle-1`).
    Args: `client_seeds`: {seat index: text} (see `client_seeds_for`; None: none sent).
    Returns the dealt position for `Write.commit`. Raises ValueError for a refused client
    seed (nothing is dealt then) or a round that is already dealt.
    """
    rnd = open_round(table, match, index)
    if rnd.initial_position is not None:
        raise ValueError(f"round {rnd.number} is already dealt")
    seeds = client_seeds_for(table, client_seeds)
    deal_seed = fairdeal.deal_seed(rnd.server_seed, rnd.number, str(table.pk), seeds)
    position = api.ruleset(table.ruleset).deal(table.options, deal_seed, table.players, rnd.first)
    rnd.client_seeds = seeds
    rnd.initial_position = position
    rnd.started = timezone.now()  # the deal, not the commitment, starts the round's clock
    rnd.save(update_fields=["client_seeds", "initial_position", "started"])
    game.round = rnd
    return position


def finish_round(game, table, now, seats=None):
    """Store the results of the game's round, whose position is over, and add them to the
    match (RULES.md §3-§5 scores, in-round penalties).

    The round's penalty events are its moves' stored events in play order (the engine
    reported them with each step; nothing is replayed). When the match is over
    (`match_over` of the ruleset) it gets its end time and standings, and the table is
    finished: the seats that left are marked so for good (`results.freeze_leavers`) and
    the standings are the result's order (`results.match_result`: team-aware, leavers
    last). `now`: aware datetime; `seats`: the table's Seats in seat order (None: read
    here). Returns True when the match is over.
    """
    position = game.position
    rnd = game.round
    match = game.match
    rules = api.ruleset(table.ruleset)
    rnd.final_position = position
    rnd.scores = api.round_scores(position)
    rnd.totals = api.round_totals(position)
    rnd.penalties = [seat.get("penalty", 0) for seat in position["seats"]]
    rnd.result = position.get("result")
    stored = Move.objects.filter(round=rnd).order_by("number").values_list("events", flat=True)
    rnd.penalty_events = [event for events in stored for event in events or ()]
    rnd.finished = now
    rnd.save()
    match.totals = [a + b for a, b in zip(match.totals, rnd.totals or [0] * table.players)]
    over = rules.match_over(table.options, table.players, match.totals, rnd.index + 1)
    if over:
        match.finished = now
        if seats is None:
            seats = list(Seat.objects.filter(table=table).order_by("index"))
        results.freeze_leavers(seats)
        match.standings = results.match_result(table, match.totals, seats).order
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
    match.save()
    return over
