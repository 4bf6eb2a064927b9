"""Verifiable deals: the ``okeysite-shuffle-2`` algorithm (and ``-1``) and its checker.

Every round's tile order comes from a server seed the table saw committed before the
deal and the players' own client seeds (docs/fair-deals.md is the exact specification,
with test vectors; docs/game-record.md the record this module checks).  Standard library
only and no import from the project, on purpose: anyone can download a game record and
run ``python3 games/engine/fairdeal.py RECORD.json`` without installing the site.
``static/js/fairdeal.js`` is the same algorithm for the browser; the two are checked
against each other on every test run.
"""
from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import re
import secrets
import struct
import sys
from collections import Counter
from typing import NamedTuple

SHUFFLE_1 = "okeysite-shuffle-1"  # one commitment and one seeding window per round
SHUFFLE_2 = "okeysite-shuffle-2"  # one hash chain and one client seed per seat for the whole match
ALGORITHM = SHUFFLE_1  # the algorithm of deal_seed(); stored with every round, old ones always verify
ALGORITHMS = (SHUFFLE_1, SHUFFLE_2)
KINDS = ("human", "computer")  # a seat's kind as shuffle-2 binds it into the deal
CHAIN_MAX = 512  # links of a match's chain when it is played to a target score (no round count)
LEGACY = "okeysite-legacy"  # rounds the site dealt before verifiable deals: nothing to check
RECORD_FORMAT = "okeysite-record-1"  # the game record this checker reads (docs/game-record.md)
CLIENT_SEED_MAX = 128  # characters of a seed sent from now on: printable ASCII only
LEGACY_SEED_MAX = 64  # code points of a seed recorded in an okeysite-shuffle-1 round
DEPTH_MAX = 64  # arrays and objects nested in a record (docs/fair-deals.md §6a)
INTEGER_MAX = 2 ** 53 - 1  # the largest integer both checkers read exactly
TABLE_ID_MAX = 64
DRAW_BYTES = 2  # stream bytes per Fisher-Yates draw: an unsigned 16-bit big-endian integer

_HEX64 = re.compile(r"[0-9a-f]{64}")
# printable ASCII, no space at either end: a set no Unicode version changes (§2)
_SEED_TEXT = re.compile(r"[!-~](?:[ -~]{0,%d}[!-~])?" % (CLIENT_SEED_MAX - 2))
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,%d}" % TABLE_ID_MAX)
_COLOURS = "RBKY"


class _Deal(NamedTuple):
    """What a ruleset's deal looks like (RULES.md §1, D-1, D-2)."""

    seats: range          # seat counts the ruleset deals to
    extra: str            # the non-numbered tile: F (false joker) or J (joker)
    big_set_from: int     # seat count from which the 160-tile set is used (0: never)
    hand: int             # tiles per seat
    first_bonus: int      # extra tiles of the first player
    from_first: bool      # chunks go in turn order from the first player (else from seat 0)
    indicator: bool       # the first pile tile that is not F is turned face up


_OKEY = _Deal(range(2, 5), "F", 0, 14, 1, True, True)
_RAMI = _Deal(range(2, 7), "J", 5, 14, 0, False, False)
DEALS = {"okey51": _OKEY, "okey17": _OKEY, "rami": _RAMI}
"""Ruleset id -> the shape of its deal."""


# --------------------------------------------------------------------- seeds

def server_seed() -> str:
    """A new secret server seed: 32 bytes from :mod:`secrets`, as 64 lowercase hex
    characters.  Those 64 characters (their ASCII bytes) are the seed everywhere: the
    commitment hashes them and the deal seed's HMAC uses them as its key."""
    return secrets.token_hex(32)


def seed_from_text(text: str) -> str:
    """A server seed made from a text, for self-play, tests and benches that must deal
    the same round again from the same words: SHA-256 of ``"okeysite-text-seed:" +
    text`` (UTF-8), as 64 lowercase hex characters.  With :func:`deal_seed` it gives a
    reproducible deal that verifies like any other.  Never for a real table: whoever
    knows the text knows the deal.  Raises ValueError when ``text`` is not a string
    (or holds a lone surrogate, which UTF-8 cannot encode)."""
    if not isinstance(text, str):
        raise ValueError("a text seed is a string")
    return hashlib.sha256(("okeysite-text-seed:" + text).encode("utf-8")).hexdigest()


def _hex64(seed: object, what: str) -> str:
    if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
        raise ValueError(f"a {what} seed is 64 lowercase hex characters")
    return seed


def commitment(seed: str) -> str:
    """The published commitment of a server seed: SHA-256 of the seed's 64 ASCII
    characters, as 64 lowercase hex characters (``printf %s SEED | sha256sum``).

    Raises ValueError when ``seed`` is not 64 lowercase hex characters."""
    return hashlib.sha256(_hex64(seed, "server").encode("ascii")).hexdigest()


def client_seed() -> str:
    """A fresh client seed as the browser makes one: 16 random bytes as 32 lowercase
    hex characters (players may replace it with any text :func:`normalise_client_seed`
    accepts)."""
    return secrets.token_hex(16)


def seed_text_fault(seed: object) -> str | None:
    """Why ``seed`` is not a client seed of the grammar (docs/fair-deals.md §2), or None
    when it is one: 1 to :data:`CLIENT_SEED_MAX` printable ASCII characters (U+0020 to
    U+007E), no space at either end.  The empty string is not a seed a player sends:
    it is the seed of a computer, an empty seat, or a seat whose browser sent none."""
    if not isinstance(seed, str):
        return "a client seed is a string"
    if not seed:
        return "a client seed holds 1 character at least"
    if len(seed) > CLIENT_SEED_MAX:
        return f"a client seed holds at most {CLIENT_SEED_MAX} characters"
    if not _SEED_TEXT.fullmatch(seed):
        bad = next((ch for ch in seed if not " " <= ch <= "~"), None)
        if bad is None:
            return "a client seed has no space at either end"
        return f"a client seed may not hold U+{ord(bad):04X} (printable ASCII only)"
    return None


def normalise_client_seed(text: str) -> str:
    """A client seed in its canonical form: spaces (U+0020) trimmed at both ends, then
    :func:`seed_text_fault`'s grammar; the empty string stays empty (no seed).

    Raises ValueError for anything else (not a string, a character outside printable
    ASCII, longer than :data:`CLIENT_SEED_MAX`).  docs/fair-deals.md §2."""
    if not isinstance(text, str):
        raise ValueError("a client seed is a string")
    seed = text.strip(" ")
    fault = seed_text_fault(seed) if seed else None
    if fault:
        raise ValueError(fault)
    return seed


def _refused_code_point(code: int) -> bool:
    # controls, surrogates and noncharacters: fixed by the standard, the same in every
    # Unicode version (games/engine/text_rules.py holds the site's rule; a test keeps the two equal)
    return (code < 0x20 or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF
            or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE)


def legacy_seed_fault(seed: object) -> str | None:
    """Why ``seed`` cannot be the client seed of an ``okeysite-shuffle-1`` round, or None:
    that scheme let players type any text, so its records hold up to
    :data:`LEGACY_SEED_MAX` code points, none a control, surrogate or noncharacter, no
    U+0020 at either end (the empty string included).  Rules that name Unicode
    categories are not applied: they differ between Unicode versions, and so would
    the two checkers."""
    if not isinstance(seed, str):
        return "a client seed is a string"
    bad = next((ch for ch in seed if _refused_code_point(ord(ch))), None)
    if bad is not None:
        return f"a client seed may not hold U+{ord(bad):04X}"
    if len(seed) > LEGACY_SEED_MAX:
        return f"a client seed holds at most {LEGACY_SEED_MAX} characters"
    if seed != seed.strip(" "):
        return "a client seed has no space at either end"
    return None


def _field(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


# ------------------------------------------------------------- the chain

def chain_step(seed: str) -> str:
    """One link back along a match's hash chain: SHA-256 of the seed's 64 ASCII
    characters, as 64 lowercase hex (the same bytes as :func:`commitment`).
    Raises ValueError when ``seed`` is not 64 lowercase hex characters."""
    return commitment(seed)


def chain(last: str, length: int) -> list[str]:
    """The server seeds of a match's rounds 1 .. ``length`` (docs/fair-deals.md §8):
    ``last`` is round ``length``'s seed, drawn at random; each earlier round's seed is
    :func:`chain_step` of the next one's.  Returns ``[tip, seed of round 1, ...,
    seed of round length]``: index k is round k's seed and index 0 is the tip, the
    only value published when the table is created.  Raises ValueError for a
    malformed ``last`` or a ``length`` outside 1 .. :data:`CHAIN_MAX`."""
    if type(length) is not int or not 1 <= length <= CHAIN_MAX:
        raise ValueError(f"a chain has 1 to {CHAIN_MAX} rounds")
    out = [_hex64(last, "server")]
    for _ in range(length):
        out.append(chain_step(out[-1]))
    return out[::-1]


def chain_reaches(seed: str, round_number: int, tip: str) -> bool:
    """Whether round ``round_number``'s revealed server seed leads to the published
    ``tip``: :func:`chain_step` applied ``round_number`` times.  Raises ValueError
    for a malformed seed or a round number outside 1 .. :data:`CHAIN_MAX`."""
    if type(round_number) is not int or not 1 <= round_number <= CHAIN_MAX:
        raise ValueError(f"a chained round is numbered 1 to {CHAIN_MAX}")
    for _ in range(round_number):
        seed = chain_step(seed)
    return seed == tip


def _check_message_parts(round_number: int, table_id: str, client_seeds: list[str]) -> None:
    # what both algorithms' messages hold alike: the round number, the table id, the seat count
    if type(round_number) is not int or not 1 <= round_number < 2 ** 32:
        raise ValueError("the round number is an integer from 1 to 2**32-1")
    if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
        raise ValueError(f"a table id is 1-{TABLE_ID_MAX} characters from A-Z a-z 0-9 _ -")
    if not isinstance(client_seeds, (list, tuple)) or not 2 <= len(client_seeds) <= 6:
        raise ValueError("a deal has 2 to 6 client seeds, one per seat")


def deal_message(round_number: int, table_id: str, client_seeds: list[str]) -> bytes:
    """The canonical bytes the deal seed's HMAC signs (docs/fair-deals.md §3): the
    algorithm id, the round number, the table id and the client seeds in seat order,
    each string as a 4-byte big-endian length + its UTF-8 bytes, each integer as 4
    bytes big-endian.

    ``round_number``: 1 .. 2**32-1 (the match's first round is 1); ``table_id``: 1-64
    characters from ``A-Z a-z 0-9 _ -``; ``client_seeds``: 2-6 strings that
    :func:`legacy_seed_fault` accepts.  Raises ValueError otherwise."""
    _check_message_parts(round_number, table_id, client_seeds)
    out = [_field(ALGORITHM.encode("ascii")), struct.pack(">I", round_number),
           _field(table_id.encode("ascii")), struct.pack(">I", len(client_seeds))]
    for seat, seed in enumerate(client_seeds):
        fault = legacy_seed_fault(seed)
        if fault:
            raise ValueError(f"the client seed of seat {seat} is refused ({fault})")
        out.append(_field(seed.encode("utf-8")))
    return b"".join(out)


def deal_message_2(round_number: int, table_id: str, chain_tip: str, client_seeds: list[str],
                   kinds: list[str]) -> bytes:
    """The bytes ``okeysite-shuffle-2``'s deal seed signs (docs/fair-deals.md §8): the
    algorithm id, the round number, the table id, the chain's tip, the number of seats,
    then for each seat its kind (``"human"`` or ``"computer"``, so a record relabelling
    a seat no longer deals the same) and its client seed.  Strings are length-prefixed
    UTF-8, integers 4 bytes big-endian.  ``client_seeds``: one per seat, each empty or
    of :func:`seed_text_fault`'s grammar; a computer's is empty.  Raises ValueError for a malformed part."""
    _check_message_parts(round_number, table_id, client_seeds)
    if not isinstance(kinds, (list, tuple)) or len(kinds) != len(client_seeds):
        raise ValueError("a deal has one kind per seat")
    for seat, (kind, seed) in enumerate(zip(kinds, client_seeds)):
        fault = seed_text_fault(seed) if seed else None
        if fault:
            raise ValueError(f"the client seed of seat {seat} is refused ({fault})")
        if kind not in KINDS:
            raise ValueError(f"the kind of seat {seat} is human or computer")
        if kind == "computer" and seed:
            raise ValueError(f"seat {seat} is a computer: its client seed is empty")
    out = [_field(SHUFFLE_2.encode("ascii")), struct.pack(">I", round_number),
           _field(table_id.encode("ascii")), _field(_hex64(chain_tip, "chain tip").encode("ascii")),
           struct.pack(">I", len(client_seeds))]
    for kind, seed in zip(kinds, client_seeds):
        out += [_field(kind.encode("ascii")), _field(seed.encode("utf-8"))]
    return b"".join(out)


def deal_seed_2(server_seed: str, round_number: int, table_id: str, chain_tip: str, client_seeds: list[str],
                kinds: list[str]) -> str:
    """``okeysite-shuffle-2``'s deal seed: HMAC-SHA256 keyed with the round's server
    seed (its link of the chain, 64 ASCII bytes) over :func:`deal_message_2`, as 64
    lowercase hex.  Raises ValueError for a malformed part."""
    key = _hex64(server_seed, "server").encode("ascii")
    message = deal_message_2(round_number, table_id, chain_tip, client_seeds, kinds)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def deal_seed(server_seed: str, round_number: int, table_id: str, client_seeds: list[str]) -> str:
    """The round's deal seed: HMAC-SHA256 keyed with the server seed's 64 ASCII bytes
    over :func:`deal_message`, as 64 lowercase hex characters.

    Raises ValueError for a malformed server seed or message part."""
    key = _hex64(server_seed, "server").encode("ascii")
    return hmac.new(key, deal_message(round_number, table_id, client_seeds), hashlib.sha256).hexdigest()


# ------------------------------------------------------------------- shuffle

def _blocks(deal_seed: str):
    key = bytes.fromhex(_hex64(deal_seed, "deal"))
    return (hmac.new(key, struct.pack(">Q", k), hashlib.sha256).digest() for k in itertools.count())


def stream_bytes(deal_seed: str, count: int) -> bytes:
    """The first ``count`` bytes of the deal's byte stream: block k (k = 0, 1, ...) is
    HMAC-SHA256 keyed with the deal seed's 32 bytes over k as 8 bytes big-endian.
    Raises ValueError for a malformed deal seed."""
    return b"".join(itertools.islice(_blocks(deal_seed), -(-count // 32)))[:count]


def swap_indices(count: int, deal_seed: str) -> tuple[list[int], list[tuple[int, int]]]:
    """The Fisher-Yates draws for ``count`` tiles (docs/fair-deals.md §4).

    For i = count-1 down to 1, take 2 stream bytes as an unsigned big-endian x; with
    m = i + 1, reject x >= 65536 - 65536 % m (take the next 2 bytes), else j = x % m.
    Returns ``(js, rejected)``: ``js[k]`` is the j drawn for i = count-1-k, ``rejected``
    every refused ``(i, x)`` in order.  Raises ValueError for a malformed deal seed."""
    blocks = _blocks(deal_seed)
    buffer, at = b"", 0
    js: list[int] = []
    rejected: list[tuple[int, int]] = []
    for i in range(count - 1, 0, -1):
        m = i + 1
        bound = 65536 - 65536 % m
        while True:
            if at == len(buffer):
                buffer, at = next(blocks), 0
            x = int.from_bytes(buffer[at:at + DRAW_BYTES], "big")
            at += DRAW_BYTES
            if x < bound:
                js.append(x % m)
                break
            rejected.append((i, x))
    return js, rejected


def shuffle(tiles: list[str], deal_seed: str) -> list[str]:
    """``tiles`` in the deal's order (a new list; the input is not changed): for i =
    len-1 down to 1, swap positions i and j (:func:`swap_indices`).
    Raises ValueError for a malformed deal seed."""
    out = list(tiles)
    js, _ = swap_indices(len(out), deal_seed)
    for i, j in zip(range(len(out) - 1, 0, -1), js):
        out[i], out[j] = out[j], out[i]
    return out


def _deal_of(ruleset: str, players: int) -> _Deal:
    deal = DEALS.get(ruleset) if isinstance(ruleset, str) else None
    if deal is None:
        raise ValueError(f"unknown ruleset {ruleset!r}")
    if type(players) is not int or players not in deal.seats:
        raise ValueError(f"{ruleset} deals to {deal.seats.start} to {deal.seats.stop - 1} seats")
    return deal


def tile_set(ruleset: str, players: int) -> list[str]:
    """The ruleset's full set in the order before the shuffle (RULES.md §1, D-1):
    colours R, B, K, Y; in each colour numbers 1..13; the copies of a tile adjacent;
    then the two F (okey rulesets) or the J (rami: two, or four with the 160-tile set
    of 5-6 seats, where each numbered tile has three copies).
    Raises ValueError for an unknown ruleset or seat count."""
    deal = _deal_of(ruleset, players)
    big = bool(deal.big_set_from) and players >= deal.big_set_from
    copies, extras = (3, 4) if big else (2, 2)
    return [f"{c}{n}" for c in _COLOURS for n in range(1, 14) for _ in range(copies)] + [deal.extra] * extras


def arrange(ruleset: str, players: int, first: int, tiles: list[str]) -> dict:
    """Deal a shuffled set (docs/fair-deals.md §5).

    Okey rulesets: chunks of 15 tiles to ``first`` and 14 to each next seat in turn
    order ((first + k) % players); the rest is the pile, next tile first; the
    indicator is the first pile tile that is not F and leaves the pile (D-2).  rami: 14
    tiles to each seat from seat 0, the rest is the pile; ``first`` only moves first.
    Returns ``{"racks": [[tile, ...] per seat], "pile": [...], "indicator": tile or
    None}``.  Raises ValueError for a bad ruleset, seat count or first seat, or tiles
    that are not the ruleset's set for that many seats."""
    deal = _deal_of(ruleset, players)
    if type(first) is not int or not 0 <= first < players:
        raise ValueError("first must be a seat")
    if sorted(tiles) != sorted(tile_set(ruleset, players)):
        raise ValueError(f"the tiles are not the {ruleset} set for {players} seats")
    racks: list[list[str]] = [[] for _ in range(players)]
    at = 0
    for k in range(players):
        seat = (first + k) % players if deal.from_first else k
        size = deal.hand + (deal.first_bonus if seat == first else 0)
        racks[seat] = list(tiles[at:at + size])
        at += size
    pile = list(tiles[at:])
    indicator = None
    if deal.indicator:
        indicator = pile.pop(next(i for i, t in enumerate(pile) if t != "F"))
    return {"racks": racks, "pile": pile, "indicator": indicator}


def layout(ruleset: str, players: int, first: int, deal_seed: str) -> dict:
    """The whole deal of a round: the ruleset's :func:`tile_set`, shuffled with the
    deal seed, then :func:`arrange`\\ d.  Returns ``{"racks", "pile", "indicator"}``
    (indicator None for rami).  Raises ValueError on bad arguments."""
    return arrange(ruleset, players, first, shuffle(tile_set(ruleset, players), deal_seed))


# ------------------------------------------------------------------ checking

def _diff(code: str, **fields) -> dict:
    return {"code": code, **fields}


def _bad(reason: str, detail: str) -> list[dict]:
    return [_diff("bad_record", reason=reason, detail=detail)]


def _hex_fault(value: object, what: str) -> list[dict]:
    if isinstance(value, str) and _HEX64.fullmatch(value):
        return []
    return _bad("bad_hex", f"{what} is 64 lowercase hex characters")


def _round_grammar(round_record: object, header: object) -> list[dict]:
    """The first way a round breaks the record grammar (docs/fair-deals.md §6a), as its
    one difference (``bad_record`` with a ``reason``, or ``legacy``, ``unknown_shuffle``,
    ``not_revealed``, ``bad_server_seed``, ``client_seed_count``, ``bad_client_seed``),
    or [] when the round is well formed.  The order of the checks is part of the
    grammar: the browser's checker makes them in the same order."""
    if not isinstance(round_record, dict) or not isinstance(header, dict):
        return _bad("not_object", "a round and a header are JSON objects")
    missing = [k for k in ("number", "shuffle", "first", "commitment", "server_seed", "client_seeds", "initial")
               if k not in round_record]
    if missing:
        return _bad("missing_key", "missing " + ", ".join(missing))
    algorithm = round_record["shuffle"]
    if algorithm == LEGACY:
        return [_diff("legacy")]
    if algorithm not in ALGORITHMS:
        return [_diff("unknown_shuffle", recorded=algorithm)]
    if algorithm == SHUFFLE_2 and "chain_tip" not in round_record:
        return _bad("missing_key", "missing chain_tip")
    ruleset, players = header.get("ruleset"), header.get("players")
    if not isinstance(ruleset, str) or ruleset not in DEALS:
        return _bad("bad_ruleset", f"the ruleset {_show(ruleset)} is not known")
    seats = DEALS[ruleset].seats
    if not isinstance(players, list) or len(players) not in seats:
        return _bad("bad_players", f"{ruleset} needs a players list of {seats.start}-{seats.stop - 1} seats")
    if any(not isinstance(p, dict) or p.get("kind") not in KINDS for p in players):
        return _bad("bad_kind", "every player has a kind, human or computer")
    table_id = header.get("table_id")
    if not isinstance(table_id, str) or not _TABLE_ID.fullmatch(table_id):
        return _bad("bad_table_id", f"a table id is 1-{TABLE_ID_MAX} characters from A-Z a-z 0-9 _ -")
    number, top = round_record["number"], CHAIN_MAX if algorithm == SHUFFLE_2 else 2 ** 32 - 1
    if type(number) is not int or not 1 <= number <= top:
        return _bad("bad_number", f"a round is numbered 1 to {top}")
    first = round_record["first"]
    if type(first) is not int or not 0 <= first < len(players):
        return _bad("bad_first", "first is a seat number")
    if not isinstance(round_record["initial"], dict):
        return _bad("not_object", "the initial position is a JSON object")
    faults = _hex_fault(round_record["commitment"], "the commitment")
    if algorithm == SHUFFLE_2:
        faults = faults or _hex_fault(round_record["chain_tip"], "the chain tip")
    if faults:
        return faults
    if round_record["server_seed"] is None:
        return [_diff("not_revealed")]
    if not isinstance(round_record["server_seed"], str) or not _HEX64.fullmatch(round_record["server_seed"]):
        return [_diff("bad_server_seed", reason="bad_hex", detail="a server seed is 64 lowercase hex characters")]
    seeds = round_record["client_seeds"]
    if not isinstance(seeds, list) or len(seeds) != len(players):
        return [_diff("client_seed_count", expected=len(players),
                      recorded=len(seeds) if isinstance(seeds, list) else None)]
    for seat, seed in enumerate(seeds):
        if algorithm == SHUFFLE_2:
            fault = seed_text_fault(seed) if seed != "" else None
        else:
            fault = legacy_seed_fault(seed)
        if fault:
            return [_diff("bad_client_seed", reason="seed_text", seat=seat, detail=fault)]
    return []


def _seed_differences(round_record: dict, header: dict) -> list[dict]:
    """The commitment and computer-seed checks of :func:`verify_round` (a well-formed round)."""
    out = []
    expected = commitment(round_record["server_seed"])
    if round_record["commitment"] != expected:
        out.append(_diff("commitment", expected=expected, recorded=round_record["commitment"]))
    for seat, seed in enumerate(round_record["client_seeds"]):
        if seed and header["players"][seat]["kind"] == "computer":
            # a seed chosen by the server for its own seat would let it try deals until one suits it
            out.append(_diff("computer_seed", seat=seat, recorded=seed))
    return out


def _seen_differences(round_record: dict, seen: dict) -> list[dict]:
    """What one player's browser saw before the deal against the record (docs/fair-deals.md §1)."""
    out, seeds, seat = [], round_record["client_seeds"], seen.get("seat")
    if round_record["shuffle"] == SHUFFLE_2:
        # the browser saw the chain's tip before it sent its seed, and was answered `seeded`
        if seen.get("chain_tip") != round_record.get("chain_tip"):
            out.append(_diff("shown_commitment", expected=seen.get("chain_tip"),
                             recorded=round_record.get("chain_tip")))
        if type(seat) is not int or not 0 <= seat < len(seeds):
            return out + _bad("bad_seat", "the seat that sent a client seed is not a seat of the round")
        if seeds[seat] != seen.get("client_seed"):
            out.append(_diff("seed_not_used", seat=seat, expected=seen.get("client_seed"), recorded=seeds[seat]))
        return out
    if seen.get("commitment") != round_record["commitment"]:
        out.append(_diff("shown_commitment", expected=seen.get("commitment"),
                         recorded=round_record["commitment"]))
    if type(seat) is not int or not 0 <= seat < len(seeds):
        return out + _bad("bad_seat", "the seat that sent a client seed is not a seat of the round")
    if seeds[seat] != seen.get("client_seed"):
        out.append(_diff("own_client_seed", seat=seat, expected=seen.get("client_seed"), recorded=seeds[seat]))
    return out


def _position_differences(expected: dict, initial: dict, first: int) -> list[dict]:
    """Compare the recomputed deal with the recorded initial position."""
    out = []
    seats = initial.get("seats")
    if not isinstance(seats, list) or len(seats) != len(expected["racks"]):
        return [_diff("seats", expected=len(expected["racks"]),
                      recorded=len(seats) if isinstance(seats, list) else None)]
    turn = initial.get("turn")
    if type(turn) is not int or turn != first:
        out.append(_diff("first", expected=first, recorded=turn))
    for seat, (rack, entry) in enumerate(zip(expected["racks"], seats)):
        got = entry.get("rack") if isinstance(entry, dict) else None
        got = got if isinstance(got, list) and all(isinstance(t, str) for t in got) else []
        # a rack's order is the player's own arrangement: only which tiles it holds is dealt
        missing, extra = Counter(rack) - Counter(got), Counter(got) - Counter(rack)
        if missing or extra:
            out.append(_diff("rack", seat=seat, missing=sorted(missing.elements()), extra=sorted(extra.elements())))
    pile = initial.get("pile")
    pile = pile if isinstance(pile, list) else []
    if pile != expected["pile"]:
        want = expected["pile"]
        at = next((i for i, (a, b) in enumerate(zip(want, pile)) if a != b), min(len(pile), len(want)))
        out.append(_diff("pile", index=at, expected=want[at] if at < len(want) else None,
                         recorded=pile[at] if at < len(pile) else None,
                         expected_count=len(want), recorded_count=len(pile)))
    if initial.get("indicator") != expected["indicator"]:
        out.append(_diff("indicator", expected=expected["indicator"], recorded=initial.get("indicator")))
    return out


def verify_round(round_record: dict, header: dict, seen: dict | None = None) -> list[dict]:
    """Check one round of a game record (docs/game-record.md) against the algorithm.

    ``round_record``: ``{"number", "shuffle", "first", "commitment", "server_seed",
    "client_seeds", "initial", ...}``; ``header``: the record's top level (``ruleset``,
    ``table_id``, ``players``); ``seen``, from a player's own browser: ``{"seat",
    "commitment", "client_seed"}``, the commitment it was shown and the seed it sent
    before the deal.  Returns the differences, empty when the round is verified: dicts
    with a ``code`` (docs/fair-deals.md §6, a key of :data:`MESSAGES`) and the fields
    of its sentence — ``rack`` has ``seat``, ``missing`` and ``extra`` tiles, ``pile``
    the first differing ``index``.  Never raises for a bad record: a malformed one is
    a ``bad_record`` difference."""
    faults = _round_grammar(round_record, header)
    if faults:
        return faults
    algorithm, players = round_record["shuffle"], header["players"]
    ruleset, table_id, first = header["ruleset"], header.get("table_id"), round_record["first"]
    out = _seed_differences(round_record, header)
    if algorithm == SHUFFLE_2:
        number, tip = round_record["number"], round_record["chain_tip"]
        if not chain_reaches(round_record["server_seed"], number, tip):
            out.append(_diff("chain", number=number, recorded=tip))
    if seen is not None:
        out += (_seen_differences(round_record, seen) if isinstance(seen, dict)
                else _bad("not_object", "seen is a JSON object"))
    try:
        if algorithm == SHUFFLE_2:
            kinds = [p["kind"] for p in players]
            seed = deal_seed_2(round_record["server_seed"], round_record["number"], table_id,
                               round_record["chain_tip"], round_record["client_seeds"], kinds)
        else:
            seed = deal_seed(round_record["server_seed"], round_record["number"], table_id,
                             round_record["client_seeds"])
    except ValueError as exc:
        return out + _bad("bad_deal_part", str(exc))
    initial = round_record["initial"]
    if initial.get("ruleset") != ruleset:
        out.append(_diff("ruleset", expected=ruleset, recorded=initial.get("ruleset")))
    return out + _position_differences(layout(ruleset, len(players), first, seed), initial, first)


MESSAGES = {
    "bad_record": "malformed record ({reason}): {detail}",
    "unknown_shuffle": "unknown shuffle algorithm {recorded} (this checker knows " + ", ".join(ALGORITHMS) + ")",
    "chain": "the server seed of round {number} does not lead to the chain tip {recorded} published before the match",
    "legacy": "dealt before verifiable deals: this round has no commitment and seeds to check its deal against",
    "not_revealed": "not revealed yet: the server seed is shown once the round is over",
    "bad_server_seed": "server seed refused ({reason}): {detail}",
    "commitment": "commitment mismatch: sha256(server seed) is {expected}, recorded {recorded}",
    "client_seed_count": "client seeds: expected {expected} (one per seat), recorded {recorded}",
    "bad_client_seed": "client seed of seat {seat} refused ({reason}): {detail}",
    "computer_seed": "seat {seat} is a computer but has a client seed: {recorded}",
    "shown_commitment": ("commitment differs from the one shown before the deal: shown {expected},"
                         " recorded {recorded}"),
    "own_client_seed": "client seed of seat {seat} differs from the one sent: sent {expected}, recorded {recorded}",
    "seed_not_used": "your seed was not used: seat {seat} sent {expected} and was answered seeded, recorded {recorded}",
    "ruleset": "ruleset differs: expected {expected}, recorded {recorded}",
    "seats": "number of seats differs: expected {expected}, recorded {recorded}",
    "first": "first seat differs: expected {expected}, recorded {recorded}",
    "rack": "seat {seat} rack differs: dealt {missing} not recorded, recorded {extra} not dealt",
    "pile": ("pile differs from position {index}: expected {expected}, recorded {recorded}"
             " ({expected_count} tiles expected, {recorded_count} recorded)"),
    "indicator": "indicator differs: expected {expected}, recorded {recorded}",
}
"""Difference code -> its English sentence (the command's output; the site translates by code)."""


def _show(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return " ".join(map(_show, value)) or "nothing"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def describe(difference: dict) -> str:
    """One difference of :func:`verify_round` as its English sentence (:data:`MESSAGES`)."""
    return MESSAGES[difference["code"]].format(**{k: _show(v) for k, v in difference.items()})


class RecordError(ValueError):
    """A text that breaks the record grammar before any round is read (docs/fair-deals.md
    §6a): ``reason`` is its code (``not_json``, ``too_deep``, ``not_integer``,
    ``integer_range``, ``duplicate_key``, ``not_record``), ``detail`` the English sentence."""

    def __init__(self, reason: str, detail: str):
        super().__init__(f"malformed record ({reason}): {detail}")
        self.reason, self.detail = reason, detail


_JSON_SPECIAL = re.compile(r'["\\\[\]{}]')


def nesting_depth(text: str, limit: int) -> int:
    """The bracket nesting depth of JSON text `text` (str), strings skipped, counted on the
    text itself so that a text too deep for the recursive JSON reader is refused before it
    reads it; the scan stops once it passes `limit` (int). Returns int: the depth (at most
    limit + 1), or 0 when `text` has no more than `limit` brackets (it cannot be deeper).
    The site's one such scan: the socket's frame checks (games/frames.py) use it too, as
    this module imports nothing of the project."""
    if text.count("[") + text.count("{") <= limit:
        return 0
    depth = deepest = 0
    in_string = False
    skip = -1  # the position an escape consumes
    for match in _JSON_SPECIAL.finditer(text):
        pos, char = match.start(), match.group()
        if pos == skip:
            continue
        if in_string:
            if char == "\\":
                skip = pos + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        else:
            depth -= 1
    return deepest


def _integer(digits: str) -> int:
    # an integer both checkers read exactly: JavaScript's numbers are doubles
    if len(digits.lstrip("-")) > 16 or abs(int(digits)) > INTEGER_MAX:
        raise RecordError("integer_range", f"an integer is at most {INTEGER_MAX} in size, found {digits[:24]}")
    return int(digits)


def _fraction(text: str) -> float:
    raise RecordError("not_integer", f"numbers are integers without a fraction or exponent, found {text[:24]}")


def _constant(name: str) -> float:
    raise RecordError("not_integer", f"numbers are integers, found {name}")


def _object(pairs: list) -> dict:
    out = dict(pairs)
    if len(out) != len(pairs):
        key = next(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise RecordError("duplicate_key", f"the key {json.dumps(key)[:40]} appears twice in one object")
    return out


def parse_record_text(text: str) -> object:
    """One JSON document read with the record grammar's stricter rules (docs/fair-deals.md
    §6a): nesting at most :data:`DEPTH_MAX` deep, every number an integer with no
    fraction or exponent and at most :data:`INTEGER_MAX` in size, no NaN or Infinity,
    no key twice in one object.  Returns the value.  Raises :class:`RecordError` with
    the first fault: ``too_deep`` before anything else, then the others in reading
    order (a repeated key is found when its object closes).  The browser's
    ``parseRecordText`` reads the same way."""
    if not isinstance(text, str):
        raise RecordError("not_json", "a record is text")
    if nesting_depth(text, DEPTH_MAX) > DEPTH_MAX:
        raise RecordError("too_deep", f"arrays and objects nest {DEPTH_MAX} deep at most")
    try:
        return json.loads(text, parse_int=_integer, parse_float=_fraction, parse_constant=_constant,
                          object_pairs_hook=_object)
    except RecordError:
        raise
    except (ValueError, RecursionError) as exc:
        raise RecordError("not_json", f"not JSON ({exc})") from None


def verify_record(record: dict) -> list[tuple[object, list[dict]]]:
    """Check every round of a game record: ``[(round number, differences), ...]`` in
    record order.  Raises :class:`RecordError` (``not_record``) when ``record`` is not
    an ``okeysite-record-1`` record with a ``rounds`` list."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError("not_record", f"not an {RECORD_FORMAT} game record")
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("not_record", "the record has no rounds list")
    return [(r.get("number") if isinstance(r, dict) else None, verify_round(r, record)) for r in rounds]


_GRAMMAR_CODES = ("bad_record", "bad_server_seed", "bad_client_seed", "client_seed_count")


def record_fault(text: str) -> str | None:
    """The reason code of the first way the text of one record breaks the grammar
    (docs/fair-deals.md §6a), or None when it keeps it: a :class:`RecordError`'s
    ``reason``, else the first round's grammar difference (its ``reason``, or its code
    for ``client_seed_count``)."""
    try:
        rounds = verify_record(parse_record_text(text))
    except RecordError as exc:
        return exc.reason
    for _, differences in rounds:
        for d in differences:
            if d["code"] in _GRAMMAR_CODES:
                return d.get("reason", d["code"])
    return None


def read_records(text: str) -> list:
    """The records of a file: one JSON document, or JSON Lines (one record per line, as
    ``manage.py export_games`` and ``selfplay --records`` write), each read with
    :func:`parse_record_text`.  Raises :class:`RecordError` for text that is neither."""
    try:
        return [parse_record_text(text)]
    except RecordError as exc:
        lines = [line for line in text.splitlines() if line.strip()]
        if exc.reason != "not_json" or len(lines) < 2:
            raise
    return [parse_record_text(line) for line in lines]


def main(argv: list[str] | None = None) -> int:
    """``python3 fairdeal.py RECORD.json``: one line per round, ``round N: verified`` or
    what differs (JSON Lines: prefixed ``record K:``); exit status 0 when every round is
    verified, 1 when one is not, 2 when the file cannot be read as game records."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python3 fairdeal.py RECORD.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as f:
            records = read_records(f.read())
        results = [verify_record(record) for record in records]
    except (OSError, ValueError) as exc:
        print(f"{args[0]}: {exc}", file=sys.stderr)
        return 2
    if hasattr(sys.stdout, "reconfigure"):  # a tampered record may hold text the terminal cannot show
        sys.stdout.reconfigure(errors="backslashreplace")
    for k, rounds in enumerate(results):
        for number, differences in rounds:
            prefix = f"record {k + 1}: " if len(results) > 1 else ""
            print(f"{prefix}round {number}: " + ("; ".join(map(describe, differences)) or "verified"))
    if not any(results):
        print("no rounds to verify")
    return 0 if all(results) and not any(d for rounds in results for _, d in rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
