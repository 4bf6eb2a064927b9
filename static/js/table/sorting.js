// Rack sorting (PLAYERS.md sort buttons "123", "777", "44"; RULES.md §6 assisted sort).
// Pure functions: tiles in, {melds, rest} out. Melds are taken from the real tiles
// first; then each wild completes the best near-meld left over (two tiles of a run
// or a group, or for the pairs sort a single tile), read with the meld reader.
import { compareTiles, face, isWild, playsAs, COLOURS } from "./tiles.js";
import { analyse } from "./melds.js";

function split(rules, tiles, okey) {
  const wilds = [], real = [];
  for (const t of tiles) (isWild(rules, t, okey) ? wilds : real).push(t);
  return { wilds, real };
}

function numberOf(t, okey) { return playsAs(t, okey)?.number; }
function colourOf(t, okey) { return playsAs(t, okey)?.colour; }

/** Take runs (>= 3 consecutive numbers, one colour), longest first. */
export function takeRuns(rules, tiles, okey) {
  const melds = [];
  let rest = [...tiles];
  for (const c of COLOURS) {
    for (;;) {
      const mine = rest.filter((t) => !isWild(rules, t, okey) && colourOf(t, okey) === c);
      const have = new Set(mine.map((t) => numberOf(t, okey)));
      let best = null;
      for (let s = 1; s <= 13; s++) {
        if (!have.has(s) || have.has(s - 1)) continue;
        let e = s;
        while (have.has(e + 1)) e++;
        const len = e - s + 1 + (rules.meld.ace_high && e === 13 && s > 1 && have.has(1) ? 1 : 0);
        if (len >= 3 && (!best || len > best.len)) best = { s, e, len };
      }
      if (!best) break;
      const nums = [];
      for (let n = best.s; n <= best.e; n++) nums.push(n);
      if (best.len > best.e - best.s + 1) nums.push(1);   // a 1 after 13 (ace_high): 12-13-1
      const meld = [];
      for (const n of nums) {
        const i = rest.findIndex((t) => !isWild(rules, t, okey) && colourOf(t, okey) === c && numberOf(t, okey) === n);
        meld.push(rest[i]);
        rest.splice(i, 1);
      }
      melds.push(meld);
    }
  }
  return { melds, rest };
}

/** Take groups (3-4 tiles of one number, different colours). */
export function takeGroups(rules, tiles, okey) {
  const melds = [];
  let rest = [...tiles];
  for (let n = 13; n >= 1; n--) {
    for (;;) {
      const meld = [];
      for (const c of COLOURS) {
        const t = rest.find((x) => !isWild(rules, x, okey) && colourOf(x, okey) === c && numberOf(x, okey) === n);
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
export function takePairs(rules, tiles, okey) {
  const melds = [], rest = [];
  const sorted = [...tiles].sort((a, b) => compareTiles(a, b, okey));
  for (let i = 0; i < sorted.length; i++) {
    const t = sorted[i];
    if (!isWild(rules, t, okey) && sorted[i + 1] === t) { melds.push([t, t]); i++; }
    else rest.push(t);
  }
  return { melds, rest };
}

/**
 * Sort a rack for one of the three buttons.
 * @param {"runs"|"groups"|"pairs"} kind what to look for first
 * @param {object} rules table_config.rules (meld rules: which tile is wild, a 1 after 13)
 * @param {string[]} tiles bare rack tiles
 * @param {string|null} okey
 * @returns {{melds: string[][], rest: string[]}} melds found, then the other
 *   tiles sorted by colour and number with the wilds last.
 */
export function sortRack(kind, rules, tiles, okey) {
  let out;
  if (kind === "pairs") out = takePairs(rules, tiles, okey);
  else {
    const [first, second] = kind === "groups" ? [takeGroups, takeRuns] : [takeRuns, takeGroups];
    const a = first(rules, tiles, okey);
    const b = second(rules, a.rest, okey);
    out = { melds: [...a.melds, ...b.melds], rest: b.rest };
  }
  out = useWilds(kind, rules, out, okey);
  out.rest.sort((a, b) => compareTiles(a, b, okey));
  return out;
}

/**
 * Let each wild in `rest` complete a meld: for runs/groups the highest-scoring pair of
 * leftover tiles that a wild turns into a 3-tile run or group (the kind asked for wins
 * a tie); for pairs the highest leftover single. The new melds are checked with
 * `analyse` and written in an order it reads (a run's wild in its gap).
 * @param {"runs"|"groups"|"pairs"} kind
 * @param {object} rules table_config.rules (meld rules: which tile is wild, a 1 after 13)
 * @param {{melds: string[][], rest: string[]}} sorted
 * @param {string|null} okey
 * @returns {{melds: string[][], rest: string[]}} wilds that found no use stay in rest
 */
export function useWilds(kind, rules, { melds, rest }, okey) {
  melds = [...melds];
  let left = [...rest];
  const wilds = left.filter((t) => isWild(rules, t, okey));
  left = left.filter((t) => !isWild(rules, t, okey));
  const unused = [];
  for (const w of wilds) {
    let best = null;
    const consider = (tiles, type) => {
      const info = analyse(rules, tiles, okey);
      if (!info.valid || info.type !== type) return;
      const bonus = (kind === "groups") === (type === "group") ? 0.5 : 0;
      const score = info.points + bonus;
      if (!best || score > best.score) best = { tiles, score };
    };
    if (kind === "pairs") {
      for (const t of left) if (playsAs(t, okey)) consider([t, w], "pair");
    } else {
      for (let i = 0; i < left.length; i++) {
        for (let j = i + 1; j < left.length; j++) {
          const [a, b] = [left[i], left[j]].sort((x, y) => (playsAs(x, okey)?.number ?? 0) - (playsAs(y, okey)?.number ?? 0));
          const fa = playsAs(a, okey), fb = playsAs(b, okey);
          if (!fa || !fb) continue;
          if (fa.colour === fb.colour && fb.number - fa.number === 2) consider([a, w, b], "run");
          else if (fa.colour === fb.colour && fb.number - fa.number === 1) {
            consider([a, b, w], "run");
            consider([w, a, b], "run");
          } else if (fa.number === fb.number && fa.colour !== fb.colour) consider([a, b, w], "group");
        }
      }
    }
    if (!best) { unused.push(w); continue; }
    melds.push(best.tiles);
    for (const t of best.tiles) if (t !== w) left.splice(left.indexOf(t), 1);
  }
  return { melds, rest: [...left, ...unused] };
}

export { face };
