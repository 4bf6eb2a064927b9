// The reducer: server frames and local events in, a new state out, the old one untouched.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce } from "../../static/js/table/state.js";
import { RULES } from "./rules.mjs";
import { persist, savedFor } from "../../static/js/table/storage.js";
import { gesture, okeyView, ramiView, select, tableState } from "./tables.mjs";

const _ = null;
const DEAL = ["K9", "R3", "B9", "R1", "R2", "Y9", "R6", "B2", "Y12", "K4", "B13", "Y7", "K1", "R10"];

class MemoryStorage {
  constructor() { this.data = new Map(); }
  getItem(k) { return this.data.has(k) ? this.data.get(k) : null; }
  setItem(k, v) { this.data.set(k, String(v)); }
  removeItem(k) { this.data.delete(k); }
}

const fresh = (ruleset = "okey51", extra = {}) => initialState({ ruleset, rules: RULES[ruleset], tableId: "7", editsTable: ruleset === "rami", ...extra });
const snap = (state, view, saved = {}) => reduce(state, { type: "snapshot", version: view.version || 1, view, saved });

/** Everything in a state that can be compared (the rack and the working table as plain data). */
function plain(state) {
  return JSON.stringify({ ...state, rack: state.rack && state.rack.toJSON(), taken: state.rack && state.rack.taken,
    rami: state.rami && state.rami.toJSON() });
}

test("a fresh deal is laid out sorted, each meld apart; the round's storage key is remembered", () => {
  const state = snap(fresh(), okeyView({ rack: DEAL }));
  assert.equal(state.rackKey, "okeysite:rack:7:0:0");
  assert.deepEqual(state.rack.groups().slice(0, 2).map((g) => g.tiles), [["R1", "R2", "R3"], ["B9", "K9", "Y9"]]);
  assert.equal(state.rack.tiles().length, DEAL.length);
  assert.deepEqual(state.fresh, []);                 // the deal is not marked as drawn
});

test("the player's saved arrangement comes back, and is not sorted again", () => {
  const slots = ["K1", _, "R10", "R6"];
  const state = snap(fresh(), okeyView({ rack: ["K1", "R10", "R6"] }), { rack: { slots } });
  assert.deepEqual(state.rack.slots.slice(0, 4), slots);
  assert.equal(state.manualMoved, true);
});

test("a drawn tile lands apart and is marked until the player touches the rack", () => {
  let state = snap(fresh(), okeyView({ rack: DEAL, phase: "draw" }));
  state = snap(state, okeyView({ rack: [...DEAL, "Y3"], version: 2 }));
  const slot = state.rack.slots.indexOf("Y3");
  assert.deepEqual(state.fresh, [slot]);
  assert.deepEqual(reduce(state, { type: "touched" }).fresh, []);
  assert.deepEqual(gesture(state, { type: "tap_tile", src: "slot:0", at: 1 }).state.fresh, []);
});

test("reduce never changes the state it is given", () => {
  const events = [
    { type: "snapshot", version: 1, view: okeyView({ rack: DEAL, phase: "draw", discards: [[], [], [], ["B3"]] }), saved: {} },
    { type: "select", src: "slot:0" }, { type: "take", tile: "B3" }, { type: "rack_move", from: 0, to: 20 },
    { type: "sort", kind: "groups" }, { type: "face_down", slot: 1 }, { type: "sent", id: "c1", kind: "take" },
    { type: "ack", id: "c1", version: 2 }, { type: "error", id: "c2", code: "invalid_meld", message: "No." },
    { type: "round_end", version: 3, scores: [1, 2, 3, 4] }, { type: "close_scores" },
    { type: "chat", id: 1, user: "b", text: "hi" }, { type: "connection", status: "refused", code: 4403 },
  ];
  let state = fresh();
  for (const e of events) {
    const before = plain(state);
    const next = reduce(state, e);
    assert.equal(plain(state), before, e.type);
    state = next;
  }
  let rami = tableState(ramiView({ table: [["B3", "B4", "B5"]] }), ["R7", "R8", "R9"]);
  for (const e of [{ type: "rami_move", srcs: ["slot:0", "slot:1", "slot:2"], meld: 1 }, { type: "rami_to_rack", src: "meld:1:0", slot: 20 }, { type: "rami_undo" }]) {
    const before = plain(rami);
    const next = reduce(rami, e);
    assert.equal(plain(rami), before, e.type);
    rami = next;
  }
});

test("an ack clears the selection and the error line; an error shows the server's message", () => {
  let state = select(tableState(okeyView(), ["R1", "R2"]), "R1");
  state = reduce(state, { type: "sent", id: "c4", kind: "discard" });
  const refused = reduce(state, { type: "error", id: "c4", code: "not_your_turn", message: "Not your turn." });
  assert.equal(refused.notice, "Not your turn.");
  assert.deepEqual(refused.pending, {});
  assert.deepEqual(refused.sel, ["slot:0"]);             // the player may try again
  const accepted = reduce(reduce(refused, { type: "sent", id: "c5", kind: "discard" }), { type: "ack", id: "c5", version: 2 });
  assert.deepEqual([accepted.sel, accepted.notice, accepted.pending], [[], "", {}]);
});

test("a refused playable discard shows its penalty once the next snapshot carries it (okey17)", () => {
  const view = okeyView({ ruleset: "okey17", rack: ["R1", "R2"] });
  let state = reduce(tableState(view), { type: "error", id: "c1", code: "playable_discard", message: "That tile fits a meld." });
  state = snap(state, { ...view, penalty: [100, 0, 0, 0], version: 2 });
  assert.equal(state.notice, "That tile fits a meld. Penalty: 100 points.");
  assert.equal(state.penaltyWatch, null);
});

test("the round's score table shows until closed, and goes with the next round's first snapshot", () => {
  let state = reduce(tableState(okeyView(), ["R1"]), { type: "round_end", version: 5, scores: [0, 1, 2, 3], totals: [0, 1, 2, 3] });
  assert.deepEqual(state.lastScores.scores, [0, 1, 2, 3]);
  state = reduce(state, { type: "close_scores" });
  assert.equal(state.scoresClosed, true);
  state = snap(state, okeyView({ round_index: 1, rack: DEAL, version: 6 }));
  assert.equal(state.lastScores, null);
  assert.equal(state.rackKey, "okeysite:rack:7:1:0");
  // a page opened after the round ended finds the table in the view
  const late = snap(fresh(), okeyView({ rack: DEAL, round_end: { scores: [5, 6, 7, 8], round_index: 0 } }));
  assert.deepEqual(late.lastScores.scores, [5, 6, 7, 8]);
});

test("the first reason to stop wins: the server's suspension text before a 4403 close, then nothing is pending", () => {
  let state = reduce(tableState(okeyView(), ["R1"]), { type: "sent", id: "c1", kind: "draw" });
  state = reduce(state, { type: "error", code: "suspended", message: "Suspended until Monday: insults." });
  state = reduce(state, { type: "connection", status: "refused", code: 4403 });
  assert.equal(state.blocked, "Suspended until Monday: insults.");
  assert.deepEqual(state.pending, {});
  assert.equal(reduce(fresh(), { type: "connection", status: "refused", code: 4404 }).blocked, "This table does not exist any more.");
  assert.equal(snap(fresh(), okeyView({ status: "closed" })).blocked, "This table is closed.");
  assert.equal(reduce(fresh(), { type: "connection", status: "closed" }).conn, "closed");
});

test("chat lines count as unread while the panel is closed, the player's own never; a chat error answers the line its id names", () => {
  let state = fresh("okey51", { username: "ayse" });
  state = reduce(state, { type: "chat_history", lines: [{ id: 1, user: "b", text: "hello" }] });
  state = reduce(state, { type: "chat", id: 2, user: "b", text: "iyi oyunlar" });
  state = reduce(state, { type: "chat_sent" });
  state = reduce(state, { type: "chat", id: 3, user: "ayse", text: "sağol" });
  assert.deepEqual([state.chat.lines.length, state.chat.unread, state.chat.awaiting], [3, 1, false]);
  state = reduce(state, { type: "chat_panel", open: true });
  assert.equal(state.chat.unread, 0);
  state = reduce(state, { type: "chat", id: 4, user: "b", text: "!" });
  assert.equal(state.chat.unread, 0);
  state = reduce(reduce(state, { type: "chat_removed", id: 2 }), { type: "chat_sent", id: "chat2" });
  state = reduce(state, { type: "error", id: "chat2", code: "muted", message: "You are muted." });
  assert.deepEqual([state.chat.lines.map((l) => l.id), state.chat.status, state.notice], [[1, 3, 4], "You are muted.", ""]);
});

test("rami: the working table follows the server's until the player edits it in their turn, and a reload keeps the edit", () => {
  const storage = new MemoryStorage();
  const view = ramiView({ table: [["B3", "B4", "B5"]], rack: ["R7", "R8", "R9", "K2"] });
  let state = snap(fresh("rami"), view);
  assert.equal(state.rami.dirty, false);
  const before = state;
  state = reduce(state, { type: "rami_move", srcs: ["R7", "R8", "R9"].map((t) => `slot:${state.rack.slots.indexOf(t)}`), meld: 1 });
  persist(storage, before, state);
  assert.equal(state.rami.dirty, true);
  // a snapshot of the same turn (someone reconnected) keeps the edit
  const same = snap(state, { ...view, version: 2, players: view.players.map((p) => ({ ...p, connected: true })) });
  assert.equal(same.rami.melds.length, 2);
  // a reload mid-turn: a fresh page gets it back from storage, with the undo's start
  const reloaded = snap(fresh("rami"), view, savedFor(storage, "7", view));
  assert.deepEqual(reloaded.rami.toTable(RULES.rami), state.rami.toTable(RULES.rami));
  assert.deepEqual(reloaded.turnStart, state.turnStart);
  // once the turn passes the working table is the server's again and storage forgets it
  const passed = snap(same, { ...view, turn: 1, version: 3 });
  persist(storage, same, passed);
  assert.equal(passed.rami.dirty, false);
  assert.equal(passed.turnStart, null);
  assert.equal(savedFor(storage, "7", view).rami, null);
});

test("a phone turned: the rack follows the new width, nothing selected, and the state given is not changed", () => {
  let state = snap(fresh("okey51", { perRow: 8 }), okeyView({ rack: DEAL }));
  state = gesture(state, { type: "tap_tile", src: "slot:0", at: 1 }).state;
  const before = plain(state);
  const turned = reduce(state, { type: "screen", perRow: 13 });
  assert.equal(plain(state), before);
  assert.equal(turned.perRow, 13);
  assert.equal(turned.rack.perRow, 13);
  assert.deepEqual([...turned.rack.tiles()].sort(), [...DEAL].sort());
  assert.deepEqual(turned.sel, []);
  assert.equal(reduce(turned, { type: "screen", perRow: 13 }), turned);   // the same width: nothing changes
});
