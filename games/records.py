"""Game records, `okeysite-record-1` (docs/game-record.md): one JSON object per match with
who sat where, every round's deal with the seeds that produced it, every move with its
penalties and every result. Built from the stored rows (the match page's download,
`manage.py export_games`) or from self-played rounds (`manage.py selfplay --records`).

What a record holds of a round is what anyone may see once it is over: only finished
rounds are written, never a running one (its racks, pile and server seed are secret).
The standalone checker (`python3 games/engine/fairdeal.py RECORD.json`) reads these.
"""
from datetime import timezone as dt_timezone

from django.utils import translation

from games import results
from games.bots.selfplay import TABLE_ID as SELFPLAY_TABLE_ID
from games.engine import api, fairdeal
from games.models import Move, Round, Seat
from games.snapshot import computer_label, players_info

FORMAT = fairdeal.RECORD_FORMAT
RECORD_LANGUAGE = "en"
"""Records are data files: the computers' names are written in English whatever the
language of whoever asked for the record, so two exports of a match are the same bytes."""


def iso(moment):
    """An aware datetime as UTC ISO 8601 with a Z, to the second ("2025-03-14T19:02:11Z"); None stays None."""
    if moment is None:
        return None
    return moment.astimezone(dt_timezone.utc).replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def player_entry(seat, name, level):
    """One `players[s]` entry: {seat, kind ("human"/"computer"), name, level (a computer's
    level id, None for a human)}. A computer is always labelled (PLAYERS.md)."""
    return {"seat": seat, "kind": "computer" if level else "human", "name": name, "level": level or None}


def players_of(table, seats):
    """The record's players of `table` (`seats` in seat order, with their users): a human
    keeps its display name; a computer is "Computer N · level" in `RECORD_LANGUAGE`."""
    with translation.override(RECORD_LANGUAGE):
        info = players_info(table, seats)
    return [player_entry(i, p["name"] or f"Seat {i + 1}", p["computer"]) for i, p in enumerate(info)]


def result_entry(end, scores, penalties, totals):
    """A round's `result`: {end (the engine's position["result"]), scores, penalties,
    totals} (points per seat; totals = scores + penalties)."""
    return {"end": end, "scores": list(scores), "penalties": list(penalties), "totals": list(totals)}


def round_entry(number, algorithm, first, commitment, server_seed, client_seeds, initial, moves, result,
                started=None, finished=None, chain_tip=None):
    """One `rounds[i]` entry (docs/game-record.md "A round") from plain values: `number`
    (1 = the first round), `algorithm` (the `shuffle` id), `first` (seat), `commitment`,
    `server_seed` (None while secret), `client_seeds` (one per seat), `initial` (the dealt
    position), `moves` (list of move entries), `result` (`result_entry` or None),
    `started`/`finished` (aware datetimes or None), `chain_tip` (okeysite-shuffle-2: the
    match's hash chain tip, written only for those rounds)."""
    out = {"number": number, "shuffle": algorithm, "first": first, "started": iso(started),
           "finished": iso(finished), "commitment": commitment, "server_seed": server_seed,
           "client_seeds": list(client_seeds), "initial": initial, "moves": moves, "result": result}
    if algorithm == fairdeal.SHUFFLE_2:
        out["chain_tip"] = chain_tip
    return out


def move_entry(number, seat, actor, action, result, penalties):
    """One `moves[k]` entry: {number, seat, actor ("human"/"computer"/"timeout"), action
    (RULES.md §7 with seat), result ("ok" or the refusal code of a penalty that stays),
    penalties ([{seat, amount, reason, tile, by}])}."""
    return {"number": number, "seat": seat, "actor": actor, "action": action, "result": result,
            "penalties": list(penalties or [])}


def record(ruleset, options, mode, table_id, move_time, started, finished, players, rounds, totals, standings):
    """The whole record (docs/game-record.md "Top level") from plain values; dates are aware
    datetimes or None, `table_id` anything whose str() is the table id."""
    return {"format": FORMAT, "ruleset": ruleset, "options": api.normalize_options(ruleset, options),
            "mode": mode, "table_id": str(table_id), "move_time": move_time, "started": iso(started),
            "finished": iso(finished), "players": players, "rounds": rounds, "totals": list(totals),
            "standings": list(standings) if standings is not None else None}


# ----------------------------------------------------------------- from the rows
def stored_moves(rnd, rows=None):
    """The move entries of stored round `rnd`, in order. Moves logged before moves kept
    their events (events null) get them from the engine's `replay` of the round. A round
    of an old match (`games.compaction`) has no rows left: its entries were kept as they were.
    `rows`: the round's Move rows in number order when the caller read them already (a
    batch of records, `match_records`); None reads them."""
    if rnd.archived_moves is not None:
        # written again in the record's key order (the database keeps JSON keys in its own)
        return [move_entry(m["number"], m["seat"], m["actor"], m["action"], m["result"], m["penalties"])
                for m in rnd.archived_moves]
    moves = list(rows) if rows is not None else list(Move.objects.filter(round=rnd).order_by("number"))
    events = [move.events for move in moves]
    if any(e is None for e in events) and rnd.initial_position is not None:
        replayed = api.replay_all(rnd.initial_position, [move.action for move in moves])
        events = [e if e is not None else step.events() for e, step in zip(events, replayed.steps)]
    return [move_entry(m.number, m.seat, m.actor, m.action, m.result, e) for m, e in zip(moves, events)]


def stored_round(rnd, reveal=False, rows=None):
    """The record entry of stored round `rnd`. Its server seed is written once the round is
    over, or with `reveal` (the admins' `verify_round`, never a page). Rounds not over have
    no result. `rows`: its Move rows already read (`stored_moves`), or None."""
    result = None
    if rnd.is_over:
        result = result_entry(rnd.result, rnd.scores or [], rnd.penalties or [], rnd.totals or [])
    return round_entry(rnd.number, rnd.algorithm, rnd.first, rnd.commitment,
                       rnd.server_seed if reveal else rnd.revealed_server_seed, rnd.client_seeds,
                       rnd.initial_position, stored_moves(rnd, rows), result, rnd.started, rnd.finished,
                       chain_tip=rnd.chain_tip or None)


def finished_rounds(match):
    """The rounds of `match` that are over, in order: the only ones a page or a record shows."""
    return [rnd for rnd in match.rounds.order_by("index") if rnd.is_over]


def header_of(match, seats=None):
    """The record of `match` without rounds (its `rounds` empty): players, dates, totals,
    and once the match is over its standings and `left` (the seats whose player left the
    match, last in the standings: `games.results`)."""
    table = match.table
    if seats is None:
        seats = list(Seat.objects.filter(table=table).select_related("user", "user__player_settings")
                     .order_by("index"))
    outcome = results.result_of(match, seats) if match.finished is not None else None
    out = record(table.ruleset, table.options, table.mode, table.pk, table.move_time, match.started,
                 match.finished, players_of(table, seats), [], match.totals,
                 outcome.order if outcome else match.standings)
    out["left"] = sorted(outcome.left) if outcome else []
    return out


def match_record(match, seats=None, rounds=None, moves=None):
    """The record of stored `match` (a Match with its table): its finished rounds only, so
    it never holds a tile of a running round. Returns a JSON-ready dict.

    A batch (`match_records`) passes what it read: `seats` (seat order, with users),
    `rounds` (the finished rounds in order) and `moves` ({round id: Move rows in order})."""
    out = header_of(match, seats)
    rounds = finished_rounds(match) if rounds is None else rounds
    out["rounds"] = [stored_round(rnd, rows=None if moves is None else moves.get(rnd.pk, [])) for rnd in rounds]
    return out


def match_records(matches):
    """The records of stored `matches` (Matches with their tables), read in four queries
    whatever their number: seats with their users, finished rounds, their move rows.
    Yields (match, record) in the order given. An export reads a long period in batches
    of these, so its queries grow with the batches, not the matches."""
    matches = list(matches)
    seats, rounds, moves = {}, {}, {}
    for seat in (Seat.objects.filter(table_id__in=[m.table_id for m in matches])
                 .select_related("user", "user__player_settings").order_by("table_id", "index")):
        seats.setdefault(seat.table_id, []).append(seat)
    for rnd in Round.objects.filter(match__in=matches, finished__isnull=False).order_by("match_id", "index"):
        rounds.setdefault(rnd.match_id, []).append(rnd)
    live = [rnd.pk for found in rounds.values() for rnd in found if rnd.archived_moves is None]
    for move in Move.objects.filter(round_id__in=live).order_by("round_id", "number"):
        moves.setdefault(move.round_id, []).append(move)
    for match in matches:
        yield match, match_record(match, seats.get(match.table_id, []), rounds.get(match.pk, []), moves)


# -------------------------------------------------------------- from self-play
def selfplay_record(result, ruleset, options=None):
    """The record of one self-played round (`games.bots.selfplay.play_round(...,
    record=True)`) as a one-round match of computers at table `selfplay.TABLE_ID`, mode
    "selfplay", no dates. It verifies with `fairdeal.py` like a played match.
    Raises ValueError for a round played without `record=True`."""
    if result.initial is None or result.moves is None:
        raise ValueError("the round was played without record=True")
    levels = result.levels
    with translation.override(RECORD_LANGUAGE):
        players = [player_entry(s, computer_label(s, lv), lv) for s, lv in enumerate(levels)]
    moves = [move_entry(k + 1, m["seat"], "computer", m["action"], m["result"], m["penalties"])
             for k, m in enumerate(result.moves)]
    final = result.final or {}
    outcome = None
    if api.is_over(final):
        outcome = result_entry(final.get("result"), result.scores, result.penalties, result.totals)
    rounds = [round_entry(1, fairdeal.ALGORITHM, result.first, fairdeal.commitment(result.server_seed),
                          result.server_seed, [""] * len(levels), result.initial, moves, outcome)]
    standings = api.standings(ruleset, result.totals, options) if outcome else None
    return record(ruleset, options, "selfplay", SELFPLAY_TABLE_ID, None, None, None, players, rounds,
                  result.totals, standings)
