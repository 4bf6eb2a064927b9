// Client-side meld reading (RULES.md §2). Informational only: the server judges.
// Used to show each proposed meld's points, mark invalid melds while arranging,
// and write wilds as physical=represented (RULES.md §1) before sending.
import { face, isWild, playsAs, splitWild, COLOURS } from "./tiles.js";

const INVALID = Object.freeze({ valid: false });

/** Turn meld tiles into items: {text, physical, wild, face (null = free wild)}. */
function items(ruleset, tiles, okey) {
  return tiles.map((text) => {
    const { physical, represented } = splitWild(text);
    const wild = isWild(ruleset, physical, okey);
    const f = wild ? (represented ? face(represented) : null) : playsAs(physical, okey);
    return { text, physical, wild, face: f };
  });
}

function writeWild(ruleset, item, rep) {
  if (!item.wild || item.face) return item.text;          // ordinary or already fixed
  if (ruleset !== "rami" && rep === item.physical) return item.physical;  // okey as itself
  return `${item.physical}=${rep}`;
}

function runPoints(ruleset, numbers) {
  if (ruleset !== "okey17") return numbers.reduce((a, b) => a + b, 0);
  const top = [...numbers].sort((a, b) => b - a).slice(0, 3);
  return top[1] + (numbers.length - 3);          // median of the three highest + 1 per extra tile
}

/** Read `its` as a run in the order given, ascending or descending; null if it is not one. */
function readRunInOrder(ruleset, its) {
  const n = its.length;
  if (n < 3 || n > 13) return null;
  const faced = its.map((it, i) => [it, i]).filter(([it]) => it.face);
  if (!faced.length) return null;                // D-4: at least one real tile
  const colour = faced[0][0].face.colour;
  if (faced.some(([it]) => it.face.colour !== colour)) return null;
  const maxP = ruleset === "okey51" ? 14 : 13;   // okey51: 1 may follow 13
  const [first, i0] = faced[0];
  const v = first.face.number;
  const tries = [[v - i0, 1], [v + i0, -1]];     // as laid, left to right or right to left
  if (ruleset === "okey51" && v === 1) tries.push([14 - i0, 1], [14 + i0, -1]);
  for (const [start, dir] of tries) {
    const ps = its.map((_it, k) => start + dir * k);
    if (ps.some((p) => p < 1 || p > maxP)) continue;
    const nums = ps.map((p) => (p === 14 ? 1 : p));
    if (its.some((it, k) => it.face && it.face.number !== nums[k])) continue;
    const written = its.map((it, k) => writeWild(ruleset, it, `${colour}${nums[k]}`));
    return { valid: true, type: "run", points: runPoints(ruleset, nums), written };
  }
  return null;
}

/**
 * Try to read `its` as a run: first in the order laid (so a wild takes the place
 * the player gave it), then with the real tiles sorted and the wilds filling the
 * gaps and then the ends (RULES.md §2: validity does not depend on the order).
 * The result's `written` is in the order of `its`.
 */
function readRun(ruleset, its) {
  const direct = readRunInOrder(ruleset, its);
  if (direct) return direct;
  const real = its.filter((it) => it.face);
  const free = its.filter((it) => !it.face);
  if (!real.length || its.length < 3) return null;
  const highs = ruleset === "okey51" ? [false, true] : [false];   // okey51: read 1 as 14
  for (const oneHigh of highs) {
    const num = (it) => (oneHigh && it.face.number === 1 ? 14 : it.face.number);
    const sorted = [...real].sort((a, b) => num(a) - num(b));
    const layout = [sorted[0]];
    let wilds = [...free];
    for (let k = 1; k < sorted.length; k++) {
      let gap = num(sorted[k]) - num(sorted[k - 1]) - 1;
      while (gap-- > 0 && wilds.length) layout.push(wilds.shift());
      layout.push(sorted[k]);
    }
    const maxP = ruleset === "okey51" ? 14 : 13;
    let top = num(sorted[sorted.length - 1]);
    while (wilds.length && top < maxP) { layout.push(wilds.shift()); top++; }
    while (wilds.length) layout.unshift(wilds.shift());
    const r = readRunInOrder(ruleset, layout);
    if (r) {
      const byItem = new Map(layout.map((it, k) => [it, r.written[k]]));
      return { ...r, written: its.map((it) => byItem.get(it)) };
    }
  }
  return null;
}

/** Try to read `its` as a group (3-4 tiles, one number, different colours). */
function readGroup(ruleset, its) {
  const n = its.length;
  if (n < 3 || n > 4) return null;
  const faced = its.filter((it) => it.face);
  if (!faced.length) return null;
  const number = faced[0].face.number;
  if (faced.some((it) => it.face.number !== number)) return null;
  const used = faced.map((it) => it.face.colour);
  if (new Set(used).size !== used.length) return null;
  const missing = [...COLOURS].filter((c) => !used.includes(c));
  const written = its.map((it) => (it.face ? it.text : writeWild(ruleset, it, `${missing.shift()}${number}`)));
  const points = ruleset === "okey17" ? number + (n === 4 ? 1 : 0) : number * n;
  return { valid: true, type: "group", points, written };
}

/** Pairs (okey rulesets): two identical tiles; a wild pairs with anything. */
function readPair(ruleset, its, okey) {
  if (ruleset === "rami" || its.length !== 2) return null;
  const [a, b] = its;
  let number, written;
  if (a.face && b.face) {
    if (a.face.colour !== b.face.colour || a.face.number !== b.face.number) return null;
    number = a.face.number;
    written = [a.text, b.text];
  } else if (a.face || b.face) {
    const real = a.face ? a : b;
    const rep = `${real.face.colour}${real.face.number}`;
    number = real.face.number;
    written = [a, b].map((it) => (it.face ? it.text : writeWild(ruleset, it, rep)));
  } else {
    const f = face(okey);                         // the two okeys: a pair of okeys
    if (!f) return null;
    number = f.number;
    written = [a.physical, b.physical];
  }
  return { valid: true, type: "pair", points: ruleset === "okey17" ? number : 2 * number, written };
}

/**
 * Read a proposed meld in the order the tiles lie on the rack or table.
 *
 * @param {string} ruleset "okey51" | "okey17" | "rami"
 * @param {string[]} tiles bare rack tiles, or table tiles ("R6=B5" keeps its place)
 * @param {string|null} okey the wild tile (view.okey); ignored for rami
 * @returns {{valid: false} | {valid: true, type: "run"|"group"|"pair", points: number, written: string[]}}
 *   `written` is the tiles as the server wants them: free wilds as physical=represented.
 *   Ambiguous wild readings take the first valid one: run (ascending, then okey17
 *   descending), then group. Points follow RULES.md §2.
 */
export function analyse(ruleset, tiles, okey) {
  if (!tiles || !tiles.length) return INVALID;
  const its = items(ruleset, tiles, okey);
  if (its.length === 2) return readPair(ruleset, its, okey) || INVALID;
  return readRun(ruleset, its) || readGroup(ruleset, its) || INVALID;
}

/**
 * Where `tile` can be added to a table meld (one end of a run, a missing colour of
 * a group; RULES.md §3). Pairs never grow.
 * @returns {string|null} the tile as written for an `add` action (a wild gets
 *   "=represented"), or null when it does not fit.
 */
export function addFit(ruleset, meldTiles, tile, okey) {
  // on the table a bare wild stands for itself (RULES.md §1): fix it so it is not read as free
  meldTiles = meldTiles.map((t) => (isWild(ruleset, t, okey) ? `${t}=${t}` : t));
  const before = analyse(ruleset, meldTiles, okey);
  if (!before.valid || before.type === "pair") return null;
  const tries = [[[...meldTiles, tile], meldTiles.length], [[tile, ...meldTiles], 0]];
  for (const [tiles, at] of tries) {
    const after = analyse(ruleset, tiles, okey);
    if (after.valid && after.type === before.type) {
      const w = after.written[at];
      return ruleset !== "rami" && w === `${tile}=${tile}` ? tile : w;
    }
  }
  return null;
}

/**
 * What a tap on a table meld with `tile` selected should send (RULES.md §3 add and swap).
 * @param {string} ruleset
 * @param {string[]} meldTiles the meld as the table writes it
 * @param {string} tile the bare rack tile
 * @param {string|null} okey
 * @returns {{type: "add", tile: string} | {type: "swap", tile: string} | null}
 *   an add when the tile fits an end of a run or a group's missing colour (the tile as
 *   written for the add), else a swap when a wild in the meld stands for exactly that
 *   tile, else null.
 */
export function meldMove(ruleset, meldTiles, tile, okey) {
  if (!tile) return null;
  const written = addFit(ruleset, meldTiles, tile, okey);
  if (written) return { type: "add", tile: written };
  if (!isWild(ruleset, tile, okey) && swapFits(meldTiles, tile)) return { type: "swap", tile };
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
