"""Match flow on the stored rows: a new match, a round's commitment and deal, a finished
round's results.

Called only inside the commit path's transaction (`games.play.commit`), which then bumps
the version and arms the deadline; nothing here touches the version, the move log or
the deadline. Every fact about the ruleset comes from its object (`api.ruleset`).

A round is dealt in two steps (docs/fair-deals.md §1, §10): `open_round` creates it with its
server seed and public commitment, then `deal_round` deals it from that server seed and the
client seeds. Tables with a hash chain (`draw_chain`, at creation: okeysite-shuffle-2) take
round k's server seed from the chain and every round's client seeds from the seats' seeds
given once for the match; older tables (okeysite-shuffle-1) draw a fresh server seed per
round and collect seeds in a window per round (`games.play.seeding`,
`games.seeding_state.pending_seeds`: None for a seat that sent nothing yet).
"""
from django.utils import timezone

from games import results
from games.engine import api, fairdeal
from games.models import Match, Move, Round, Seat, Table


def chain_length_of(ruleset, options, players):
    """How many server seeds a new table's chain holds: the match's round count, or
    `fairdeal.CHAIN_MAX` for a match played to a target score. Returns int."""
    return min(api.ruleset(ruleset).match_length(options, players) or fairdeal.CHAIN_MAX, fairdeal.CHAIN_MAX)


def draw_chain(length):
    """A new table's hash chain (docs/fair-deals.md §10): {"chain_seed": the secret last
    seed (32 bytes from `secrets`, 64 hex), "chain_tip": the public tip, "chain_length":
    `length`}, the Table fields. Raises ValueError for a length outside 1..CHAIN_MAX."""
    last = fairdeal.server_seed()
    return {"chain_seed": last, "chain_tip": fairdeal.chain(last, length)[0], "chain_length": length}


def chained(table, number):
    """Whether round `number` (from 1) of `table` is dealt from its hash chain (shuffle-2)."""
    return bool(table.chain_seed) and 1 <= number <= table.chain_length


def match_seeds(table, seats):
    """The seats' client seeds given for the match, {seat index: canonical seed} for the
    human seats that sent one (`Seat.client_seed`)."""
    return {s.index: s.client_seed for s in seats if s.user_id is not None and s.client_seed is not None}


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
    if chained(table, index + 1):  # round k's seed is the chain's k-th link: it checks against the tip
        server_seed = fairdeal.chain(table.chain_seed, table.chain_length)[index + 1]
        algorithm, tip = fairdeal.SHUFFLE_2, table.chain_tip
    else:  # a table from before the chain, or a target match longer than its chain
        server_seed, algorithm, tip = fairdeal.server_seed(), fairdeal.SHUFFLE_1, ""
    return Round.objects.create(
        match=match, index=index, server_seed=server_seed, commitment=fairdeal.commitment(server_seed),
        algorithm=algorithm, chain_tip=tip, first=index % table.players, client_seeds=[],
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


def seat_kinds(table):
    """Each seat's kind as the game record writes it (`records.player_entry`: a seat with
    a computer level is "computer", any other "human"), in seat order: shuffle-2 binds
    them into the deal."""
    seats = {index: (level, user) for index, level, user in
             Seat.objects.filter(table=table).values_list("index", "bot_level", "user_id")}
    return ["computer" if seats.get(i, ("", None))[0] and seats[i][1] is None else "human"
            for i in range(table.players)]


def deal_round(game, table, match, index, client_seeds=None):
    """Deal round `index` (0-based) of `match` and make it the game's round.

    The round is the one `open_round` committed (committed now if it was not); the deal
    seed is `fairdeal.deal_seed_2(server seed, round number index + 1, table id, chain tip,
    client seeds, seat kinds)` (`okeysite-shuffle-2`; `fairdeal.deal_seed` without the tip
    and kinds for a shuffle-1 round) and the ruleset lays the round out with it.
    Args: `client_seeds`: {seat index: text} (see `client_seeds_for`; None: none sent).
    Returns the dealt position for `Write.commit`. Raises ValueError for a refused client
    seed (nothing is dealt then) or a round that is already dealt.
    """
    rnd = open_round(table, match, index)
    if rnd.initial_position is not None:
        raise ValueError(f"round {rnd.number} is already dealt")
    seeds = client_seeds_for(table, client_seeds)
    if rnd.algorithm == fairdeal.SHUFFLE_2:
        deal_seed = fairdeal.deal_seed_2(rnd.server_seed, rnd.number, str(table.pk), rnd.chain_tip, seeds,
                                         seat_kinds(table))
    else:
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
