// What every ruleset family's controller shares. A controller is pure: it reads the
// state (state.js) and a gesture from the views, and answers an outcome
//   {events: [local events for the reducer], send: {action, kind} | null}
// where `action` is a RULES.md §7 action without seat and `kind` names it for the ack.
//
// Gestures (the views send them; `at` is the time of a tap in ms):
//   {type: "draw" | "take" | "open" | "open_pairs" | "lay" | "discard" | "submit" | "undo"}
//   {type: "sort", kind: "runs"|"groups"|"pairs"}
//   {type: "tap_tile", src, at}          a rack tile ("slot:i") or a working-table tile
//   {type: "tap_slot", slot}             an empty rack slot
//   {type: "tap_meld", meld}             a table meld (okey: its id; rami: its index)
//   {type: "tap_meld_tile", meld, index, at}   a tile of the working table (rami)
//   {type: "tap_area", owner}            a player's area of the table (okey17 pairs)
//   {type: "tap_new_meld"}               the working table's "New meld" (rami)
//   {type: "swap", meld}                 a meld's swap button (okey)
//   {type: "drop", src, target, index}   a drag ended on a data-drop target
import { _ } from "../i18n.js";

export const NOTHING = Object.freeze({ events: [], send: null });

/** An outcome of local events only. */
export const events = (...list) => ({ events: list, send: null });

/** An outcome that sends `action` (after the local events `list`). */
export const sending = (action, kind = action.type, ...list) => ({ events: list, send: { action, kind } });

/** An outcome that only shows `text` on the error line. */
export const notice = (text) => events({ type: "notice", text });

/** `outcome` with `first` before its events. */
export const after = (first, outcome) => ({ events: [first, ...outcome.events], send: outcome.send });

/** A drop touches the rack (the drawn tile is no longer marked) and ends the selection. */
export function dropped(outcome) {
  return { events: [{ type: "touched" }, ...outcome.events, { type: "clear_selection" }], send: outcome.send };
}

/** Select or unselect the tapped tile. */
export function selectTile(src, at) {
  return events({ type: "tapped", key: src, at }, { type: "select", src });
}

/**
 * A tap on an empty rack slot moves the last selected tile there: a rack tile moves;
 * any other source is up to the family (`elsewhere(src)` returns the events).
 */
export function tapSlot(state, slot, elsewhere = () => []) {
  if (!state.rack || state.rack.slots[slot] !== null) return NOTHING;
  const chosen = state.sel[state.sel.length - 1];
  if (!chosen) return NOTHING;
  const moved = chosen.startsWith("slot:") ? [{ type: "rack_move", from: Number(chosen.slice(5)), to: slot }] : elsewhere(chosen);
  return events(...moved, { type: "clear_selection" });
}

/** The gestures no family handles differently. */
export function common(state, g) {
  if (g.type === "sort") return state.rack ? events({ type: "sort", kind: g.kind }) : NOTHING;
  return NOTHING;
}

/** The action bar's sort buttons for `kinds` (PLAYERS.md: "123", "777", "44"). */
export function sortControls(kinds) {
  const all = {
    runs: { id: "sort-runs", label: "123", title: _("Sort the rack by runs") },
    groups: { id: "sort-groups", label: "777", title: _("Sort the rack by groups") },
    pairs: { id: "sort-pairs", label: "44", title: _("Sort the rack by pairs") },
  };
  return kinds.map((kind) => ({ ...all[kind], cls: "sort", gesture: { type: "sort", kind } }));
}

/** The gap between the turn's buttons and the sort buttons. */
export const SPACER = Object.freeze({ spacer: true });
