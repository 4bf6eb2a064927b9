// Table states for the reducer and controller tests: a view (docs/protocol.md §5) is
// reduced into a state as the app does it, with the rack arranged slot by slot, and a
// gesture's local events are applied the way the app applies them.
import { initialState, reduce } from "../../static/js/table/state.js";
import { controllerFor } from "../../static/js/table/controllers/index.js";
import { RULES } from "./rules.mjs";

export const players = [{ name: "ayse" }, { name: null, computer: "easy" }, { name: "mehmet" }, { name: null, computer: "strong" }];

/** An okey view: seat 0 to play (phase "play"), indicator R5 (okey R6), nothing on the table. */
export function okeyView(extra = {}) {
  return { ruleset: "okey51", options: {}, seat: 0, turn: 0, phase: "play", status: "playing", round_index: 0,
    rack: [], rack_counts: [15, 14, 14, 14], pile_count: 40, discards: [[], [], [], []], table: [],
    indicator: "R5", okey: "R6", opened: ["no", "no", "no", "no"], penalty: [0, 0, 0, 0], threshold: 51,
    players, totals: [0, 0, 0, 0], ...extra };
}

/** A rami view: seat 0 to play. */
export function ramiView(extra = {}) {
  return { ruleset: "rami", options: {}, seat: 0, turn: 0, phase: "play", status: "playing", round_index: 0,
    rack: [], rack_counts: [14, 14, 14, 14], pile_count: 50, table: [], opened: ["no", "no", "no", "no"],
    penalty: [0, 0, 0, 0], threshold: 30, players, totals: [0, 0, 0, 0], ...extra };
}

/**
 * The state after the first snapshot of `view`, the rack laid out as `slots` (13 per
 * row; null = a gap; the view's rack is the slots' tiles unless it says otherwise).
 */
export function tableState(view, slots = null, opts = {}) {
  const controller = controllerFor(view.ruleset);
  const state = initialState({ ruleset: view.ruleset, rules: RULES[view.ruleset], tableId: "7", editsTable: controller.editsTable, ...opts });
  const rack = slots ? [...slots, ...new Array(Math.max(0, 26 - slots.length)).fill(null)] : null;
  const v = rack && !view.rack.length ? { ...view, rack: rack.filter(Boolean) } : view;
  return reduce(state, { type: "snapshot", version: 1, view: v, saved: { rack: rack ? { slots: rack } : null, rami: null } });
}

/** The slot holding `tile` (the first one). */
export const slotOf = (state, tile) => state.rack.slots.indexOf(tile);

/** Run a gesture: returns {state (its events applied), send}. */
export function gesture(state, g) {
  const { events, send } = controllerFor(state.ruleset).gesture(state, g);
  return { state: events.reduce(reduce, state), send, events };
}

/** Tap the rack tiles `tiles` (a tile, or a slot number) in order, selecting them. */
export function select(state, ...tiles) {
  let at = state.lastTap.at;     // taps far apart: never a double tap
  for (const t of tiles) {
    const slot = typeof t === "number" ? t : slotOf(state, t);
    state = gesture(state, { type: "tap_tile", src: `slot:${slot}`, at: (at += 1000) }).state;
  }
  return state;
}
