// The reducer's part for a table the player rearranges during the turn (rami, RULES.md
// §5): the working table follows the server's table until the player edits it in their
// turn, survives a reload mid-turn (storage.js saves it with the turn's fingerprint), and
// the undo puts the table and the rack back as they were at the start of the turn.
import { RamiTable } from "./rami.js";
import { myTurn, serverRack } from "./selectors.js";
import { turnPrint } from "./storage.js";

// a position past the end of any meld: RamiTable.insert appends there
const END = 99;

/**
 * The working table after a snapshot: a fresh one at the start of the viewer's turn and
 * whenever they are not editing (the saved one when a reload comes back to the same turn).
 * @param {object} s the snapshot's new state (its own rack copy, the new view)
 * @param {object|null} prev the previous view
 * @param {object|null} saved what storage.persist wrote for this round and seat
 * @returns {object} the state with `rami` and `turnStart` set
 */
export function syncWorkingTable(s, prev, saved) {
  const v = s.view;
  const mine = myTurn(s);
  const sameTurn = prev && prev.turn === v.turn && prev.seat === v.seat && (prev.round_index ?? 0) === (v.round_index ?? 0);
  const turnBegan = mine && !(sameTurn && s.rami);
  let next = s;
  if (!mine || turnBegan || !s.rami || !s.rami.dirty) {
    next = { ...s, turnStart: turnBegan ? null : s.turnStart };
    const restored = mine ? restore(next, saved) : null;
    next = restored || { ...next, rami: new RamiTable(v.table || []) };
  }
  return mine ? next : { ...next, turnStart: null };
}

/** The saved working table of this very turn, with its tiles still in the rack, or null. */
function restore(s, saved) {
  if (!saved || saved.print !== turnPrint(s.view)) return null;
  const rami = RamiTable.fromJSON(saved.table);
  if (!rami || !rami.dirty) return null;
  const rack = [...(s.view.rack || [])];
  for (const t of rami.fromRack()) {
    const i = rack.indexOf(t);
    if (i < 0) return null;
    rack.splice(i, 1);
  }
  const turnStart = Array.isArray(saved.start)
    ? { slots: saved.start.map((t) => (typeof t === "string" ? t : null)) } : s.turnStart;
  return { ...s, rami, turnStart };
}

// take higher positions first so earlier indexes stay valid while removing
function bySourceDesc(a, b) {
  const pa = a.split(":").map(Number), pb = b.split(":").map(Number);
  return (pb[1] - pa[1]) || ((pb[2] || 0) - (pa[2] || 0));
}

/** Remove a source ("slot:i" | "meld:m:k") from the rack or the table; its item or null. */
function takeSource(rack, rami, src) {
  const p = src.split(":").map((x, i) => (i ? Number(x) : x));
  if (p[0] === "slot") {
    const t = rack.slots[p[1]];
    if (!t) return null;
    rack.slots[p[1]] = null;
    return { t, fromRack: true };
  }
  if (!rami.melds[p[1]] || !rami.melds[p[1]].tiles[p[2]]) return null;
  return rami.take(p[1], p[2]);
}

/**
 * {srcs, meld, at?, before?}: move the sources (rack slots, table tiles) into meld `meld`
 * (a new meld when meld is the number of melds), in selection order: before the tile now
 * at `before`, else from position `at`, else at the end.
 */
function ramiMove(state, { srcs, meld, at = null, before = null }) {
  if (!state.rami || !state.rack) return state;
  const rack = state.rack.clone();
  const rami = state.rami.clone();
  const target = rami.melds[meld] || null;
  const anchor = target && before !== null ? target.tiles[before] : null;
  const items = [...srcs].sort(bySourceDesc).map((src) => takeSource(rack, rami, src)).filter(Boolean).reverse();
  if (!items.length) return state;
  const m = target ? rami.melds.indexOf(target) : rami.melds.length;
  let pos = anchor ? target.tiles.indexOf(anchor) : at ?? END;
  if (pos < 0) pos = END;
  for (const it of items) rami.insert(m, pos++, it);
  rami.prune();
  return { ...state, rack, rami, sel: [] };
}

/** {src: "meld:m:k", slot|null}: a tile laid from the rack this turn goes back (to `slot` when free). */
function toRack(state, { src, slot = null }) {
  const [, m, k] = src.split(":").map(Number);
  const item = state.rami && state.rami.melds[m] ? state.rami.melds[m].tiles[k] : null;
  if (!item || !item.fromRack) return state;    // table tiles never go to a rack (RULES.md §5)
  const rami = state.rami.clone();
  rami.take(m, k);
  rami.prune();
  const rack = state.rack.clone();
  if (slot !== null && rack.slots[slot] === null) rack.slots[slot] = item.t;
  else rack.reconcile(serverRack({ ...state, rami }), state.pendingTake);
  return { ...state, rami, rack };
}

/** The table as the server sent it and the rack as it was at the start of the turn. */
function undo(state) {
  if (!state.view || !state.rack) return state;
  const rami = new RamiTable(state.view.table || []);
  const rack = state.rack.clone();
  if (state.turnStart) rack.restore(state.turnStart.slots, state.view.rack || []);
  else rack.reconcile(serverRack({ ...state, rami }), state.pendingTake);
  return { ...state, rami, rack, sel: [], notice: "" };
}

export const ramiEvents = {
  rami_move: ramiMove,
  rami_to_rack: toRack,
  rami_undo: undo,
};
