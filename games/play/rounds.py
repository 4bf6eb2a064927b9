"""Match flow on the stored rows: a new match, a round's deal, a finished round's results.

Called only inside the commit path's transaction (`games.play.commit`), which then bumps
the version and arms the deadline; nothing here touches the version, the move log or
the deadline. Every fact about the ruleset comes from its object (`api.ruleset`).
"""
import secrets

from games.engine import api
from games.models import Match, Move, Round, Table, seed_commitment


def start_match(game, table):
    """Open the match of `table` (its seed from `secrets`), set the table playing and deal
    round 0. Returns the dealt position (RULES.md §7) for `Write.commit`."""
    rules = api.ruleset(table.ruleset)
    match = Match.objects.create(
        table=table, seed=secrets.token_hex(16), totals=[0] * table.players,
        rounds_planned=rules.match_length(table.options, table.players),
    )
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    game.match = match
    return deal_round(game, table, match, index=0)


def deal_round(game, table, match, index):
    """Create round `index` (0-based) of `match` and make it the game's round.

    The deal comes from the round's seed (`Match.round_seed`), whose sha256 commitment is
    public from now on; the first seat rotates one seat per round (RULES.md §1).
    Returns the dealt position for `Write.commit`.
    """
    seed = match.round_seed(index)
    first = index % table.players
    position = api.ruleset(table.ruleset).deal(table.options, seed, table.players, first)
    game.round = Round.objects.create(
        match=match, index=index, seed=seed, commitment=seed_commitment(seed), first=first,
        initial_position=position,
    )
    return position


def finish_round(game, table, now):
    """Store the results of the game's round, whose position is over, and add them to the
    match (RULES.md §3-§5 scores, in-round penalties).

    The round's penalty events are its moves' stored events in play order (the engine
    reported them with each step; nothing is replayed). When the match is over
    (`match_over` of the ruleset) it gets its end time and standings (team-aware,
    `standings`) and the table is finished. `now`: aware datetime.
    Returns True when the match is over.
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
        match.standings = rules.standings(table.options, match.totals)
        table.status = Table.Status.FINISHED
        table.save(update_fields=["status"])
    match.save()
    return over
