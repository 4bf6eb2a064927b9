"""Computer play for a seat: the bot's choice on the seat's own view, checked by the
engine, with a fallback from the engine's legal actions (PLAYERS.md: a computer fills
an empty or abandoned seat, RULES.md §6 timeouts and autoplay).

Pure functions of positions: they return `commit.Played` actions and store nothing.
"""
import hashlib
import logging

from games.bots import choose_action
from games.engine import api
from games.play.commit import Played

log = logging.getLogger("games.play")

MAX_COMPUTER_STEPS = 80  # actions a computer may take in one turn before its turn is ended for it
FALLBACK_TYPES = ("draw", "discard")  # the fallback only draws and discards


def bot_seed(round_seed, version, n):
    """The seed of one bot decision (str, 16 hex digits) from the round seed, the game
    version and a counter `n`. Never the round seed itself: it would re-deal the pile and
    the racks."""
    return hashlib.sha256(f"bot:{round_seed}:{version}:{n}".encode()).hexdigest()[:16]


def fallback(position, seat):
    """The simplest legal action of `seat`, taken from `api.legal_actions`: a draw when one
    is legal, else a discard that costs no penalty (the false joker last), else any legal
    discard. Returns (action dict with "seat", its accepted `api.Step`).
    Raises RuntimeError when `seat` has no legal draw nor discard (a broken position)."""
    best = None
    for action in api.legal_actions(position, seat):
        if action.get("type") not in FALLBACK_TYPES:
            continue
        step = api.step(position, action)
        if not step.accepted:
            continue
        rank = (action["type"] != "draw", bool(step.penalties), action.get("tile") == "F")
        if best is None or rank < best[0]:
            best = (rank, action, step)
    if best is None:
        raise RuntimeError(f"seat {seat} has no legal draw or discard")
    return best[1], best[2]


def choose(position, seat, level, seed):
    """One accepted action of the computer at `seat`: `games.bots.choose_action` on the
    seat's view (`api.view`), or `fallback` when the bot fails or the engine refuses its
    choice (a refused choice is not charged: only the fallback is played).
    Args: `level` (bot level id), `seed` (str). Returns (action dict with "seat", Step)."""
    try:
        action = dict(choose_action(api.view(position, seat), level or "normal", seed))
        action["seat"] = seat
        step = api.step(position, action)
        if step.accepted:
            return action, step
        log.warning("bot action %s refused (%s); using the fallback", action, step.code)
    except Exception:  # noqa: BLE001 - a failing bot must not stall the table
        log.exception("bot failed at seat %s; using the fallback", seat)
    return fallback(position, seat)


def play_turn(game, seat, level, actor):
    """The rest of `seat`'s turn played by the computer (a timeout, RULES.md §6).

    Plays until the turn passes or the round ends; after MAX_COMPUTER_STEPS actions the
    turn is ended with `fallback` actions (a draw when due, then a discard).
    Returns (the position reached, [Played, ...]) — no actions when it is not `seat`'s turn.
    """
    position = game.position
    played = []

    def own_turn():
        return not api.is_over(position) and position["turn"] == seat.index

    for n in range(MAX_COMPUTER_STEPS):
        if not own_turn():
            break
        action, step = choose(position, seat.index, level, bot_seed(game.round.server_seed, game.version, n))
        played.append(Played(seat.index, action, actor, step))
        position = step.position
    else:
        for _ in range(len(FALLBACK_TYPES)):  # a draw (when the phase asks for one), then a discard
            if not own_turn():
                break
            action, step = fallback(position, seat.index)
            played.append(Played(seat.index, action, actor, step))
            position = step.position
    return position, played
