"""Replays of finished rounds: the replay check of a recorded move log, the positions a
replay page steps through, and reading a game record someone uploads.

Every position comes from the engine's one replay loop over the recorded moves
(`api.replay`, move by move), so a replay shows exactly what the moves
did. A record file is never trusted: `load_record` checks its shape, that each round's
initial position is a full deal of the ruleset's set, and that every move replays with
the result and penalties it records (docs/game-record.md); anything else is a
`RecordError` with a sentence saying what is wrong, in the active language.
"""
import json
from collections import Counter

from django.utils.translation import gettext as _

from games.engine import api, fairdeal
from games.engine.tiles import is_tile
from games.models import Move
from games.move_text import describe_move, describe_penalty
from games.rules.tiles import tile_words
from games.snapshot import computer_label

MAX_RECORD_BYTES = 4 * 1024 * 1024
"""The largest record file the replay page reads (a 7-round okey17 match is about 300 KB)."""
MAX_ROUNDS = 32
MAX_MOVES = 5000
"""Moves a record may hold in all its rounds (a 7-round okey17 match has about 1,500): the
server replays them all for one request."""
FRAME_KEYS = ("turn", "phase", "pile_count", "discards", "table", "indicator", "okey", "opened", "penalty", "result")
"""What a replay frame keeps of the spectator's view (`api.view(position, None)`); every
rack is added, since a finished round hides nothing."""


class RecordError(ValueError):
    """A record that cannot be replayed; `str()` is the reason for the player."""


def _actions(moves):
    # The recorded moves' actions, for `api.replay`; a move that is not an object with an
    # action stops the replay there with the reason.
    for move in moves:
        if not isinstance(move, dict):
            raise RecordError(_("a move is a JSON object"))
        if "action" not in move:
            raise RecordError(repr("action"))
        yield move["action"]


def replay_check(initial, moves, result=None):
    """Replay recorded `moves` from `initial` and compare each with what it records, on
    the engine's one replay loop (`api.replay`, played lazily: it stops at the first move
    that does not replay).

    Args: `initial` (a position), `moves` ([{number, action, result ("ok" or a refusal
    code), penalties}]), `result` (the recorded {end, scores, totals, ...} or None while
    the round runs: its scores, totals and end — the engine's final racks and last
    discard — must be the replay's). Returns (positions, problems): the position before
    the first move and after each replayed move, and sentences saying where the log does
    not replay (empty when everything matches). Never raises.
    """
    positions, problems = [initial], []
    position = initial
    steps = api.replay(initial, _actions(moves))
    for k, move in enumerate(moves):
        number = move.get("number", k + 1) if isinstance(move, dict) else k + 1
        try:
            step = next(steps)
        except RecordError as exc:
            problems.append(_("move %(n)s does not replay: %(why)s") % {"n": number, "why": exc})
            return positions, problems
        except Exception as exc:  # noqa: BLE001 - an uploaded record may hold anything
            why = _("the engine cannot play it (%(error)s)") % {"error": type(exc).__name__}
            problems.append(_("move %(n)s does not replay: %(why)s") % {"n": number, "why": why})
            return positions, problems
        got = "ok" if step.accepted else step.code
        if got != move.get("result") or not step.changed:
            problems.append(_("move %(n)s does not replay: the engine answers %(got)s, the record says %(recorded)s")
                            % {"n": number, "got": got, "recorded": move.get("result")})
            return positions, problems
        if step.events() != move.get("penalties"):
            problems.append(_("move %(n)s does not cause the penalties it records") % {"n": number})
        position = step.position
        positions.append(position)
    over = api.is_over(position)
    if result is not None and not over:
        problems.append(_("the moves do not end the round, but the record gives its result"))
    elif result is None and over:
        problems.append(_("the moves end the round, but the record gives no result"))
    elif over and not isinstance(result, dict):
        problems.append(_("the moves end the round, but the record gives no result"))
    elif over and (api.round_scores(position) != result.get("scores")
                   or api.round_totals(position) != result.get("totals")):
        problems.append(_("the replayed scores %(got)s differ from the recorded %(recorded)s")
                        % {"got": api.round_totals(position), "recorded": result.get("totals")})
    elif over and "end" in result and result["end"] != position.get("result"):
        problems.append(_("the replayed end of the round (final racks, last discard) differs from the recorded one"))
    return positions, problems


def frame(position):
    """One replay frame: the spectator's view of `position` (FRAME_KEYS) plus `racks`
    (every seat's rack, in the seat's order)."""
    view = api.view(position, None)
    out = {key: view[key] for key in FRAME_KEYS if key in view}
    out["racks"] = [list(seat["rack"]) for seat in position["seats"]]
    return out


def round_frames(round_record, names):
    """The replay of one finished round of a record: {number, first, frames (len(moves) + 1:
    the deal, then after each move), moves [`move_lines` entries; a draw also names the
    tile drawn: text, "drawn"]}.

    `names`: display name per seat. Raises RecordError when the moves do not replay."""
    moves = round_record["moves"]
    positions, problems = replay_check(round_record["initial"], moves, round_record.get("result"))
    if problems:
        raise RecordError(_("round %(n)s: %(problem)s") % {"n": round_record.get("number"), "problem": problems[0]})
    lines = move_lines(moves, names)
    for before, move, line in zip(positions, moves, lines):
        if move["action"].get("type") == "draw" and before.get("pile"):  # a replay hides nothing: say which tile
            drawn = before["pile"][0]
            line["text"] = _("%(name)s drew %(tile)s") % {"name": names[line["seat"]], "tile": tile_words(drawn)}
            if move.get("actor") == "timeout":
                line["text"] = _("%(move)s (the computer played for %(name)s)") % {
                    "move": line["text"], "name": names[line["seat"]]}
            line["drawn"] = drawn  # the code, for the page to mark the tile
    try:
        frames = [frame(p) for p in positions]
    except Exception as exc:  # noqa: BLE001 - a position the engine played but cannot show: a malformed file
        raise RecordError(_("round %(n)s: %(problem)s") % {
            "n": round_record.get("number"),
            "problem": _("the engine cannot play it (%(error)s)") % {"error": type(exc).__name__}}) from None
    return {"number": round_record.get("number"), "first": round_record.get("first"),
            "frames": frames, "moves": lines}


def move_lines(moves, names):
    """Recorded moves in words, in the active language: [{number, seat, actor (who played:
    "player", "computer", "computer (time out)"), text, refused (a penalised refusal),
    penalties (sentences)}]. `names`: display name per seat."""
    actors = dict(Move.Actor.choices)
    out = []
    for k, move in enumerate(moves):
        seat = move["action"]["seat"]
        out.append({"number": move.get("number", k + 1), "seat": seat,
                    "actor": str(actors.get(move.get("actor"), "")),
                    "text": describe_move(names[seat], move["action"], move["result"], move.get("actor")),
                    "refused": move["result"] != "ok",
                    "penalties": [describe_penalty(names, e) for e in move["penalties"]]})
    return out


# ----------------------------------------------------------- reading a record
def _require(condition, message):
    if not condition:
        raise RecordError(message)


def _check_players(players, ruleset):
    rules = api.ruleset(ruleset)
    _require(isinstance(players, list) and len(players) in rules.seat_counts,
             _("the record needs one player per seat (%(ruleset)s: %(counts)s seats)")
             % {"ruleset": ruleset, "counts": ", ".join(map(str, rules.seat_counts))})
    for seat, player in enumerate(players):
        _require(isinstance(player, dict) and player.get("kind") in ("human", "computer")
                 and isinstance(player.get("name"), str) and len(player["name"]) <= 150
                 and (player.get("level") is None or isinstance(player.get("level"), str)),
                 _("player %(n)s of the record is malformed") % {"n": seat + 1})


def _check_initial(initial, ruleset, players, first, number):
    """A round's initial position must be a fresh deal of the whole set: racks and pile of
    tiles (and the indicator) holding exactly the ruleset's set, nothing on the table."""
    where = {"n": number}
    _require(isinstance(initial, dict) and initial.get("ruleset") == ruleset,
             _("round %(n)s: the initial position is not a position of this game") % where)
    seats, pile = initial.get("seats"), initial.get("pile")
    _require(isinstance(seats, list) and len(seats) == players and isinstance(pile, list)
             and all(isinstance(s, dict) and isinstance(s.get("rack"), list) for s in seats),
             _("round %(n)s: the initial position has no rack per seat or no pile") % where)
    tiles = [t for s in seats for t in s["rack"]] + list(pile)
    if initial.get("indicator") is not None:
        tiles.append(initial["indicator"])
    _require(all(is_tile(t) for t in tiles) and Counter(tiles) == Counter(fairdeal.tile_set(ruleset, players))
             and not initial.get("table") and initial.get("turn") == first and initial.get("result") is None,
             _("round %(n)s: the initial position is not a fresh deal of the whole set") % where)
    try:
        api.normalize_options(ruleset, initial.get("options"))
    except ValueError:
        raise RecordError(_("round %(n)s: the initial position has options this game does not have") % where) from None


def _check_round(round_record, ruleset, players):
    _require(isinstance(round_record, dict), _("a round of the record is not a JSON object"))
    number, first = round_record.get("number"), round_record.get("first")
    _require(type(number) is int and type(first) is int and 0 <= first < players,
             _("a round of the record has no number or first seat"))
    moves = round_record.get("moves")
    _require(isinstance(moves, list), _("round %(n)s: the moves are not a list") % {"n": number})
    for move in moves:
        _require(isinstance(move, dict) and isinstance(move.get("action"), dict)
                 and type(move["action"].get("seat")) is int and 0 <= move["action"]["seat"] < players
                 and isinstance(move.get("result"), str) and isinstance(move.get("penalties"), list),
                 _("round %(n)s: a move is malformed") % {"n": number})
    _require(round_record.get("result") is None or isinstance(round_record["result"], dict),
             _("round %(n)s: the result is malformed") % {"n": number})
    _check_initial(round_record.get("initial"), ruleset, players, first, number)


def load_record(data):
    """Read an uploaded record file.

    Args: `data` (bytes or str, the file). Returns the record (a dict) once its shape is
    that of an `okeysite-record-1` record and every round's initial position is a fresh
    deal (`record_replay` then replays the moves). Raises RecordError (with the reason)
    otherwise.
    """
    _require(len(data) <= MAX_RECORD_BYTES, _("the file is larger than %(mb)s MB") % {"mb": MAX_RECORD_BYTES >> 20})
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise RecordError(_("the file is not JSON")) from None
    try:
        # the checkers' grammar (docs/fair-deals.md §6a): 1.0 for 1, a key given twice, NaN are refused
        record = fairdeal.parse_record_text(text)
    except fairdeal.RecordError as exc:
        if exc.reason == "not_json":
            raise RecordError(_("the file is not JSON")) from None
        raise RecordError(_("the file breaks the game record grammar (%(reason)s)") % {"reason": exc.reason}) from None
    _require(isinstance(record, dict) and record.get("format") == fairdeal.RECORD_FORMAT,
             _("the file is not an %(format)s game record") % {"format": fairdeal.RECORD_FORMAT})
    ruleset = record.get("ruleset")
    _require(isinstance(ruleset, str) and ruleset in api.RULESETS,
             _("the record's game %(ruleset)s is not one this site plays") % {"ruleset": json.dumps(ruleset)[:40]})
    _check_players(record.get("players"), ruleset)
    rounds = record.get("rounds")
    _require(isinstance(rounds, list) and 0 < len(rounds) <= MAX_ROUNDS,
             _("the record has no rounds (or more than %(max)s)") % {"max": MAX_ROUNDS})
    for round_record in rounds:
        _check_round(round_record, ruleset, len(record["players"]))
    _require(sum(len(r["moves"]) for r in rounds) <= MAX_MOVES,
             _("the record holds more than %(max)s moves") % {"max": MAX_MOVES})
    return record


def record_replay(record):
    """The replay of every round of a loaded record, and each round's deal check: {ruleset,
    players, rounds [round_frames + {verification: [fairdeal differences]}]}.
    Raises RecordError when a round's moves do not replay."""
    players = players_shown(record["players"])
    names = [p["name"] for p in players]
    rounds = []
    for round_record in record["rounds"]:
        replay = round_frames(round_record, names)
        replay["verification"] = fairdeal.verify_round(round_record, record)
        rounds.append(replay)
    return {"ruleset": record["ruleset"], "players": players, "rounds": rounds}


def players_shown(players):
    """The replay page's players of a record: [{name, computer (level or None)}] in seat
    order. A computer is labelled here from its kind and level ("Computer 2 · normal", in
    the active language), never by the name a file gives it (PLAYERS.md: bots are labelled)."""
    out = []
    for seat, player in enumerate(players):
        level = (player.get("level") or "normal")[:20] if player["kind"] == "computer" else None
        out.append({"name": computer_label(seat, level) if level else player["name"], "computer": level})
    return out


def players_shown_info(players):
    """The replay page's players from `snapshot.players_info` entries (same shape as `players_shown`)."""
    return [{"name": p["name"] or _("Seat %(n)s") % {"n": i + 1}, "computer": p["computer"]}
            for i, p in enumerate(players)]
