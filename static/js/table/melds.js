// Client-side meld reading (RULES.md §1, §2). Informational only: the server judges.
// Used to show each proposed meld's points, mark invalid melds while arranging, and
// write wilds as physical=represented (RULES.md §1) before sending.
//
// This is games/engine/melds.py (`classify`, `resolve`) in JavaScript, step for step, and
// it knows no ruleset id: every rule comes from `rules.meld`, the ruleset's MeldRules that
// the server sends in table_config.rules (Ruleset.client_rules). tests/js/meld-verdicts
// runs it against the engine's verdicts so the two cannot drift apart.
import { COLOURS, face, isWild, splitWild } from "./tiles.js";

const INVALID = Object.freeze({ valid: false });
const RUN = "run", GROUP = "group", PAIR = "pair";

/** The physical wild tile: "J" when jokers are wild, else the okey (null when unknown). */
export function wildTile(rules, okey) {
  return rules.meld.joker_wild ? "J" : (okey || null);
}

/**
 * The identity of a bare tile as an ordinary tile: "F" plays as the okey where the okey
 * is wild (RULES.md §1), and has no identity where jokers are; "J" never has one.
 */
function tileFace(tile, m, okey) {
  if (tile === "F") return m.joker_wild || !okey ? null : face(okey);
  return face(tile);
}

/** Written tiles -> {faces, flags}, or null when some tile is not valid meld notation. */
function readTiles(tiles, m, okey) {
  const wild = wildTile({ meld: m }, okey);
  const faces = [], flags = [];
  for (const text of tiles) {
    if (typeof text !== "string") return null;
    const { physical, represented } = splitWild(text);
    const wildHere = physical === wild;
    let f;
    if (represented !== null) {
      if (!wildHere) return null;                    // only a wild may stand for a tile
      f = face(represented);
    } else {
      if (physical === "J") return null;            // a bare joker stands for nothing
      f = tileFace(physical, m, okey);
    }
    if (!f) return null;
    faces.push(f);
    flags.push(wildHere);
  }
  return { faces, flags };
}

/** Meld points (RULES.md §2, D-3, D-6); `numbers` are run positions (14 = a 1 after 13). */
function meldPoints(m, kind, numbers) {
  if (m.points === "sum") return numbers.reduce((a, n) => a + (n === 14 ? 1 : n), 0);
  if (kind === RUN) {
    const top = [...numbers].sort((a, b) => a - b).slice(-3);
    return top[1] + numbers.length - 3;
  }
  if (kind === GROUP) return numbers[0] + (numbers.length === 4 ? 1 : 0);
  return numbers[0];
}

/** Positions (1..14) making the numbers consecutive, or null. */
function runPositions(numbers, aceHigh) {
  if (new Set(numbers).size !== numbers.length) return null;
  const span = (ns) => { const o = [...ns].sort((a, b) => a - b); return o[o.length - 1] - o[0] === o.length - 1; };
  if (span(numbers)) return numbers;
  if (aceHigh && numbers.includes(1)) {
    const moved = numbers.map((n) => (n === 1 ? 14 : n));
    if (span(moved)) return moved;
  }
  return null;
}

const faceText = (f) => `${f.colour}${f.number}`;

/**
 * Classify a meld as written (the table's notation: "R6=B5" a wild standing for B5, a
 * bare wild standing for itself, "F" an ordinary tile with the okey's identity).
 * @param {{meld: {ace_high: boolean, pairs: boolean, descending: boolean, joker_wild: boolean, points: "sum"|"values"}}} rules
 *   table_config.rules (Ruleset.client_rules)
 * @param {string[]} tiles written tiles
 * @param {string|null} okey the wild tile of the okey rulesets (view.okey)
 * @returns {null | {type: "run"|"group"|"pair", points: number, tiles: string[], faces: string[],
 *   wild: boolean[], low: number, high: number}} null when not a valid meld; a run's
 *   tiles, faces and wild flags lowest first (D-5), its ends as positions 1..14
 */
export function classify(rules, tiles, okey) {
  const m = rules.meld;
  if (!Array.isArray(tiles) || tiles.length < 2) return null;
  const read = readTiles(tiles, m, okey);
  if (!read) return null;
  const { faces, flags } = read;
  const n = faces.length;
  if (n === 2) {
    if (!m.pairs || faceText(faces[0]) !== faceText(faces[1])) return null;
    const nums = [faces[0].number, faces[1].number];
    return { type: PAIR, points: meldPoints(m, PAIR, nums), tiles: [...tiles], faces: faces.map(faceText),
      wild: flags, low: nums[0], high: nums[0] };
  }
  if (flags.every(Boolean)) return null;           // D-4: at least one tile is not wild
  const colours = new Set(faces.map((f) => f.colour));
  const numbers = faces.map((f) => f.number);
  if (colours.size === 1 && n <= 14) {
    const pos = runPositions(numbers, m.ace_high);
    if (!pos) return null;
    const order = [...Array(n).keys()].sort((a, b) => pos[a] - pos[b]);
    const spos = order.map((i) => pos[i]);
    return { type: RUN, points: meldPoints(m, RUN, spos), tiles: order.map((i) => tiles[i]),
      faces: order.map((i) => faceText(faces[i])), wild: order.map((i) => flags[i]), low: spos[0], high: spos[n - 1] };
  }
  if (new Set(numbers).size === 1 && colours.size === n && n <= 4) {
    return { type: GROUP, points: meldPoints(m, GROUP, numbers), tiles: [...tiles], faces: faces.map(faceText),
      wild: flags, low: numbers[0], high: numbers[0] };
  }
  return null;
}

const annotate = (physical, f) => (physical === f ? physical : `${physical}=${f}`);

/** Assignments {index: face} of faces to the wild places, most natural first (melds.py `_candidates`). */
function* candidates(tiles, holes, fixed, m) {
  const n = tiles.length;
  const known = [...fixed.entries()];               // [index, face] in index order
  if (!known.length) return;
  if (n === 2) { yield new Map([[holes[0], faceText(known[0][1])]]); return; }
  const colours = new Set(known.map(([, f]) => f.colour));
  const numbers = new Set(known.map(([, f]) => f.number));
  if (colours.size === 1) {
    const colour = known[0][1].colour;
    const top = m.ace_high ? 14 : 13;
    const aces = m.ace_high ? [false, true] : [false];
    const at = (p) => `${colour}${p === 14 ? 1 : p}`;
    for (const d of m.descending ? [1, -1] : [1]) {
      for (const ace of aces) {
        const starts = new Set(known.map(([i, f]) => (ace && f.number === 1 ? 14 : f.number) - d * i));
        if (starts.size !== 1) continue;
        const [start] = starts;
        const pos = holes.map((i) => [i, start + d * i]);
        if (pos.every(([, p]) => p >= 1 && p <= top)) yield new Map(pos.map(([i, p]) => [i, at(p)]));
      }
    }
    // any reading: fill the gaps, then extend upwards, then downwards
    for (const ace of aces) {
      const nums = known.map(([, f]) => (ace && f.number === 1 ? 14 : f.number)).sort((a, b) => a - b);
      if (new Set(nums).size !== nums.length) continue;
      const missing = [];
      for (let p = nums[0]; p <= nums[nums.length - 1]; p++) if (!nums.includes(p)) missing.push(p);
      const spare = holes.length - missing.length;
      if (spare < 0) continue;
      const hi = [];
      for (let p = nums[nums.length - 1] + 1; p <= top && hi.length < spare; p++) hi.push(p);
      const lo = [];
      for (let p = nums[0] - 1; p > 0 && lo.length < spare - hi.length; p--) lo.push(p);
      const pos = [...missing, ...hi, ...lo];
      if (pos.length === holes.length) yield new Map(holes.map((i, k) => [i, at(pos[k])]));
    }
  }
  if (numbers.size === 1) {
    const [number] = numbers;
    const free = [...COLOURS].filter((c) => !colours.has(c));
    if (free.length >= holes.length) yield new Map(holes.map((i, k) => [i, `${free[k]}${number}`]));
  }
}

/**
 * Write the bare wilds of tiles as arranged on the rack so they form a valid meld
 * (melds.py `resolve`): the tiles as they are when they already read as a meld, else the
 * reading that follows the given order (a run left to right, or right to left where
 * descending runs are allowed), then a group, then any valid reading.
 * @param {object} rules table_config.rules
 * @param {string[]} tiles in the order given; annotated or ordinary tiles are kept
 * @param {string|null} okey
 * @returns {string[]|null} the written tiles in the given order, or null
 */
export function resolve(rules, tiles, okey) {
  const m = rules.meld;
  tiles = [...tiles];
  if (classify(rules, tiles, okey)) return tiles;
  const wild = wildTile(rules, okey);
  const holes = tiles.map((t, i) => (t === wild ? i : -1)).filter((i) => i >= 0);
  if (!holes.length || tiles.length < 2) return null;
  const fixed = new Map();
  for (let i = 0; i < tiles.length; i++) {
    if (holes.includes(i)) continue;
    const read = readTiles([tiles[i]], m, okey);
    if (!read) return null;
    fixed.set(i, read.faces[0]);
  }
  for (const cand of candidates(tiles, holes, fixed, m)) {
    const out = tiles.map((t, i) => (cand.has(i) ? annotate(t, cand.get(i)) : t));
    if (classify(rules, out, okey)) return out;
  }
  return null;
}

/**
 * Read a proposed meld in the order the tiles lie on the rack or table: the engine's
 * `resolve_meld` then `meld_info` (RULES.md §2 points).
 * @param {object} rules table_config.rules
 * @param {string[]} tiles bare rack tiles, or table tiles ("R6=B5" keeps its place)
 * @param {string|null} okey the wild tile (view.okey); unused where jokers are wild
 * @returns {{valid: false} | {valid: true, type: "run"|"group"|"pair", points: number, written: string[]}}
 *   `written` is the tiles as the server wants them, in the given order: free wilds as
 *   physical=represented (an okey standing for itself stays bare).
 */
export function analyse(rules, tiles, okey) {
  if (!tiles || !tiles.length) return INVALID;
  const written = resolve(rules, tiles, okey);
  const meld = written && classify(rules, written, okey);
  return meld ? { valid: true, type: meld.type, points: meld.points, written } : INVALID;
}

/**
 * Where `tile` can be added to a table meld (one end of a run, a missing colour of
 * a group; RULES.md §3). Pairs never grow.
 * @returns {string|null} the tile as written for an `add` action (a wild gets
 *   "=represented"), or null when it does not fit.
 */
export function addFit(rules, meldTiles, tile, okey) {
  // on the table a bare wild stands for itself (RULES.md §1): fix it so it is not read as free
  meldTiles = meldTiles.map((t) => (isWild(rules, t, okey) ? `${t}=${t}` : t));
  const before = classify(rules, meldTiles, okey);
  if (!before || before.type === PAIR) return null;
  const tries = [[[...meldTiles, tile], meldTiles.length], [[tile, ...meldTiles], 0]];
  for (const [tiles, at] of tries) {
    const after = analyse(rules, tiles, okey);
    if (after.valid && after.type === before.type) return after.written[at];
  }
  return null;
}

/**
 * What a tap on a table meld with `tile` selected should send (RULES.md §3 add and swap).
 * @param {object} rules table_config.rules
 * @param {string[]} meldTiles the meld as the table writes it
 * @param {string} tile the bare rack tile
 * @param {string|null} okey
 * @returns {{type: "add", tile: string} | {type: "swap", tile: string} | null}
 *   an add when the tile fits an end of a run or a group's missing colour (the tile as
 *   written for the add), else a swap when a wild in the meld stands for exactly that
 *   tile, else null.
 */
export function meldMove(rules, meldTiles, tile, okey) {
  if (!tile) return null;
  const written = addFit(rules, meldTiles, tile, okey);
  if (written) return { type: "add", tile: written };
  if (!isWild(rules, tile, okey) && swapFits(meldTiles, tile)) return { type: "swap", tile };
  return null;
}

/**
 * Can `tile` be swapped into the meld for a wild (RULES.md §3 swap)?
 * @returns {boolean} true when some wild in the meld stands for exactly `tile`.
 */
export function swapFits(meldTiles, tile) {
  return meldTiles.some((t) => splitWild(t).represented === tile);
}

/** Strip wild assignments ("J=K7" -> "J") so a rearranged meld is read afresh. */
export function bare(tiles) {
  return tiles.map((t) => splitWild(t).physical);
}
