// Rack sorting (PLAYERS.md sort buttons "123", "777", "44"; RULES.md §6 assisted sort).
// Pure functions: tiles in, {melds, rest} out. Wilds are left in `rest` for the
// player to place (the client never guesses where a wild is best used).
import { compareTiles, face, isWild, playsAs, COLOURS } from "./tiles.js";

function split(ruleset, tiles, okey) {
  const wilds = [], real = [];
  for (const t of tiles) (isWild(ruleset, t, okey) ? wilds : real).push(t);
  return { wilds, real };
}

function numberOf(t, okey) { return playsAs(t, okey)?.number; }
function colourOf(t, okey) { return playsAs(t, okey)?.colour; }

/** Take runs (>= 3 consecutive numbers, one colour), longest first. */
export function takeRuns(ruleset, tiles, okey) {
  const melds = [];
  let rest = [...tiles];
  for (const c of COLOURS) {
    for (;;) {
      const mine = rest.filter((t) => !isWild(ruleset, t, okey) && colourOf(t, okey) === c);
      const have = new Set(mine.map((t) => numberOf(t, okey)));
      let best = null;
      for (let s = 1; s <= 13; s++) {
        if (!have.has(s) || have.has(s - 1)) continue;
        let e = s;
        while (have.has(e + 1)) e++;
        const len = e - s + 1 + (ruleset === "okey51" && e === 13 && s > 1 && have.has(1) ? 1 : 0);
        if (len >= 3 && (!best || len > best.len)) best = { s, e, len };
      }
      if (!best) break;
      const nums = [];
      for (let n = best.s; n <= best.e; n++) nums.push(n);
      if (best.len > best.e - best.s + 1) nums.push(1);   // okey51: 12-13-1
      const meld = [];
      for (const n of nums) {
        const i = rest.findIndex((t) => !isWild(ruleset, t, okey) && colourOf(t, okey) === c && numberOf(t, okey) === n);
        meld.push(rest[i]);
        rest.splice(i, 1);
      }
      melds.push(meld);
    }
  }
  return { melds, rest };
}

/** Take groups (3-4 tiles of one number, different colours). */
export function takeGroups(ruleset, tiles, okey) {
  const melds = [];
  let rest = [...tiles];
  for (let n = 13; n >= 1; n--) {
    for (;;) {
      const meld = [];
      for (const c of COLOURS) {
        const t = rest.find((x) => !isWild(ruleset, x, okey) && colourOf(x, okey) === c && numberOf(x, okey) === n);
        if (t) meld.push(t);
      }
      if (meld.length < 3) break;
      for (const t of meld) rest.splice(rest.indexOf(t), 1);
      melds.push(meld);
    }
  }
  return { melds, rest };
}

/** Take pairs of identical tiles (okey rulesets). */
export function takePairs(ruleset, tiles, okey) {
  const melds = [], rest = [];
  const sorted = [...tiles].sort((a, b) => compareTiles(a, b, okey));
  for (let i = 0; i < sorted.length; i++) {
    const t = sorted[i];
    if (!isWild(ruleset, t, okey) && sorted[i + 1] === t) { melds.push([t, t]); i++; }
    else rest.push(t);
  }
  return { melds, rest };
}

/**
 * Sort a rack for one of the three buttons.
 * @param {"runs"|"groups"|"pairs"} kind what to look for first
 * @param {string} ruleset
 * @param {string[]} tiles bare rack tiles
 * @param {string|null} okey
 * @returns {{melds: string[][], rest: string[]}} melds found, then the other
 *   tiles sorted by colour and number with the wilds last.
 */
export function sortRack(kind, ruleset, tiles, okey) {
  let out;
  if (kind === "pairs") out = takePairs(ruleset, tiles, okey);
  else {
    const [first, second] = kind === "groups" ? [takeGroups, takeRuns] : [takeRuns, takeGroups];
    const a = first(ruleset, tiles, okey);
    const b = second(ruleset, a.rest, okey);
    out = { melds: [...a.melds, ...b.melds], rest: b.rest };
  }
  out.rest.sort((a, b) => compareTiles(a, b, okey));
  return out;
}

export { face };
