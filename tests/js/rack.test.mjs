import { test } from "node:test";
import assert from "node:assert/strict";
import { Rack, perRowFor } from "../../static/js/table/rack.js";
import { sortRack } from "../../static/js/table/sorting.js";
import { persist, rackKey, savedFor } from "../../static/js/table/storage.js";
import { RULES } from "./rules.mjs";

class MemoryStorage {
  constructor() { this.data = new Map(); }
  getItem(k) { return this.data.has(k) ? this.data.get(k) : null; }
  setItem(k, v) { this.data.set(k, String(v)); }
}

test("reconcile keeps the player's slots, removes gone tiles, puts new ones apart from groups", () => {
  const rack = new Rack({ perRow: 5, rows: 2 });
  rack.slots = ["R1", "R2", "R3", null, null, null, null, null, null, null];
  rack.move(0, 7);            // R1 into a gap on the second row
  rack.reconcile(["R1", "R3", "K9", "K9"]);   // R2 discarded, two K9 arrived
  // slot 0 is free with a free neighbour; slot 1 touches R3; slot 4 is apart (row end)
  assert.deepEqual(rack.slots, ["K9", null, "R3", null, "K9", null, null, "R1", null, null]);
  assert.deepEqual(rack.fresh, [0, 4]);
});

test("with no slot apart a new tile takes the first free slot", () => {
  const rack = new Rack({ perRow: 4, rows: 1 });
  rack.slots = ["R1", null, "R3", "R4"];
  rack.reconcile(["R1", "R3", "R4", "B9"]);
  assert.deepEqual(rack.slots, ["R1", "B9", "R3", "R4"]);
});

test("groups are split by gaps and by the row end", () => {
  const rack = new Rack({ perRow: 4, rows: 2 });
  rack.slots = ["R1", "R2", null, "B3", "B4", "B5", null, null];
  assert.deepEqual(rack.groups().map((g) => g.tiles), [["R1", "R2"], ["B3"], ["B4", "B5"]]);
  assert.deepEqual(rack.groupOf(5).slots, [4, 5]);
});

test("the arrangement survives a reload through storage and grows a row when full", () => {
  const storage = new MemoryStorage();
  const view = { round_index: 0, seat: 0, rack: ["R1", "R2"] };
  const a = new Rack({ perRow: 3, rows: 1 });
  a.slots = ["R1", "R2", null];
  a.move(0, 2);
  persist(storage, { rack: null }, { tableId: "t1", view, rack: a, rackKey: rackKey("t1", view) });
  const b = Rack.fromJSON(savedFor(storage, "t1", view).rack, { perRow: 3, rows: 1 });
  assert.deepEqual(b.slots, [null, "R2", "R1"]);
  b.reconcile(["R1", "R2", "Y7", "Y8"]);
  assert.deepEqual(b.slots, ["Y7", "R2", "R1", "Y8", null, null]);
  assert.equal(savedFor(storage, "t1", { ...view, round_index: 1 }).rack, null);
  assert.equal(Rack.fromJSON(null), null);
});

test("the taken discard is not saved with the arrangement: it is not in the rack yet", () => {
  const rack = new Rack({ perRow: 4, rows: 1 });
  rack.slots = ["B5", "B6", null, null];
  rack.reconcile(["B5", "B6"], "B7");
  assert.deepEqual(rack.toJSON().slots, ["B5", "B6", null, null]);
  const copy = rack.clone();
  copy.move(0, 3);
  assert.deepEqual(rack.slots.slice(0, 2), ["B5", "B6"]);       // a clone is independent
});

test("a taken discard keeps its slot across snapshots until it leaves", () => {
  const rack = new Rack({ perRow: 4, rows: 1 });
  rack.slots = ["B5", "B6", null, null];
  rack.reconcile(["B5", "B6"], "B7");
  assert.equal(rack.slots[rack.taken], "B7");
  rack.move(rack.taken, 3);
  assert.equal(rack.taken, 3);
  rack.reconcile(["B5", "B6"], "B7");
  assert.deepEqual(rack.slots, ["B5", "B6", null, "B7"]);
  rack.reconcile(["B5", "B6"], null);          // take cancelled
  assert.deepEqual(rack.slots, ["B5", "B6", null, null]);
  assert.equal(rack.taken, null);
});

test("the taken discard does not land in a gap between two groups", () => {
  const rack = new Rack({ perRow: 7, rows: 1 });
  rack.slots = ["R1", "R2", null, "K5", "K6", null, null];
  rack.reconcile(["R1", "R2", "K5", "K6"], "B9");
  assert.equal(rack.taken, 6);                   // apart from K5-K6, at the row end
  const full = new Rack({ perRow: 6, rows: 1 });
  full.slots = ["R1", "R2", null, "K5", null, "K6"];
  full.reconcile(["R1", "R2", "K5", "K6"], "B9");
  assert.equal(full.slots.length, 12);           // no slot apart: a row is added
  assert.equal(full.taken, 6);
  assert.deepEqual(full.groups().map((g) => g.tiles), [["R1", "R2"], ["K5"], ["K6"], ["B9"]]);
});

test("sorting by runs lays each meld with a gap and never across a row", () => {
  const tiles = ["K9", "R3", "B9", "R1", "R2", "Y9", "R6", "B2"];
  const sorted = sortRack("runs", RULES.okey51, tiles, "R6");
  assert.deepEqual(sorted.melds, [["R1", "R2", "R3"], ["B9", "K9", "Y9"]]);
  assert.deepEqual(sorted.rest, ["B2", "R6"]);        // the okey is left for the player
  const rack = new Rack({ perRow: 6, rows: 2 });
  rack.reconcile(tiles);
  rack.layout(sorted);
  assert.deepEqual(rack.groups().map((g) => g.tiles), [["R1", "R2", "R3"], ["B9", "K9", "Y9"], ["B2", "R6"]]);
  assert.equal(rack.tiles().length, tiles.length);
});

test("okey51 sort finds 12-13-1; groups and pairs buttons look for their kind first", () => {
  assert.deepEqual(sortRack("runs", RULES.okey51, ["Y1", "Y12", "Y13"], null).melds, [["Y12", "Y13", "Y1"]]);
  assert.deepEqual(sortRack("runs", RULES.okey17, ["Y1", "Y12", "Y13"], null).melds, []);
  const g = sortRack("groups", RULES.okey51, ["R5", "R6", "R7", "B5", "K5"], null);
  assert.deepEqual(g.melds, [["R5", "B5", "K5"]]);
  const p = sortRack("pairs", RULES.okey51, ["K2", "R5", "K2", "R5", "Y1"], null);
  assert.deepEqual(p.melds, [["R5", "R5"], ["K2", "K2"]]);
  assert.deepEqual(p.rest, ["Y1"]);
});

test("sorting lets a wild complete the best near-meld", async () => {
  const { analyse } = await import("../../static/js/table/melds.js");
  // okey R6: B7 _ B9 becomes a run with the okey in the gap; K2 stays loose
  const runs = sortRack("runs", RULES.okey51, ["B7", "B9", "K2", "R6", "R1", "R2", "R3"], "R6");
  assert.deepEqual(runs.melds, [["R1", "R2", "R3"], ["B7", "R6", "B9"]]);
  assert.deepEqual(runs.rest, ["K2"]);
  for (const m of runs.melds) assert.ok(analyse(RULES.okey51, m, "R6").valid, m.join(" "));
  // groups: two 11s of different colours take the wild rather than the lower run pair
  const groups = sortRack("groups", RULES.okey51, ["K11", "Y11", "B3", "B4", "R6"], "R6");
  assert.deepEqual(groups.melds, [["K11", "Y11", "R6"]]);
  // pairs: the wild pairs with the highest single
  const pairs = sortRack("pairs", RULES.okey51, ["B3", "B3", "K12", "Y5", "R6"], "R6");
  assert.deepEqual(pairs.melds, [["B3", "B3"], ["K12", "R6"]]);
  assert.deepEqual(pairs.rest, ["Y5"]);
  // rami jokers too
  const rami = sortRack("runs", RULES.rami, ["Y12", "Y13", "J", "K1"], null);
  assert.ok(rami.melds.some((m) => m.includes("J") && analyse(RULES.rami, m, null).valid));
});

test("rami undo: the rack comes back exactly as arranged at the start of the turn", () => {
  const server = ["R1", "R2", "R3", "B7", "K7", "Y7", "R10", "B2", "K12", "Y4", "J", "B9", "K1", "Y13"];
  const rack = new Rack({ rows: 2 });
  rack.reconcile(server);                   // a fresh deal lands tile by tile, apart
  rack.layout(sortRack("runs", RULES.rami, rack.tiles(), null));
  rack.move(rack.slots.indexOf("Y13"), 25);  // the player's own touch before the turn
  const start = [...rack.slots];
  // the turn: tiles go to the table, the rest is shuffled by hand
  for (const t of ["R1", "R2", "R3", "J"]) rack.slots[rack.slots.indexOf(t)] = null;
  rack.move(rack.slots.indexOf("B7"), 12);
  rack.restore(start, server);
  assert.deepEqual(rack.slots, start);
  // no gaps were opened between the sorted tiles: the runs stay side by side
  const first = rack.slots.indexOf("R1");
  assert.deepEqual(rack.slots.slice(first, first + 3), ["R1", "R2", "R3"]);
  // a tile the start did not hold (none in a real turn) still shows after the undo
  rack.restore(start.map((t) => (t === "K1" ? null : t)), server);
  assert.equal(rack.tiles().length, server.length);
});

test("a tile dropped on a tile shifts that row towards its nearest gap instead of swapping", () => {
  const rack = new Rack({ perRow: 8, rows: 2 });
  rack.slots = ["R1", "R2", "R3", null, "B9", null, null, null, "K5", null, null, null, null, null, null, null];
  rack.shift(8, 1);                 // K5 from the second row onto R2
  assert.deepEqual(rack.slots.slice(0, 8), ["R1", "K5", "R2", "R3", "B9", null, null, null]);
  assert.equal(rack.slots[8], null);
  // within a row the tiles between move towards the slot the tile left
  rack.shift(0, 3);                 // R1 onto R3: K5 R2 R3 move left
  assert.deepEqual(rack.slots.slice(0, 8), ["K5", "R2", "R3", "R1", "B9", null, null, null]);
  rack.shift(4, 0);                 // B9 onto K5: the row moves right
  assert.deepEqual(rack.slots.slice(0, 8), ["B9", "K5", "R2", "R3", "R1", null, null, null]);
});

test("a shift carries face-down and taken marks with their tiles; a full row swaps", () => {
  const rack = new Rack({ perRow: 4, rows: 2 });
  rack.slots = ["R1", "J", null, null, "B1", "B2", "B3", "B4"];
  rack.faceDown.add(1);
  rack.taken = 0;
  rack.shift(4, 0);
  assert.deepEqual(rack.slots, ["B1", "R1", "J", null, null, "B2", "B3", "B4"]);
  assert.deepEqual([...rack.faceDown], [2]);
  assert.equal(rack.taken, 1);
  rack.slots = ["R1", null, null, null, "B1", "B2", "B3", "B4"];
  rack.faceDown.clear();
  rack.taken = null;
  rack.slots[1] = "R2"; rack.slots[2] = "R3"; rack.slots[3] = "R4";
  rack.shift(0, 5);                 // second row full and not the same row: swap
  assert.deepEqual(rack.slots, ["B2", "R2", "R3", "R4", "B1", "R1", "B3", "B4"]);
});

test("a rack saved on a wide screen opens on a phone with its groups kept whole", () => {
  const wide = new Rack({ perRow: 13, rows: 2 });
  wide.slots[0] = "R1"; wide.slots[1] = "R2"; wide.slots[2] = "R3";
  wide.slots[9] = "K7"; wide.slots[10] = "B7"; wide.slots[11] = "Y7"; wide.slots[12] = "R7";
  wide.slots[13] = "B2";
  const phone = Rack.fromJSON(JSON.parse(JSON.stringify(wide)), { perRow: 8, rows: 3 });
  assert.equal(phone.perRow, 8);
  const groups = phone.groups().map((g) => g.tiles.join(" "));
  assert.ok(groups.includes("R1 R2 R3"));
  assert.ok(groups.includes("K7 B7 Y7 R7"));
  assert.equal(phone.tiles().length, 8);
  assert.ok(phone.slots.length >= 24 && phone.slots.length % 8 === 0);
  assert.deepEqual(Rack.fromJSON(phone.toJSON(), { perRow: 8, rows: 3 }).slots, phone.slots);
});

test("phones get fewer slots per row so that a tile stays at least 40 px wide", () => {
  assert.equal(perRowFor(390), 8);
  assert.equal(perRowFor(500), 10);
  assert.equal(perRowFor(1366), 13);
  assert.equal(perRowFor(undefined), 13);
});

test("a rack laid out again on a narrower screen keeps each group whole on a row, the face-down tile and the taken discard", () => {
  const rack = new Rack({ perRow: 13, rows: 2 });
  rack.slots = ["R1", "R2", "R3", null, "F", null, "B9", "K9", "Y9", "R9", null, "K4", "K4",
    "Y12", null, null, null, null, null, null, null, null, null, null, null, null];
  rack.faceDown.add(4);
  rack.reconcile(rack.tiles(), "B7");              // the previous seat's discard, being placed
  const narrow = rack.reshaped({ perRow: 8, rows: 3 });
  assert.equal(narrow.perRow, 8);
  const rows = (r) => r.groups().map((g) => [Math.floor(g.slots[0] / r.perRow), Math.floor(g.slots.at(-1) / r.perRow)]);
  assert.ok(rows(narrow).every(([first, last]) => first === last), "a group split across two rows");
  // the melds first, each apart, then the single tiles packed (as a sort lays them out)
  assert.deepEqual(narrow.groups().map((g) => g.tiles),
    [["R1", "R2", "R3"], ["B9", "K9", "Y9", "R9"], ["K4", "K4"], ["F", "Y12", "B7"]]);
  assert.deepEqual([...narrow.tiles()].sort(), [...rack.tiles()].sort());
  assert.deepEqual([...narrow.faceDown].map((i) => narrow.slots[i]), ["F"]);
  assert.equal(narrow.slots[narrow.taken], "B7");
  // and back to the wide screen: nothing lost
  const wide = narrow.reshaped({ perRow: 13, rows: 2 });
  assert.deepEqual([...wide.tiles()].sort(), [...rack.tiles()].sort());
  assert.equal(wide.slots[wide.taken], "B7");
});
