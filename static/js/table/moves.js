// Words about the round's moves (view.moves, docs/protocol.md): one line per
// move for the history panel, the last-action line, and what a computer did for the
// player while they were away. Pure: a view in, translated strings and tile lists out
// (the views draw the tiles as tiles, never as codes like "Y11").
import { _, fmt } from "./i18n.js";
import { face, splitWild } from "./tiles.js";

/** A tile in words: "red 11", "joker", "false joker"; a wild in a meld "okey as blue 5" (rami "joker as …"). */
export function tileName(text) {
  if (!text) return "";
  const { physical, represented } = splitWild(text);
  if (represented) {
    // in a meld only a wild stands for another tile: the okey's copies, or rami's joker
    return fmt(_("%(tile)s as %(as)s"), { tile: physical === "J" ? _("joker") : _("okey"), as: tileName(represented) });
  }
  if (physical === "J") return _("joker");
  if (physical === "F") return _("false joker");
  const f = face(physical);
  if (!f) return physical;
  const colour = { R: _("red"), B: _("blue"), K: _("black"), Y: _("yellow") }[f.colour];
  return `${colour} ${f.number}`;
}

// who played the move, as the viewer reads it: you, the computer for you, another seat,
// or the computer for another seat's player (actor "timeout": a move time ran out, a
// disconnect, autoplay) — the others must not read it as that player's own move
function subject(view, move) {
  if (move.seat !== view.seat || view.seat === null || view.seat === undefined) {
    return move.actor === "timeout" ? "for" : "other";
  }
  return move.actor === "timeout" ? "auto" : "you";
}

const SENTENCES = () => ({
  draw: { you: _("You drew a tile"), auto: _("The computer drew a tile for you"), other: _("%(who)s drew a tile"),
    for: _("The computer drew a tile for %(who)s") },
  pass: { you: _("You passed: the pile is empty"), auto: _("The computer passed for you: the pile is empty"),
    other: _("%(who)s passed: the pile is empty"),
    for: _("The computer passed for %(who)s: the pile is empty") },
  take_discard: { you: _("You took the discard"), auto: _("The computer took the discard for you"), other: _("%(who)s took the discard"),
    for: _("The computer took the discard for %(who)s") },
  discard: { you: _("You discarded"), auto: _("The computer discarded for you"), other: _("%(who)s discarded"),
    for: _("The computer discarded for %(who)s") },
  refused: { you: _("Your discard was refused"), auto: _("The computer's discard for you was refused"),
    other: _("%(who)s's discard was refused"),
    for: _("The computer's discard for %(who)s was refused") },
  open: { you: _("You opened"), auto: _("The computer opened for you"), other: _("%(who)s opened"),
    for: _("The computer opened for %(who)s") },
  meld: { you: _("You laid a meld"), auto: _("The computer laid a meld for you"), other: _("%(who)s laid a meld"),
    for: _("The computer laid a meld for %(who)s") },
  add: { you: _("You added a tile"), auto: _("The computer added a tile for you"), other: _("%(who)s added a tile"),
    for: _("The computer added a tile for %(who)s") },
  swap: { you: _("You swapped a wild"), auto: _("The computer swapped a wild for you"), other: _("%(who)s swapped a wild"),
    for: _("The computer swapped a wild for %(who)s") },
  play: { you: _("You played on the table"), auto: _("The computer played on the table for you"), other: _("%(who)s played on the table"),
    for: _("The computer played on the table for %(who)s") },
});

function kindOf(move) {
  if (move.type === "draw" && move.pass) return "pass";
  if (move.type === "discard" && move.result && move.result !== "ok") return "refused";
  return move.type;
}

/**
 * One move as the viewer reads it.
 * @param {object} view the snapshot's view (seat, players)
 * @param {object} move one of view.moves: {number, seat, actor, type, result, penalties, tile?, melds?, tiles?, laid?, then?}
 * @param {(view: object, seat: number) => string} nameOf a seat's display name (text.js playerName)
 * @returns {{text: string, tiles: string[][], penalties: object[], subject: "you"|"auto"|"other"|"for", actor: string}|null}
 *   `tiles`: the public tiles of the move, one list per meld (a discard or a take: one list
 *   of one tile); null for a move type the client does not know.
 */
export function moveLine(view, move, nameOf) {
  const kind = kindOf(move);
  const s = SENTENCES()[kind];
  if (!s) return null;
  const who = subject(view, move);
  const text = fmt(s[who], { who: nameOf(view, move.seat) });
  let tiles = [];
  if (move.type === "open") tiles = move.melds || [];
  else if (move.type === "meld") tiles = move.tiles ? [move.tiles] : [];
  else if (move.type === "play") tiles = move.laid && move.laid.length ? [move.laid] : [];
  else if (move.tile) tiles = [[move.tile]];
  if (move.type === "take_discard" && move.then) {
    const then = move.then;
    if (then.melds) tiles = tiles.concat(then.melds);
    else if (then.tiles) tiles = tiles.concat([then.tiles]);
  }
  return { text, tiles, penalties: move.penalties || [], subject: who, actor: move.actor || "human" };
}

/**
 * The viewer's own moves a computer played since the viewer last played themselves
 * (actor "timeout": a move time ran out, autoplay, a disconnect at an online table;
 * a solo table waits for its player, so only its move time gives a computer a turn), oldest first.
 * @param {object} view the snapshot's view
 * @returns {object[]} moves of view.moves; [] for a spectator
 */
export function playedForMe(view) {
  const moves = (view && view.moves) || [];
  if (!view || view.seat === null || view.seat === undefined) return [];
  const out = [];
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.seat !== view.seat) continue;
    if (m.actor !== "timeout") break;
    out.unshift(m);
  }
  return out;
}

/**
 * A short summary of moves the computer played for the viewer: "drew a tile, discarded
 * red 5" as whole sentences joined, for the banner and the welcome back note.
 * @param {object} view
 * @param {object[]} moves from playedForMe
 * @param {(view: object, seat: number) => string} nameOf
 * @returns {string}
 */
export function summary(view, moves, nameOf) {
  return moves.map((m) => {
    const line = moveLine(view, m, nameOf);
    if (!line) return "";
    const named = line.tiles.flat().map(tileName).join(", ");
    return named ? fmt(_("%(move)s: %(tiles)s"), { move: line.text, tiles: named }) : line.text;
  }).filter(Boolean).join(" · ");
}
