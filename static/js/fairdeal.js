// Verifiable deals: the okeysite-shuffle-2 algorithm (and -1) in the browser (and in Node 20+).
//
// The same algorithm as games/engine/fairdeal.py, written from docs/fair-deals.md with
// Web Crypto only (crypto.subtle HMAC-SHA256 and SHA-256; no dependency), so a player's
// browser can check every deal itself. Functions that hash are async; the others are
// plain. crypto.subtle exists only in secure contexts (https, or http on localhost).
// Differences are returned as {code, ...} objects, the same as the Python checker's, so
// the page can translate them by code; describe() is the English sentence.

export const SHUFFLE_1 = "okeysite-shuffle-1"; // one commitment and one seeding window per round
export const SHUFFLE_2 = "okeysite-shuffle-2"; // one hash chain and one client seed per seat for the match
export const ALGORITHM = SHUFFLE_1; // the algorithm of dealSeed()
export const ALGORITHMS = Object.freeze([SHUFFLE_1, SHUFFLE_2]);
export const KINDS = Object.freeze(["human", "computer"]);
export const CHAIN_MAX = 512;
export const LEGACY = "okeysite-legacy"; // rounds dealt before verifiable deals: nothing to check
export const RECORD_FORMAT = "okeysite-record-1";
export const CLIENT_SEED_MAX = 128; // characters of a seed sent from now on: printable ASCII only
export const LEGACY_SEED_MAX = 64; // code points of a seed recorded in an okeysite-shuffle-1 round
export const DEPTH_MAX = 64; // arrays and objects nested in a record (docs/fair-deals.md §6a)
export const INTEGER_MAX = Number.MAX_SAFE_INTEGER; // 2**53 - 1, the largest integer read exactly
export const TABLE_ID_MAX = 64;
export const DRAW_BYTES = 2;

const SERVER_SEED = /^[0-9a-f]{64}$/;
const TABLE_ID = new RegExp(`^[A-Za-z0-9_-]{1,${TABLE_ID_MAX}}$`);
// printable ASCII, no space at either end: a set no Unicode version changes (docs/fair-deals.md §2)
const SEED_TEXT = new RegExp(`^[!-~](?:[ -~]{0,${CLIENT_SEED_MAX - 2}}[!-~])?$`);
const COLOURS = "RBKY";
const UTF8 = new TextEncoder();

// seats: the seat counts dealt to; extra: the non-numbered tile; bigSetFrom: seats from which the
// 160-tile set is used (0: never); firstBonus: extra tiles of the first player; fromFirst: chunks
// in turn order from the first player (else from seat 0); indicator: one pile tile turned up
const OKEY = Object.freeze({
  seats: [2, 4], extra: "F", bigSetFrom: 0, hand: 14, firstBonus: 1, fromFirst: true, indicator: true,
});
const RAMI = Object.freeze({
  seats: [2, 6], extra: "J", bigSetFrom: 5, hand: 14, firstBonus: 0, fromFirst: false, indicator: false,
});
/** Ruleset id -> the shape of its deal (RULES.md §1, D-1, D-2). */
export const DEALS = Object.freeze({ okey51: OKEY, okey17: OKEY, rami: RAMI });

// getRandomValues works everywhere; crypto.subtle only in a secure context
const cryptoApi = (subtle = true) => {
  const c = globalThis.crypto;
  if (!c || (subtle && !c.subtle)) throw new Error("Web Crypto (crypto.subtle) is not available here: it needs https");
  return c;
};
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (text) => Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16));
const randomHex = (n) => hex(cryptoApi(false).getRandomValues(new Uint8Array(n)));

async function hmacKey(raw) {
  return cryptoApi().subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}
async function hmac(key, message) {
  return new Uint8Array(await cryptoApi().subtle.sign("HMAC", key, message));
}

// ------------------------------------------------------------------ seeds

/** A new server seed: 32 random bytes as 64 lowercase hex characters (the site's server makes these). */
export function serverSeed() {
  return randomHex(32);
}

function checkServerSeed(seed) {
  if (typeof seed !== "string" || !SERVER_SEED.test(seed)) throw new RangeError("a server seed is 64 lowercase hex characters");
  return UTF8.encode(seed);
}

/** SHA-256 of the server seed's 64 ASCII characters, as 64 lowercase hex. RangeError for a malformed seed. */
export async function commitment(seed) {
  return hex(new Uint8Array(await cryptoApi().subtle.digest("SHA-256", checkServerSeed(seed))));
}

/** A fresh client seed: 16 random bytes (crypto.getRandomValues) as 32 lowercase hex characters. */
export function clientSeed() {
  return randomHex(16);
}

const codeOf = (ch) => ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");

/**
 * Why `seed` is not a client seed of the grammar (docs/fair-deals.md §2), or null when it is
 * one: 1 to CLIENT_SEED_MAX printable ASCII characters (U+0020 to U+007E), no space at either
 * end. The empty string is the seed of a computer, an empty seat or a browser that sent none.
 * The same sentences as fairdeal.py's seed_text_fault.
 */
export function seedTextFault(seed) {
  if (typeof seed !== "string") return "a client seed is a string";
  if (!seed) return "a client seed holds 1 character at least";
  const chars = Array.from(seed); // code points, as Python counts
  if (chars.length > CLIENT_SEED_MAX) return `a client seed holds at most ${CLIENT_SEED_MAX} characters`;
  if (!SEED_TEXT.test(seed)) {
    const bad = chars.find((ch) => !(ch >= " " && ch <= "~"));
    if (bad === undefined) return "a client seed has no space at either end";
    return `a client seed may not hold U+${codeOf(bad)} (printable ASCII only)`;
  }
  return null;
}

/**
 * A client seed in canonical form: spaces (U+0020) trimmed at both ends, then seedTextFault()'s
 * grammar; "" stays "" (no seed). Throws RangeError for anything else.
 */
export function normaliseClientSeed(text) {
  if (typeof text !== "string") throw new RangeError("a client seed is a string");
  const seed = text.replace(/^ +| +$/g, "");
  const fault = seed ? seedTextFault(seed) : null;
  if (fault) throw new RangeError(fault);
  return seed;
}

// controls, surrogates and noncharacters: fixed by the standard, the same in every Unicode version
const refusedCodePoint = (code) => code < 0x20 || (code >= 0x7f && code <= 0x9f) || (code >= 0xd800 && code <= 0xdfff)
  || (code >= 0xfdd0 && code <= 0xfdef) || (code & 0xfffe) === 0xfffe;

/**
 * Why `seed` cannot be the client seed of an okeysite-shuffle-1 round, or null: at most
 * LEGACY_SEED_MAX code points, none a control, surrogate or noncharacter, no U+0020 at either
 * end ("" included). No rule naming Unicode categories: those differ between Unicode versions.
 */
export function legacySeedFault(seed) {
  if (typeof seed !== "string") return "a client seed is a string";
  const chars = Array.from(seed);
  const bad = chars.find((ch) => refusedCodePoint(ch.codePointAt(0)));
  if (bad !== undefined) return `a client seed may not hold U+${codeOf(bad)}`;
  if (chars.length > LEGACY_SEED_MAX) return `a client seed holds at most ${LEGACY_SEED_MAX} characters`;
  if (seed !== seed.replace(/^ +| +$/g, "")) return "a client seed has no space at either end";
  return null;
}

const u32 = (n) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
};
const field = (bytes) => [u32(bytes.length), bytes];

// what both algorithms' messages hold alike: the round number, the table id, the seat count
function checkMessageParts(roundNumber, tableId, clientSeeds) {
  if (!Number.isInteger(roundNumber) || roundNumber < 1 || roundNumber >= 2 ** 32) {
    throw new RangeError("the round number is an integer from 1 to 2**32-1");
  }
  if (typeof tableId !== "string" || !TABLE_ID.test(tableId)) {
    throw new RangeError(`a table id is 1-${TABLE_ID_MAX} characters from A-Z a-z 0-9 _ -`);
  }
  if (!Array.isArray(clientSeeds) || clientSeeds.length < 2 || clientSeeds.length > 6) {
    throw new RangeError("a deal has 2 to 6 client seeds, one per seat");
  }
}

/**
 * The canonical bytes the deal seed signs: the algorithm id, the round number (1..2**32-1),
 * the table id (1-64 of A-Z a-z 0-9 _ -) and the 2-6 client seeds (legacySeedFault()) in seat order;
 * strings as a 4-byte big-endian length + UTF-8, integers as 4 bytes big-endian.
 * Returns a Uint8Array; RangeError on a bad part.
 */
export function dealMessage(roundNumber, tableId, clientSeeds) {
  checkMessageParts(roundNumber, tableId, clientSeeds);
  const parts = [...field(UTF8.encode(ALGORITHM)), u32(roundNumber), ...field(UTF8.encode(tableId)), u32(clientSeeds.length)];
  clientSeeds.forEach((seed, seat) => {
    const fault = legacySeedFault(seed);
    if (fault) throw new RangeError(`the client seed of seat ${seat} is refused (${fault})`);
    parts.push(...field(UTF8.encode(seed)));
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** One link back along a match's hash chain: SHA-256 of the seed's 64 ASCII characters (= commitment()). */
export async function chainStep(seed) {
  return commitment(seed);
}

/**
 * The server seeds of rounds 1..length from round `length`'s seed `last`: [tip, round 1, ..., round length]
 * (docs/fair-deals.md §8). RangeError for a malformed seed or a length outside 1..CHAIN_MAX.
 */
export async function chain(last, length) {
  if (!Number.isInteger(length) || length < 1 || length > CHAIN_MAX) throw new RangeError(`a chain has 1 to ${CHAIN_MAX} rounds`);
  checkServerSeed(last);
  const out = [last];
  for (let k = 0; k < length; k++) out.push(await chainStep(out[out.length - 1]));
  return out.reverse();
}

/** Whether round `roundNumber`'s server seed leads to `tip` in roundNumber chain steps. RangeError on bad input. */
export async function chainReaches(seed, roundNumber, tip) {
  if (!Number.isInteger(roundNumber) || roundNumber < 1 || roundNumber > CHAIN_MAX) {
    throw new RangeError(`a chained round is numbered 1 to ${CHAIN_MAX}`);
  }
  let at = seed;
  for (let k = 0; k < roundNumber; k++) at = await chainStep(at);
  return at === tip;
}

const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/**
 * okeysite-shuffle-2's message: the algorithm id, the round number, the table id, the chain tip,
 * the number of seats, then per seat its kind ("human"/"computer") and its client seed, strings
 * length-prefixed (docs/fair-deals.md §8). Returns a Uint8Array; RangeError on a bad part.
 */
export function dealMessage2(roundNumber, tableId, chainTip, clientSeeds, kinds) {
  checkMessageParts(roundNumber, tableId, clientSeeds);
  if (typeof chainTip !== "string" || !SERVER_SEED.test(chainTip)) throw new RangeError("a chain tip seed is 64 lowercase hex characters");
  if (!Array.isArray(kinds) || kinds.length !== clientSeeds.length) throw new RangeError("a deal has one kind per seat");
  kinds.forEach((kind, seat) => {
    const fault = clientSeeds[seat] ? seedTextFault(clientSeeds[seat]) : null;
    if (fault) throw new RangeError(`the client seed of seat ${seat} is refused (${fault})`);
    if (!KINDS.includes(kind)) throw new RangeError(`the kind of seat ${seat} is human or computer`);
    if (kind === "computer" && clientSeeds[seat]) throw new RangeError(`seat ${seat} is a computer: its client seed is empty`);
  });
  const parts = [...field(UTF8.encode(SHUFFLE_2)), u32(roundNumber), ...field(UTF8.encode(tableId)),
    ...field(UTF8.encode(chainTip)), u32(clientSeeds.length)];
  kinds.forEach((kind, seat) => parts.push(...field(UTF8.encode(kind)), ...field(UTF8.encode(clientSeeds[seat]))));
  return concat(parts);
}

/** okeysite-shuffle-2's deal seed: HMAC-SHA256 keyed with the round's server seed over dealMessage2(). */
export async function dealSeed2(serverSeedText, roundNumber, tableId, chainTip, clientSeeds, kinds) {
  const key = await hmacKey(checkServerSeed(serverSeedText));
  return hex(await hmac(key, dealMessage2(roundNumber, tableId, chainTip, clientSeeds, kinds)));
}

/** HMAC-SHA256 keyed with the server seed's 64 ASCII bytes over dealMessage(), as 64 lowercase hex. */
export async function dealSeed(serverSeedText, roundNumber, tableId, clientSeeds) {
  const key = await hmacKey(checkServerSeed(serverSeedText));
  return hex(await hmac(key, dealMessage(roundNumber, tableId, clientSeeds)));
}

// ---------------------------------------------------------------- shuffle

async function blocks(seed) {
  if (typeof seed !== "string" || !SERVER_SEED.test(seed)) throw new RangeError("a deal seed is 64 lowercase hex characters");
  const key = await hmacKey(fromHex(seed));
  let counter = 0n;
  return async () => {
    const message = new Uint8Array(8);
    new DataView(message.buffer).setBigUint64(0, counter++);
    return hmac(key, message);
  };
}

/** The first `count` bytes of the deal's stream: block k = HMAC-SHA256(deal seed bytes, k as 8 bytes big-endian). */
export async function streamBytes(seed, count) {
  const next = await blocks(seed);
  const out = new Uint8Array(count);
  for (let at = 0; at < count; at += 32) out.set((await next()).subarray(0, count - at), at);
  return out;
}

/**
 * Fisher-Yates draws for `count` tiles: for i = count-1 down to 1, 2 stream bytes as an
 * unsigned big-endian x; with m = i + 1, x >= 65536 - 65536 % m is rejected, else j = x % m.
 * Returns {js, rejected}: js[k] is j for i = count-1-k; rejected lists [i, x] pairs.
 */
export async function swapIndices(count, seed) {
  const next = await blocks(seed);
  let buffer = new Uint8Array(0);
  let at = 0;
  const js = [];
  const rejected = [];
  for (let i = count - 1; i >= 1; i--) {
    const m = i + 1;
    const bound = 65536 - (65536 % m);
    for (;;) {
      if (at === buffer.length) {
        buffer = await next();
        at = 0;
      }
      const x = (buffer[at] << 8) | buffer[at + 1];
      at += DRAW_BYTES;
      if (x < bound) {
        js.push(x % m);
        break;
      }
      rejected.push([i, x]);
    }
  }
  return { js, rejected };
}

/** `tiles` in the deal's order (a new array): for i = len-1 down to 1, swap i and j. */
export async function shuffle(tiles, seed) {
  const out = [...tiles];
  const { js } = await swapIndices(out.length, seed);
  js.forEach((j, k) => {
    const i = out.length - 1 - k;
    [out[i], out[j]] = [out[j], out[i]];
  });
  return out;
}

function dealOf(ruleset, players) {
  const deal = Object.hasOwn(DEALS, ruleset) ? DEALS[ruleset] : undefined;
  if (!deal) throw new RangeError(`unknown ruleset ${JSON.stringify(ruleset)}`);
  if (!Number.isInteger(players) || players < deal.seats[0] || players > deal.seats[1]) {
    throw new RangeError(`${ruleset} deals to ${deal.seats[0]} to ${deal.seats[1]} seats`);
  }
  return deal;
}

/** The full set before the shuffle: R, B, K, Y; 1..13; copies adjacent; then the F or J tiles (D-1). */
export function tileSet(ruleset, players) {
  const deal = dealOf(ruleset, players);
  const big = deal.bigSetFrom > 0 && players >= deal.bigSetFrom;
  const [copies, extras] = big ? [3, 4] : [2, 2];
  const out = [];
  for (const c of COLOURS) for (let n = 1; n <= 13; n++) for (let k = 0; k < copies; k++) out.push(`${c}${n}`);
  for (let k = 0; k < extras; k++) out.push(deal.extra);
  return out;
}

/**
 * Deal a shuffled set: okey — 15 tiles to `first`, 14 to each next seat in turn order,
 * the rest the pile, the indicator the first pile tile that is not F (D-2), taken out;
 * rami — 14 to each seat from seat 0, the rest the pile. Returns {racks, pile, indicator}.
 */
export function arrange(ruleset, players, first, tiles) {
  const deal = dealOf(ruleset, players);
  if (!Number.isInteger(first) || first < 0 || first >= players) throw new RangeError("first must be a seat");
  if ([...tiles].sort().join() !== tileSet(ruleset, players).sort().join()) {
    throw new RangeError(`the tiles are not the ${ruleset} set for ${players} seats`);
  }
  const racks = Array.from({ length: players }, () => []);
  let at = 0;
  for (let k = 0; k < players; k++) {
    const seat = deal.fromFirst ? (first + k) % players : k;
    const size = deal.hand + (seat === first ? deal.firstBonus : 0);
    racks[seat] = tiles.slice(at, at + size);
    at += size;
  }
  const pile = tiles.slice(at);
  let indicator = null;
  if (deal.indicator) {
    [indicator] = pile.splice(pile.findIndex((t) => t !== "F"), 1);
  }
  return { racks, pile, indicator };
}

/** The whole deal of a round: tileSet() shuffled with the deal seed, then arrange()d. */
export async function layout(ruleset, players, first, seed) {
  return arrange(ruleset, players, first, await shuffle(tileSet(ruleset, players), seed));
}

// --------------------------------------------------------------- checking

const diff = (code, fields = {}) => ({ code, ...fields });
const bad = (reason, detail) => [diff("bad_record", { reason, detail })];
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const byCodePoint = (a, b) => {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
};

// tiles in `a` beyond those in `b` (multisets), sorted by code point
function minus(a, b) {
  const left = new Map();
  for (const t of b) left.set(t, (left.get(t) || 0) + 1);
  const out = [];
  for (const t of a) {
    if (left.get(t) > 0) left.set(t, left.get(t) - 1);
    else out.push(t);
  }
  return out.sort(byCodePoint);
}

const hexFault = (value, what) => (typeof value === "string" && SERVER_SEED.test(value)
  ? [] : bad("bad_hex", `${what} is 64 lowercase hex characters`));

/**
 * The first way a round breaks the record grammar (docs/fair-deals.md §6a), as its one
 * difference, or [] when it is well formed: the checks of fairdeal.py's _round_grammar, in
 * the same order, with the same codes, reasons and sentences.
 */
function roundGrammar(round, header) {
  if (!isObject(round) || !isObject(header)) return bad("not_object", "a round and a header are JSON objects");
  const missing = ["number", "shuffle", "first", "commitment", "server_seed", "client_seeds", "initial"]
    .filter((k) => !Object.hasOwn(round, k));
  if (missing.length) return bad("missing_key", `missing ${missing.join(", ")}`);
  const algorithm = round.shuffle;
  if (algorithm === LEGACY) return [diff("legacy")];
  if (!ALGORITHMS.includes(algorithm)) return [diff("unknown_shuffle", { recorded: algorithm })];
  if (algorithm === SHUFFLE_2 && !Object.hasOwn(round, "chain_tip")) return bad("missing_key", "missing chain_tip");
  const { ruleset, players } = header;
  if (typeof ruleset !== "string" || !Object.hasOwn(DEALS, ruleset)) return bad("bad_ruleset", `the ruleset ${show(ruleset)} is not known`);
  const [low, high] = DEALS[ruleset].seats;
  if (!Array.isArray(players) || players.length < low || players.length > high) {
    return bad("bad_players", `${ruleset} needs a players list of ${low}-${high} seats`);
  }
  if (players.some((p) => !isObject(p) || !KINDS.includes(p.kind))) return bad("bad_kind", "every player has a kind, human or computer");
  const tableId = header.table_id;
  if (typeof tableId !== "string" || !TABLE_ID.test(tableId)) {
    return bad("bad_table_id", `a table id is 1-${TABLE_ID_MAX} characters from A-Z a-z 0-9 _ -`);
  }
  const { number, first } = round;
  const top = algorithm === SHUFFLE_2 ? CHAIN_MAX : 2 ** 32 - 1;
  if (!Number.isInteger(number) || number < 1 || number > top) return bad("bad_number", `a round is numbered 1 to ${top}`);
  if (!Number.isInteger(first) || first < 0 || first >= players.length) return bad("bad_first", "first is a seat number");
  if (!isObject(round.initial)) return bad("not_object", "the initial position is a JSON object");
  let faults = hexFault(round.commitment, "the commitment");
  if (algorithm === SHUFFLE_2 && !faults.length) faults = hexFault(round.chain_tip, "the chain tip");
  if (faults.length) return faults;
  if (round.server_seed === null) return [diff("not_revealed")];
  if (typeof round.server_seed !== "string" || !SERVER_SEED.test(round.server_seed)) {
    return [diff("bad_server_seed", { reason: "bad_hex", detail: "a server seed is 64 lowercase hex characters" })];
  }
  const seeds = round.client_seeds;
  if (!Array.isArray(seeds) || seeds.length !== players.length) {
    return [diff("client_seed_count", { expected: players.length, recorded: Array.isArray(seeds) ? seeds.length : null })];
  }
  for (let seat = 0; seat < seeds.length; seat++) {
    const seed = seeds[seat];
    let fault;
    if (algorithm === SHUFFLE_2) fault = seed !== "" ? seedTextFault(seed) : null;
    else fault = legacySeedFault(seed);
    if (fault) return [diff("bad_client_seed", { reason: "seed_text", seat, detail: fault })];
  }
  return [];
}

// the commitment and computer-seed checks of verifyRound() (a well-formed round)
async function seedDifferences(round, header) {
  const out = [];
  const expected = await commitment(round.server_seed);
  if (round.commitment !== expected) out.push(diff("commitment", { expected, recorded: round.commitment }));
  round.client_seeds.forEach((seed, seat) => {
    // a seed chosen by the server for its own seat would let it try deals until one suits it
    if (seed && header.players[seat].kind === "computer") out.push(diff("computer_seed", { seat, recorded: seed }));
  });
  return out;
}

// what one player's browser saw before the deal, against the record (docs/fair-deals.md §1)
function seenDifferences(round, seen) {
  const out = [];
  const seeds = round.client_seeds;
  const { seat } = seen;
  if (round.shuffle === SHUFFLE_2) {
    // the browser saw the chain's tip before it sent its seed, and was answered `seeded`
    if ((seen.chain_tip ?? null) !== (round.chain_tip ?? null)) {
      out.push(diff("shown_commitment", { expected: seen.chain_tip ?? null, recorded: round.chain_tip ?? null }));
    }
    if (!Number.isInteger(seat) || seat < 0 || seat >= seeds.length) {
      return [...out, ...bad("bad_seat", "the seat that sent a client seed is not a seat of the round")];
    }
    if (seeds[seat] !== (seen.client_seed ?? null)) {
      out.push(diff("seed_not_used", { seat, expected: seen.client_seed ?? null, recorded: seeds[seat] }));
    }
    return out;
  }
  if ((seen.commitment ?? null) !== round.commitment) {
    out.push(diff("shown_commitment", { expected: seen.commitment ?? null, recorded: round.commitment }));
  }
  if (!Number.isInteger(seat) || seat < 0 || seat >= seeds.length) {
    return [...out, ...bad("bad_seat", "the seat that sent a client seed is not a seat of the round")];
  }
  if (seeds[seat] !== (seen.client_seed ?? null)) {
    out.push(diff("own_client_seed", { seat, expected: seen.client_seed ?? null, recorded: seeds[seat] }));
  }
  return out;
}

function positionDifferences(expected, initial, first) {
  const out = [];
  const seats = initial.seats;
  if (!Array.isArray(seats) || seats.length !== expected.racks.length) {
    return [diff("seats", { expected: expected.racks.length, recorded: Array.isArray(seats) ? seats.length : null })];
  }
  const turn = initial.turn ?? null;
  if (turn !== first) out.push(diff("first", { expected: first, recorded: turn }));
  expected.racks.forEach((rack, seat) => {
    let got = isObject(seats[seat]) ? seats[seat].rack : null;
    got = Array.isArray(got) && got.every((t) => typeof t === "string") ? got : [];
    // a rack's order is the player's own arrangement: only which tiles it holds is dealt
    const missing = minus(rack, got);
    const extra = minus(got, rack);
    if (missing.length || extra.length) out.push(diff("rack", { seat, missing, extra }));
  });
  const pile = Array.isArray(initial.pile) ? initial.pile : [];
  const want = expected.pile;
  let at = 0;
  while (at < Math.min(pile.length, want.length) && pile[at] === want[at]) at++;
  if (at < Math.max(pile.length, want.length)) {
    out.push(diff("pile", {
      index: at, expected: at < want.length ? want[at] : null, recorded: at < pile.length ? pile[at] : null,
      expected_count: want.length, recorded_count: pile.length,
    }));
  }
  if ((initial.indicator ?? null) !== expected.indicator) {
    out.push(diff("indicator", { expected: expected.indicator, recorded: initial.indicator ?? null }));
  }
  return out;
}

/**
 * Check one round of a game record (docs/game-record.md): `round` {number, shuffle, first,
 * commitment, server_seed, client_seeds, initial, ...}, `header` the record's top level
 * (ruleset, table_id, players); `seen`, kept by this player's browser: {seat, commitment,
 * client_seed}, the commitment it was shown and the seed it sent before the deal.
 * Resolves to the differences ({code, ...}, docs/fair-deals.md §6), empty when verified;
 * never rejects for a bad record (that is a bad_record difference).
 */
export async function verifyRound(round, header, seen = null) {
  const faults = roundGrammar(round, header);
  if (faults.length) return faults;
  const algorithm = round.shuffle;
  const { ruleset, players } = header;
  const { first } = round;
  const out = await seedDifferences(round, header);
  if (algorithm === SHUFFLE_2) {
    const { number, chain_tip: tip } = round;
    if (!(await chainReaches(round.server_seed, number, tip))) out.push(diff("chain", { number, recorded: tip }));
  }
  if (seen !== null && seen !== undefined) {
    out.push(...(isObject(seen) ? seenDifferences(round, seen) : bad("not_object", "seen is a JSON object")));
  }
  let seed;
  try {
    if (algorithm === SHUFFLE_2) {
      const kinds = players.map((p) => p.kind);
      seed = await dealSeed2(round.server_seed, round.number, header.table_id, round.chain_tip, round.client_seeds, kinds);
    } else {
      seed = await dealSeed(round.server_seed, round.number, header.table_id, round.client_seeds);
    }
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    return [...out, ...bad("bad_deal_part", err.message)];
  }
  const { initial } = round;
  if ((initial.ruleset ?? null) !== ruleset) out.push(diff("ruleset", { expected: ruleset, recorded: initial.ruleset ?? null }));
  return [...out, ...positionDifferences(await layout(ruleset, players.length, first, seed), initial, first)];
}

/** Difference code -> its English sentence (the command-line output; the page translates by code). */
export const MESSAGES = Object.freeze({
  bad_record: "malformed record ({reason}): {detail}",
  unknown_shuffle: `unknown shuffle algorithm {recorded} (this checker knows ${ALGORITHMS.join(", ")})`,
  chain: "the server seed of round {number} does not lead to the chain tip {recorded} published before the match",
  legacy: "dealt before verifiable deals: this round has no commitment and seeds to check its deal against",
  not_revealed: "not revealed yet: the server seed is shown once the round is over",
  bad_server_seed: "server seed refused ({reason}): {detail}",
  commitment: "commitment mismatch: sha256(server seed) is {expected}, recorded {recorded}",
  client_seed_count: "client seeds: expected {expected} (one per seat), recorded {recorded}",
  bad_client_seed: "client seed of seat {seat} refused ({reason}): {detail}",
  computer_seed: "seat {seat} is a computer but has a client seed: {recorded}",
  shown_commitment: "commitment differs from the one shown before the deal: shown {expected}, recorded {recorded}",
  own_client_seed: "client seed of seat {seat} differs from the one sent: sent {expected}, recorded {recorded}",
  seed_not_used: "your seed was not used: seat {seat} sent {expected} and was answered seeded, recorded {recorded}",
  ruleset: "ruleset differs: expected {expected}, recorded {recorded}",
  seats: "number of seats differs: expected {expected}, recorded {recorded}",
  first: "first seat differs: expected {expected}, recorded {recorded}",
  rack: "seat {seat} rack differs: dealt {missing} not recorded, recorded {extra} not dealt",
  pile: "pile differs from position {index}: expected {expected}, recorded {recorded}"
    + " ({expected_count} tiles expected, {recorded_count} recorded)",
  indicator: "indicator differs: expected {expected}, recorded {recorded}",
});

function show(value) {
  if (value === null || value === undefined) return "nothing";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(show).join(" ") || "nothing";
  return JSON.stringify(value);
}

/** One difference of verifyRound() as its English sentence (MESSAGES). */
export function describe(d) {
  return MESSAGES[d.code].replace(/\{(\w+)\}/g, (_, key) => show(d[key]));
}

/**
 * A text that breaks the record grammar before any round is read (docs/fair-deals.md §6a):
 * `reason` is its code (not_json, too_deep, not_integer, integer_range, duplicate_key,
 * not_record), `detail` the English sentence. fairdeal.py raises RecordError alike.
 */
export class RecordError extends RangeError {
  constructor(reason, detail) {
    super(`malformed record (${reason}): ${detail}`);
    this.reason = reason;
    this.detail = detail;
  }
}

// Counted on the text, before reading it: the depth of open arrays and objects, outside strings.
function nestingFault(text) {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "[" || ch === "{") {
      depth += 1;
      if (depth > DEPTH_MAX) throw new RecordError("too_deep", `arrays and objects nest ${DEPTH_MAX} deep at most`);
    } else if (ch === "]" || ch === "}") depth -= 1;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/**
 * One JSON document read with the record grammar's stricter rules (docs/fair-deals.md §6a):
 * nesting at most DEPTH_MAX deep, every number an integer with no fraction or exponent and at
 * most INTEGER_MAX in size, no NaN or Infinity, no key twice in one object. JSON.parse cannot
 * say any of this (its numbers have lost their text and a repeated key silently wins), so this
 * is a small reader of its own, which finds the faults in the order fairdeal.py's reader does:
 * too_deep before anything else, then in reading order, a repeated key when its object closes.
 * Returns the value; throws RecordError.
 */
export function parseRecordText(text) {
  if (typeof text !== "string") throw new RecordError("not_json", "a record is text");
  nestingFault(text);
  let at = 0;
  const fail = (what) => {
    throw new RecordError("not_json", `not JSON (${what} at character ${at})`);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at])) at++;
  };
  const string = () => {
    at++; // the opening quote
    let out = "";
    for (;;) {
      if (at >= text.length) fail("unterminated string");
      const ch = text[at];
      if (ch === '"') {
        at++;
        return out;
      }
      if (ch < " ") fail("control character in a string");
      if (ch !== "\\") {
        out += ch;
        at++;
        continue;
      }
      const next = text[at + 1];
      if (next === "u") {
        const digits = text.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail("bad \\u escape");
        out += String.fromCharCode(parseInt(digits, 16));
        at += 6;
      } else if (next !== undefined && Object.hasOwn(ESCAPES, next)) {
        out += ESCAPES[next];
        at += 2;
      } else fail("bad escape");
    }
  };
  const number = () => {
    for (const name of ["NaN", "Infinity", "-Infinity"]) {
      if (text.startsWith(name, at)) throw new RecordError("not_integer", `numbers are integers, found ${name}`);
    }
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (!m) fail("expecting a value");
    if (m[1] !== undefined || m[2] !== undefined) {
      throw new RecordError("not_integer", `numbers are integers without a fraction or exponent, found ${m[0].slice(0, 24)}`);
    }
    const digits = m[0].replace(/^-/, "");
    const value = Number(m[0]);
    if (digits.length > 16 || Math.abs(value) > INTEGER_MAX) {
      throw new RecordError("integer_range", `an integer is at most ${INTEGER_MAX} in size, found ${m[0].slice(0, 24)}`);
    }
    at += m[0].length;
    return value;
  };
  let value;
  const array = () => {
    at++;
    const out = [];
    space();
    if (text[at] === "]") {
      at++;
      return out;
    }
    for (;;) {
      out.push(value());
      space();
      if (text[at] === ",") at++;
      else if (text[at] === "]") {
        at++;
        return out;
      } else fail("expecting , or ]");
    }
  };
  const object = () => {
    at++;
    const pairs = [];
    space();
    if (text[at] === "}") {
      at++;
      return {};
    }
    for (;;) {
      space();
      if (text[at] !== '"') fail("expecting a key in double quotes");
      const key = string();
      space();
      if (text[at] !== ":") fail("expecting :");
      at++;
      pairs.push([key, value()]);
      space();
      if (text[at] === ",") at++;
      else if (text[at] === "}") {
        at++;
        break;
      } else fail("expecting , or }");
    }
    const seen = new Map();
    for (const [key] of pairs) seen.set(key, (seen.get(key) || 0) + 1);
    for (const [key, n] of seen) {
      if (n > 1) throw new RecordError("duplicate_key", `the key ${JSON.stringify(key).slice(0, 40)} appears twice in one object`);
    }
    return Object.fromEntries(pairs); // own keys only, "__proto__" included
  };
  value = () => {
    space();
    const ch = text[at];
    if (ch === "{") return object();
    if (ch === "[") return array();
    if (ch === '"') return string();
    for (const [word, v] of [["null", null], ["true", true], ["false", false]]) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return v;
      }
    }
    return number();
  };
  const out = value();
  space();
  if (at !== text.length) fail("extra data");
  return out;
}

/** Check every round of a record: [{number, differences}] in order. RecordError (not_record) when it is not an okeysite-record-1. */
export async function verifyRecord(record) {
  if (!isObject(record) || record.format !== RECORD_FORMAT) throw new RecordError("not_record", `not an ${RECORD_FORMAT} game record`);
  if (!Array.isArray(record.rounds)) throw new RecordError("not_record", "the record has no rounds list");
  const out = [];
  for (const round of record.rounds) {
    out.push({ number: isObject(round) ? round.number ?? null : null, differences: await verifyRound(round, record) });
  }
  return out;
}

const GRAMMAR_CODES = ["bad_record", "bad_server_seed", "bad_client_seed", "client_seed_count"];

/**
 * The reason code of the first way the text of one record breaks the grammar, or null when it
 * keeps it (fairdeal.py's record_fault): a RecordError's reason, else the first round's grammar
 * difference (its reason, or its code for client_seed_count).
 */
export async function recordFault(text) {
  let rounds;
  try {
    rounds = await verifyRecord(parseRecordText(text));
  } catch (err) {
    if (err instanceof RecordError) return err.reason;
    throw err;
  }
  for (const { differences } of rounds) {
    for (const d of differences) if (GRAMMAR_CODES.includes(d.code)) return d.reason ?? d.code;
  }
  return null;
}
