"""The state of a round's seeding window as stored (docs/fair-deals.md §1): the round
committed and waiting for its deal, the seeds it collected, and the public frame of the
window. Reads only: the views (`games.snapshot`) show it, the writer
(`games.play.seeding`) fills it.
"""
from games.models import Game, Round


def pending_round(game):
    """The round of the game's match that is committed and waiting for its deal (the one
    after the game's round, or round 0), or None. One query."""
    if game.match_id is None:
        return None
    index = game.round.index + 1 if game.round_id else 0
    rnd = Round.objects.filter(match_id=game.match_id, index=index).first()
    return rnd if rnd is not None and rnd.initial_position is None else None


def pending_seeds(rnd, players):
    """The seeds round `rnd` collected so far in its seeding window: a list, one per seat,
    of the canonical seed or None (nothing sent yet)."""
    seeds = list(rnd.client_seeds or [])
    return (seeds + [None] * players)[:players]


def seeding_frame(game, rnd=None):
    """The public state of the game's seeding window (docs/protocol.md §3 `seeding`): {round (number,
    from 1), commitment (sha256 of the round's server seed, docs/fair-deals.md §2),
    deadline (epoch ms: the deal comes then at the latest), sent (per seat: a seed
    arrived)}, or None when no window is open. `rnd`: the pending round if already read."""
    if game.deadline_kind != Game.Deadline.SEED:
        return None
    rnd = rnd or pending_round(game)
    if rnd is None:
        return None
    players = game.table.players
    frame = {"round": rnd.number, "commitment": rnd.commitment,
             "deadline": int(game.deadline.timestamp() * 1000) if game.deadline else None,
             "sent": [seed is not None for seed in pending_seeds(rnd, players)]}
    if rnd.chain_tip:  # shuffle-2: the seed sent now serves the whole match, under this tip
        frame["chain_tip"] = rnd.chain_tip
    return frame
