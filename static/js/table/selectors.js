// Facts derived from the table state (state.js), each answered in one place for the
// reducer, the controllers and the views. Pure: a state in, a value out.
import { analyse } from "./melds.js";

// table statuses after the last round (the server's Table.Status and older spellings)
const FINISHED = new Set(["finished", "over", "done", "ended", "complete", "completed"]);

/** Does the viewer hold a seat (false for a spectator or before the first snapshot)? */
export function seated(state) {
  const v = state.view;
  return !!v && v.seat !== null && v.seat !== undefined;
}

/** Has the round in the view ended (a result, the score table, or the match is over)? */
export function roundOver(state) {
  const v = state.view;
  return !!(v && (v.result || v.round_end || FINISHED.has(v.status)));
}

/** Is it the viewer's turn in a round still being played? */
export function myTurn(state) {
  return seated(state) && state.view.turn === state.view.seat && !roundOver(state);
}

/**
 * Is an action of this browser still unanswered (sent, or acknowledged but its snapshot
 * not yet here)? Another one sent now would carry an old version and be refused.
 */
export function awaitingAnswer(state) {
  return Object.keys(state.pending).length > 0 || state.ackedVersion !== null;
}

/**
 * okey: is the viewer the round's first player, in the turn that starts the round? They
 * were dealt one tile more and skip the draw (RULES.md §1, §3): no other seat has moved
 * yet in the round's moves (view.moves, from its first move on). False when the view
 * cannot tell (no moves, or the first move already out of the window).
 */
export function startsRound(state) {
  const v = state.view;
  if (!myTurn(state) || v.phase !== "play" || !Array.isArray(v.moves)) return false;
  return (!v.moves.length || v.moves[0].number === 1) && v.moves.every((m) => m.seat === v.seat);
}

/** Has the match been dealt? (A table still open has no rack counts.) */
export function started(state) {
  const v = state.view;
  return !!v && Array.isArray(v.rack_counts) && v.status !== "open" && v.status !== "closed";
}

/** Is the match over (a `match_end` frame, the table's status, or the last round's table)? */
export function matchOver(state) {
  const v = state.view;
  return !!(state.matchEnded || (v && (FINISHED.has(v.status) || v.match_over || (v.round_end && v.round_end.match_over))));
}

/** The wild tile of an okey round (view.okey), or null (rami, before the deal). */
export function okeyTile(state) {
  return (state.view && state.view.okey) || null;
}

/** Number of seats at the table: from the view, else the page's table_config, else 4. */
export function seatCount(state) {
  const v = state.view || {};
  return (v.rack_counts || v.players || []).length || state.players || 4;
}

/** How the viewer opened: "no", "melds", "pairs" (okey) or "yes" (rami); undefined unseated. */
export function myOpening(state) {
  return seated(state) ? (state.view.opened || [])[state.view.seat] : undefined;
}

/** The seat before the viewer's, whose last discard the viewer may take (RULES.md §1). */
export function prevSeat(state) {
  const n = seatCount(state);
  return ((state.view.seat ?? 0) + n - 1) % n;
}

/** The tile on top of the previous seat's discard pile, or null. */
export function prevTop(state) {
  const d = (state.view.discards || [])[prevSeat(state)] || [];
  return d.length ? d[d.length - 1] : null;
}

/** Rack slot indexes among the selected sources, in the order they were selected. */
export function selectedSlots(state) {
  return state.sel.filter((s) => s.startsWith("slot:")).map((s) => Number(s.slice(5)));
}

/**
 * The rack's gap-separated groups read as melds (RULES.md §6: the melds the client
 * proposes): [{slots, tiles, info}] with `info` from melds.js `analyse`.
 */
export function rackGroups(state) {
  if (!state.rack) return [];
  return state.rack.groups().map((g) => ({ ...g, info: analyse(state.rules, g.tiles, okeyTile(state)) }));
}

/**
 * The view's rack less the tiles the turn's working table took from it (rami): the
 * tiles the rack should show. Duplicates are kept.
 */
export function serverRack(state) {
  const server = [...((state.view && state.view.rack) || [])];
  for (const t of state.rami ? state.rami.fromRack() : []) {
    const i = server.indexOf(t);
    if (i >= 0) server.splice(i, 1);
  }
  return server;
}
