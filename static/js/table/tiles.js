// Tile notation (RULES.md §1): "R5" = colour + number, "F" false joker,
// "J" rami joker, "R6=B5" a wild standing for B5 inside a meld.

export const COLOURS = "RBKY";

/** Split "R6=B5" -> {physical: "R6", represented: "B5"}; bare -> represented null. */
export function splitWild(text) {
  const i = text.indexOf("=");
  if (i < 0) return { physical: text, represented: null };
  return { physical: text.slice(0, i), represented: text.slice(i + 1) };
}

/** Parse a numbered tile "K13" -> {colour: "K", number: 13}; null for F/J/junk. */
export function face(tile) {
  const m = /^([RBKY])(\d{1,2})$/.exec(tile || "");
  if (!m) return null;
  const n = Number(m[2]);
  return n >= 1 && n <= 13 ? { colour: m[1], number: n } : null;
}

/** The okey for an indicator: next number in its colour, 13 -> 1 (RULES.md §1). */
export function okeyOf(indicator) {
  const f = face(indicator);
  return f ? `${f.colour}${(f.number % 13) + 1}` : null;
}

/**
 * Is a physical tile wild? Where jokers are wild (`rules.meld.joker_wild`, RULES.md §1)
 * "J"; else the okey's copies (view.okey). "F" is never wild (it plays as the okey's identity).
 * @param {{meld: {joker_wild: boolean}}} rules table_config.rules
 */
export function isWild(rules, tile, okey) {
  if (rules.meld.joker_wild) return tile === "J";
  return !!okey && tile === okey;
}

/**
 * The face a non-wild tile plays as: "F" -> the okey's face, else its own.
 * Returns {colour, number} or null.
 */
export function playsAs(tile, okey) {
  if (tile === "F") return face(okey);
  return face(tile);
}

/** Rack sort key: colour order RBKY, then number; F/J/okey last. */
export function sortKey(tile, okey) {
  const f = tile === okey ? null : face(tile);
  if (!f) return [COLOURS.length, tile === "F" ? 0 : 1];
  return [COLOURS.indexOf(f.colour), f.number];
}

/** Compare two tiles with sortKey (for Array.sort). */
export function compareTiles(a, b, okey) {
  const ka = sortKey(a, okey), kb = sortKey(b, okey);
  return ka[0] - kb[0] || ka[1] - kb[1];
}

/** Count tiles: list -> Map(tile -> count). */
export function countTiles(tiles) {
  const m = new Map();
  for (const t of tiles) m.set(t, (m.get(t) || 0) + 1);
  return m;
}
