// The okey family's controller: gestures on the rack, the centre and the melds become
// the exact RULES.md §7 actions (without seat) that the socket sends.
import { test } from "node:test";
import assert from "node:assert/strict";
import { reduce } from "../../static/js/table/state.js";
import { controllerFor } from "../../static/js/table/controllers/index.js";
import { gesture, okeyView, select, slotOf, tableState } from "./tables.mjs";

const _ = null;

test("Open sends every gap group that reads as a run or group, a free okey written as the tile it stands for", () => {
  // okey R6 (indicator R5): B4 B5 R6 is a run with the okey as B6; K2 alone is no meld
  const state = tableState(okeyView(), ["R1", "R2", "R3", _, "B9", "K9", "Y9", _, "B4", "B5", "R6", _, "K2",
    "Y11", "Y12", "Y13", _, "K5"]);
  const { send } = gesture(state, { type: "open" });
  assert.deepEqual(send, { action: { type: "open", melds: [["R1", "R2", "R3"], ["B9", "K9", "Y9"], ["B4", "B5", "R6=B6"], ["Y11", "Y12", "Y13"]] }, kind: "open" });
});

test("Open with no group of three says how to arrange the rack and sends nothing", () => {
  const state = tableState(okeyView(), ["R1", "R2", _, "B9", "K9"]);
  const { send, state: after } = gesture(state, { type: "open" });
  assert.equal(send, null);
  assert.match(after.notice, /gap between them/);
});

test("Open pairs sends the two-tile gap groups; the okey pairs with any tile", () => {
  const state = tableState(okeyView(), ["B2", "B2", _, "K7", "K7", _, "R6", "Y12", _, "R1", "R2", "R3"]);
  assert.deepEqual(gesture(state, { type: "open_pairs" }).send.action,
    { type: "open", melds: [["B2", "B2"], ["K7", "K7"], ["R6=Y12", "Y12"]] });
});

test("the taken discard rides on the opening as take_discard with then", () => {
  // at the start of the turn the previous seat (3) discarded R4
  const view = okeyView({ phase: "draw", rack_counts: [14, 14, 14, 14], discards: [[], [], [], ["K1", "R4"]] });
  let state = tableState(view, ["R1", "R2", "R3", _, _, "B9", "K9", "Y9", _, _, _, _, _,
    "Y5", "Y8", "K11", "B13", "K12", "B1", "B2", "Y3"]);
  const okey = controllerFor("okey51");
  assert.match(okey.turnText(state), /draw from the pile or take the discard/);
  state = gesture(state, { type: "take" }).state;
  assert.equal(state.pendingTake, "R4");
  assert.equal(okey.turnText(state), "Your turn: place red 4 in a meld or on one, or put it back");
  const taken = state.rack.taken;
  assert.equal(state.rack.slots[taken], "R4");
  assert.deepEqual(state.sel, [`slot:${taken}`]);            // the taken tile is selected to be placed
  // the player drags it next to R1 R2 R3
  state = gesture(state, { type: "drop", src: `slot:${taken}`, target: "slot:3", index: 0 }).state;
  const { send } = gesture(state, { type: "open" });
  assert.deepEqual(send, { action: { type: "take_discard", then: { type: "open", melds: [["R1", "R2", "R3", "R4"], ["B9", "K9", "Y9"]] } }, kind: "take" });
  // only the actions that place it carry it: a discard goes out alone
  assert.deepEqual(gesture(select(state, "Y5"), { type: "discard" }).send.action, { type: "discard", tile: "Y5" });
  // the ack of the take_discard ends the take
  state = reduce(reduce(state, { type: "sent", id: "c1", kind: "take" }), { type: "ack", id: "c1", version: 2 });
  assert.equal(state.pendingTake, null);
});

test("the discard can be taken only at the start of the turn, and put back", () => {
  const view = okeyView({ discards: [[], [], [], ["R4"]] });
  assert.match(gesture(tableState(view, ["R1"]), { type: "take" }).state.notice, /start of your turn/);
  const empty = okeyView({ phase: "draw" });
  assert.match(gesture(tableState(empty, ["R1"]), { type: "take" }).state.notice, /no discard/);
  let state = tableState({ ...view, phase: "draw" }, ["R1", "R2"]);
  state = gesture(state, { type: "take" }).state;
  state = gesture(state, { type: "take" }).state;
  assert.equal(state.pendingTake, null);
  assert.deepEqual(state.rack.tiles(), ["R1", "R2"]);
});

test("Lay sends the selected tiles as a meld; one selected tile lays its whole gap group", () => {
  const state = tableState(okeyView({ opened: ["melds", "no", "no", "no"] }), ["K5", "Y5", "R6", _, "B10", "B11", "B12", _, "K1"]);
  assert.deepEqual(gesture(select(state, "B11"), { type: "lay" }).send.action, { type: "meld", tiles: ["B10", "B11", "B12"] });
  assert.deepEqual(gesture(select(state, "R6", "K5", "Y5"), { type: "lay" }).send.action, { type: "meld", tiles: ["K5", "Y5", "R6=R5"] });
  assert.match(gesture(state, { type: "lay" }).state.notice, /Select the tiles/);
});

test("a tap on a meld adds the selected tile; where it only takes a wild's place it swaps", () => {
  // okey Y9 (indicator Y8): Y6, the okey as Y7, Y8, the other okey as itself
  const table = [{ id: 3, owner: 1, tiles: ["Y6", "Y9=Y7", "Y8", "Y9"] }];
  const state = tableState(okeyView({ indicator: "Y8", okey: "Y9", table, opened: ["melds", "melds", "no", "no"] }), ["Y7", _, "Y10", _, "K2"]);
  assert.deepEqual(gesture(select(state, "Y7"), { type: "tap_meld", meld: 3 }).send.action, { type: "swap", meld: 3, tile: "Y7" });
  assert.deepEqual(gesture(select(state, "Y10"), { type: "tap_meld", meld: 3 }).send.action, { type: "add", meld: 3, tile: "Y10" });
  assert.deepEqual(controllerFor("okey51").fits(select(state, "Y7")), new Map([["3", "swap"]]));
  assert.equal(gesture(state, { type: "tap_meld", meld: 3 }).send, null);     // nothing selected
  // the swap button swaps whatever the tile
  assert.deepEqual(gesture(select(state, "K2"), { type: "swap", meld: 3 }).send.action, { type: "swap", meld: 3, tile: "K2" });
});

test("drops: on the discard zone a discard, on a meld an add, on a slot a move", () => {
  const table = [{ id: 1, owner: 0, tiles: ["B5", "B6", "B7"] }];
  const state = tableState(okeyView({ table, opened: ["melds", "no", "no", "no"] }), ["B8", _, "K2"]);
  const k2 = `slot:${slotOf(state, "K2")}`;
  assert.deepEqual(gesture(state, { type: "drop", src: k2, target: "discard", index: 0 }).send.action, { type: "discard", tile: "K2" });
  assert.deepEqual(gesture(state, { type: "drop", src: "slot:0", target: "meld:1", index: 99 }).send.action, { type: "add", meld: 1, tile: "B8" });
  const moved = gesture(state, { type: "drop", src: k2, target: "slot:20", index: 0 });
  assert.equal(moved.send, null);
  assert.equal(moved.state.rack.slots[20], "K2");
  assert.equal(moved.state.manualMoved, true);
});

test("Discard sends the selected tile, never the taken discard nor a face-down tile", () => {
  const state = tableState(okeyView(), ["R1", "K9"]);
  assert.deepEqual(gesture(select(state, "K9"), { type: "discard" }).send, { action: { type: "discard", tile: "K9" }, kind: "discard" });
  assert.match(gesture(state, { type: "discard" }).state.notice, /Select the tile/);
  const taking = gesture(tableState(okeyView({ phase: "draw", discards: [[], [], [], ["Y3"]] }), ["R1"]), { type: "take" }).state;
  const refused = gesture(taking, { type: "discard" });
  assert.equal(refused.send, null);
  assert.match(refused.state.notice, /taken discard must go on the table/);
});

test("okey17: a pair tapped into another player's area is laid there, with its owner (D-12)", () => {
  const table = [{ id: 4, owner: 2, tiles: ["K3", "K3"] }];
  const view = okeyView({ ruleset: "okey17", threshold: 17, table, opened: ["melds", "no", "pairs", "no"] });
  const state = select(tableState(view, ["B2", "B2", _, "R9"]), 0, 1);
  assert.deepEqual(gesture(state, { type: "tap_area", owner: 2 }).send.action, { type: "meld", tiles: ["B2", "B2"], owner: 2 });
  assert.equal(gesture(state, { type: "tap_area", owner: 0 }).send, null);           // own area: no
  assert.equal(gesture(select(state, "R9"), { type: "tap_area", owner: 2 }).send, null);   // three selected
  // okey51 has no pairs in another player's area
  const okey51 = select(tableState({ ...view, ruleset: "okey51" }, ["B2", "B2"]), 0, 1);
  assert.equal(gesture(okey51, { type: "tap_area", owner: 2 }).send, null);
});

test("okey17: a double tap turns a joker face down; it then stays in the rack", () => {
  const state = tableState(okeyView({ ruleset: "okey17" }), ["R6", _, "K2"]);
  let s = gesture(state, { type: "tap_tile", src: "slot:0", at: 1000 }).state;
  s = gesture(s, { type: "tap_tile", src: "slot:0", at: 1200 }).state;
  assert.ok(s.rack.faceDown.has(0));
  assert.deepEqual(s.sel, []);
  assert.match(gesture(select(s, 0), { type: "discard" }).state.notice, /face-down tile stays/);
  // okey51: the same double tap only selects and unselects
  const o51 = gesture(gesture(tableState(okeyView(), ["R6"]), { type: "tap_tile", src: "slot:0", at: 1000 }).state,
    { type: "tap_tile", src: "slot:0", at: 1200 }).state;
  assert.equal(o51.rack.faceDown.size, 0);
});

test("assisted: a double tap adds the tile to the only meld it fits, and asks when several fit", () => {
  const table = [{ id: 1, owner: 1, tiles: ["B10", "B11", "B12"] }, { id: 2, owner: 1, tiles: ["K5", "Y5", "R5"] }];
  const view = okeyView({ table, opened: ["melds", "melds", "no", "no"] });
  const state = tableState(view, ["B13", _, "R6", _, "K1"], { assisted: true });
  const twice = (s, slot) => gesture(gesture(s, { type: "tap_tile", src: `slot:${slot}`, at: 1000 }).state,
    { type: "tap_tile", src: `slot:${slot}`, at: 1100 });
  assert.deepEqual(twice(state, 0).send.action, { type: "add", meld: 1, tile: "B13" });
  const asked = twice(state, 2);                 // the okey fits both melds
  assert.equal(asked.send, null);
  assert.deepEqual(asked.state.sel, ["slot:2"]);
  assert.match(asked.state.notice, /fits several melds/);
  assert.equal(twice(state, 4).send, null);      // K1 fits no meld: a double tap selects and unselects
});

test("the okey family's buttons and views", () => {
  const c = controllerFor("okey17");
  assert.deepEqual(c.controls().filter((b) => !b.spacer).map((b) => b.id),
    ["open-btn", "pairs-btn", "lay-btn", "discard-btn", "sort-runs", "sort-groups", "sort-pairs"]);
  assert.deepEqual(c.views, { centre: "discards", table: "by-owner" });
  assert.equal(c.highestWins, false);
  const line = c.openingLine(tableState(okeyView({ ruleset: "okey17", threshold: 17, pairs_threshold: 27 }), ["K7", "K8", "K9", _, "B2", "B2"]));
  assert.deepEqual(line.map((p) => p.text), ["Melds: 8 = 8 of 17", "Pairs: 1 pair, 2 of 27 points"]);
});

test("a tap on the pile by the first player, dealt one tile more, says to discard and sends nothing", () => {
  const rack = ["R1", "R2", "R3", _, "B9", "K9", "Y9", _, "K2", "Y11", "Y12", "Y13", _, "K5", "B4", "B5", "Y7"];
  const start = tableState(okeyView({ moves: [] }), rack);
  const { send, state } = gesture(start, { type: "draw" });
  assert.equal(send, null);
  assert.equal(state.notice, "You start with one tile more: discard one.");
  // still so after an opening in that turn
  const opened = tableState(okeyView({ moves: [{ number: 1, seat: 0, type: "open", result: "ok" }] }), rack);
  assert.equal(gesture(opened, { type: "draw" }).send, null);
  // after a draw: the tile is drawn, say what comes next and send nothing
  const drawn = okeyView({ turn: 1, seat: 1, moves: [{ number: 1, seat: 0, type: "discard", result: "ok" }, { number: 2, seat: 1, type: "draw", result: "ok" }] });
  const again = gesture(tableState(drawn, rack), { type: "draw" });
  assert.equal(again.send, null);
  assert.equal(again.state.notice, "You have drawn your tile: lay or add tiles, then discard one.");
  // at the draw, the pile is drawn from
  const toDraw = okeyView({ turn: 1, seat: 1, phase: "draw", moves: [{ number: 1, seat: 0, type: "discard", result: "ok" }] });
  assert.deepEqual(gesture(tableState(toDraw, rack.slice(1)), { type: "draw" }).send, { action: { type: "draw" }, kind: "draw" });
  // a view that cannot tell leaves it to the server too
  assert.ok(gesture(tableState(okeyView(), rack), { type: "draw" }).send);
});

test("the first-game hint follows the seat's phase: the round's first player is not told to draw", () => {
  const okey = controllerFor("okey51");
  const starter = tableState(okeyView({ moves: [] }), ["R1"]);
  assert.match(okey.firstHint(starter), /start the round with one tile more, so you do not draw/);
  assert.doesNotMatch(okey.firstHint(starter), /draw a tile/);
  const toDraw = tableState(okeyView({ turn: 1, seat: 1, phase: "draw", moves: [{ number: 1, seat: 0, type: "discard", result: "ok" }] }), ["R1"]);
  assert.match(okey.firstHint(toDraw), /^Your first game: draw a tile \(from the pile or the last discard\).*51 points/);
  const drawn = tableState(okeyView({ turn: 1, seat: 1, moves: [{ number: 1, seat: 0, type: "discard", result: "ok" }, { number: 2, seat: 1, type: "draw", result: "ok" }] }), ["R1"]);
  assert.match(okey.firstHint(drawn), /^Your first game: arrange your rack/);
  const waiting = tableState(okeyView({ turn: 2, seat: 1, phase: "draw", moves: [] }), ["R1"]);
  assert.match(okey.firstHint(waiting), /^Your first game: wait for your turn\. Then draw a tile/);
  // okey17's threshold comes from the rules (and the view's raised one)
  const okey17 = tableState(okeyView({ ruleset: "okey17", threshold: undefined, phase: "draw", turn: 0, moves: [{ number: 1, seat: 3, type: "discard", result: "ok" }] }), ["R1"]);
  assert.match(controllerFor("okey17").firstHint(okey17), /reach 17 points/);
});
