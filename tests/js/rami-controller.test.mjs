// The rami controller: the turn's working table is arranged by taps and drops, and goes
// out whole as one `play` (RULES.md §5, §7).
import { test } from "node:test";
import assert from "node:assert/strict";
import { reduce } from "../../static/js/table/state.js";
import { controllerFor } from "../../static/js/table/controllers/index.js";
import { gesture, ramiView, select, slotOf, tableState } from "./tables.mjs";
import { RULES } from "./rules.mjs";

const _ = null;
const TABLE = [["B3", "B4", "B5", "B6"], ["K10", "J=R10", "Y10"]];

// the player has laid the initial meld (before it the table cannot be touched, RULES.md §5)
function turn(extra = {}) {
  return tableState(ramiView({ table: TABLE, opened: ["yes", "no", "no", "no"], ...extra }), ["K4", "Y4", "J", _, "R7", "R8", "R9", _, "B2", _, "K12"]);
}

test("rack tiles tapped into a new meld, then Play sends the whole table, the joker written J=X", () => {
  let state = select(turn(), "K4", "Y4", "J");
  state = gesture(state, { type: "tap_new_meld" }).state;
  assert.equal(state.rami.melds.length, 3);
  assert.deepEqual(state.rack.tiles(), ["R7", "R8", "R9", "B2", "K12"]);
  assert.deepEqual(state.sel, []);
  const { send } = gesture(state, { type: "submit" });
  assert.deepEqual(send, { action: { type: "play", table: [...TABLE, ["K4", "Y4", "J=R4"]] }, kind: "play" });
});

test("a tile tapped on the table takes the selected rack tiles in before it; a tap on a meld adds them at its end", () => {
  let state = gesture(select(turn(), "B2"), { type: "tap_meld_tile", meld: 0, index: 0, at: 5000 }).state;
  assert.deepEqual(state.rami.toTable(RULES.rami)[0], ["B2", "B3", "B4", "B5", "B6"]);
  state = gesture(select(state, "K12"), { type: "tap_meld", meld: 1 }).state;
  assert.deepEqual(state.rami.melds[1].tiles.map((x) => x.t), ["K10", "J", "Y10", "K12"]);
  assert.equal(state.rami.info(RULES.rami, 1).valid, false);                  // shown red; the server judges
  // a tap on a table tile with nothing selected elsewhere selects it
  const picked = gesture(state, { type: "tap_meld_tile", meld: 0, index: 2, at: 9000 }).state;
  assert.deepEqual(picked.sel, ["meld:0:2"]);
});

test("drops: a rack tile onto a meld at the place it was dropped, onto New meld, and a table tile between melds", () => {
  const state = turn();
  const r7 = `slot:${slotOf(state, "R7")}`;
  const placed = gesture(state, { type: "drop", src: r7, target: "meld:0", index: 4 }).state;
  assert.deepEqual(placed.rami.toTable(RULES.rami)[0], ["B3", "B4", "B5", "B6", "R7"]);
  const fresh = gesture(state, { type: "drop", src: r7, target: "new-meld", index: 5 }).state;
  assert.deepEqual(fresh.rami.melds[2].tiles, [{ t: "R7", fromRack: true }]);
  // the joker moves out of the group to start a run, R8 R9 after it: K10 Y10 stay, invalid for now
  let s = gesture(state, { type: "drop", src: "meld:1:1", target: "new-meld", index: 0 }).state;
  for (const t of ["R8", "R9"]) s = gesture(s, { type: "drop", src: `slot:${slotOf(s, t)}`, target: "meld:2", index: 99 }).state;
  assert.deepEqual(gesture(s, { type: "submit" }).send.action.table, [TABLE[0], ["K10", "Y10"], ["J=R7", "R8", "R9"]]);
});

test("a tile laid from the rack this turn goes back to the rack; a table tile never does", () => {
  let state = gesture(select(turn(), "B2"), { type: "tap_meld", meld: 0 }).state;
  state = gesture(state, { type: "tap_meld_tile", meld: 0, index: 4, at: 5000 }).state;   // select the B2 laid
  state = gesture(state, { type: "tap_slot", slot: 25 }).state;
  assert.equal(state.rack.slots[25], "B2");
  assert.equal(state.rami.melds[0].tiles.length, 4);
  const refused = gesture(turn(), { type: "drop", src: "meld:0:0", target: "slot:25", index: 0 }).state;
  assert.match(refused.notice, /Table tiles cannot go to your rack/);
  assert.equal(refused.rami.melds[0].tiles.length, 4);
});

test("Undo puts the table and the rack back as they were at the start of the turn", () => {
  const start = turn();
  let state = select(start, "R7", "R8", "R9");
  state = gesture(state, { type: "tap_new_meld" }).state;
  state = gesture(state, { type: "drop", src: `slot:${slotOf(state, "K12")}`, target: "slot:3", index: 0 }).state;
  state = gesture(state, { type: "undo" }).state;
  assert.deepEqual(state.rack.slots, start.rack.slots);
  assert.deepEqual(state.rami.toTable(RULES.rami), TABLE);
  assert.equal(state.rami.dirty, false);
});

test("out of turn the table does not move: the player is told to wait; Draw and Play are the turn's", () => {
  const state = select(tableState(ramiView({ table: TABLE, turn: 2 }), ["K4", "Y4", "J"]), "K4");
  const waited = gesture(state, { type: "tap_new_meld" });
  assert.match(waited.state.notice, /Wait for your turn/);
  assert.equal(waited.state.rami.melds.length, 2);
  assert.deepEqual(gesture(turn(), { type: "draw" }).send, { action: { type: "draw" }, kind: "draw" });
  const c = controllerFor("rami");
  assert.deepEqual(c.controls().filter((b) => b.turn).map((b) => b.id), ["submit-play", "undo-turn", "draw-btn"]);
  assert.deepEqual(c.controls().filter((b) => b.gesture && b.gesture.type === "sort").map((b) => b.id), ["sort-runs", "sort-groups"]);
  assert.deepEqual(c.views, { centre: "pile", table: "working" });
  assert.equal(c.highestWins, true);
});

test("the initial meld's running total counts only new melds of rack tiles", () => {
  let state = select(turn({ opened: ["no", "no", "no", "no"] }), "R7", "R8", "R9");
  state = gesture(state, { type: "tap_new_meld" }).state;
  assert.deepEqual(controllerFor("rami").openingLine(state), [{ cls: "", text: "Initial meld: 24 of 30 points" }]);
  const opened = reduce(state, { type: "snapshot", version: 2, view: { ...state.view, opened: ["yes", "no", "no", "no"] }, saved: {} });
  assert.deepEqual(controllerFor("rami").openingLine(opened), []);
});

test("before the initial meld touching the table is refused as soon as it is tried, new melds from the rack are not", () => {
  const state = turn({ opened: ["no", "no", "no", "no"] });
  const r7 = `slot:${slotOf(state, "R7")}`;
  const dropped = gesture(state, { type: "drop", src: r7, target: "meld:0", index: 4 });
  assert.deepEqual(dropped.state.rami.toTable(RULES.rami), TABLE);
  assert.match(dropped.state.notice, /initial meld/);
  assert.match(gesture(state, { type: "tap_meld_tile", meld: 1, index: 1, at: 100 }).state.notice, /initial meld/);
  assert.match(gesture(select(state, "R7"), { type: "tap_meld", meld: 0 }).state.notice, /initial meld/);
  assert.deepEqual(gesture(state, { type: "drop", src: "meld:1:1", target: "new-meld", index: 0 }).state.rami.toTable(RULES.rami), TABLE);
  // a new meld of rack tiles, and a rack tile into it, are the initial meld
  let s = gesture(state, { type: "drop", src: r7, target: "new-meld", index: 0 }).state;
  s = gesture(s, { type: "drop", src: `slot:${slotOf(s, "R8")}`, target: "meld:2", index: 99 }).state;
  assert.deepEqual(s.rami.melds[2].tiles.map((x) => x.t), ["R7", "R8"]);
  assert.equal(s.notice, "");
});

test("the first-game hint of rami says a turn is one play or one draw, with the opening value", () => {
  const rami = controllerFor("rami");
  assert.match(rami.firstHint(tableState(ramiView(), ["R1"])), /^Your first game: lay runs and groups.*30 points.*draw a tile to end your turn/);
  assert.match(rami.firstHint(tableState(ramiView({ turn: 1 }), ["R1"])), /^Your first game: wait for your turn/);
});
