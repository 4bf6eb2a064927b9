// Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { analyse, addFit, swapFits } from "../../static/js/table/melds.js";
import { okeyOf } from "../../static/js/table/tiles.js";

// the shared contract sits beside the repository (../shared, as tests/engine finds it)
const VECTORS = new URL("../../../shared/conformance/examples.jsonl", import.meta.url);
const vectors = readFileSync(VECTORS, "utf8")
  .split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((v) => v.kind === "meld");

test("conformance meld vectors agree with the client reader", () => {
  assert.ok(vectors.length > 5);
  for (const v of vectors) {
    const okey = v.indicator ? okeyOf(v.indicator) : null;
    const got = analyse(v.ruleset, v.tiles, okey);
    const brief = got.valid ? { valid: true, type: got.type, points: got.points } : { valid: false };
    assert.deepEqual(brief, v.expect, v.id);
  }
});

test("a free okey in a run is written with the number its place implies", () => {
  // indicator R5 -> okey R6
  assert.deepEqual(analyse("okey51", ["B4", "R6", "B6"], "R6").written, ["B4", "R6=B5", "B6"]);
  assert.deepEqual(analyse("okey51", ["R6", "B12", "B13"], "R6").written, ["R6=B11", "B12", "B13"]);
  // after 13 the run continues with 1 in okey51 only
  assert.deepEqual(analyse("okey51", ["B12", "B13", "R6"], "R6").written, ["B12", "B13", "R6=B1"]);
  // okey17 has no 1 after 13: the wild goes below instead
  assert.deepEqual(analyse("okey17", ["B12", "B13", "R6"], "R6").written, ["B12", "B13", "R6=B11"]);
  // tiles laid out of order still read as a run (RULES.md §2), wild filling the gap
  assert.deepEqual(analyse("okey51", ["B7", "B5", "R6", "B8"], "R6").written, ["B7", "B5", "R6=B6", "B8"]);
  assert.equal(analyse("okey51", ["R10", "R9", "R8"], "R6").points, 27);
});

test("okey17 reads a descending run and writes its wild accordingly", () => {
  const r = analyse("okey17", ["K9", "R6", "K7"], "R6");
  assert.equal(r.type, "run");
  assert.deepEqual(r.written, ["K9", "R6=K8", "K7"]);
  assert.equal(r.points, 8);
});

test("a wild in a group takes a missing colour; rami jokers are always written J=X", () => {
  assert.deepEqual(analyse("okey51", ["R9", "R6", "K9"], "R6").written, ["R9", "R6=B9", "K9"]);
  assert.deepEqual(analyse("rami", ["Y5", "J", "K5"], null).written, ["Y5", "J=R5", "K5"]);
  assert.deepEqual(analyse("rami", ["R5", "J", "R7"], null).written, ["R5", "J=R6", "R7"]);
});

test("the false joker is not wild and the okey used as itself stays bare", () => {
  assert.equal(analyse("okey51", ["R5", "F", "R7"], "R6").valid, true);   // F plays as R6
  assert.deepEqual(analyse("okey51", ["R4", "R5", "R6"], "R6").written, ["R4", "R5", "R6"]);
  assert.equal(analyse("okey51", ["B5", "F", "B7"], "R6").valid, false);
});

test("pairs: identical tiles or a wild with anything; rami has no pairs", () => {
  assert.deepEqual(analyse("okey51", ["B9", "B9"], "R6"), { valid: true, type: "pair", points: 18, written: ["B9", "B9"] });
  assert.deepEqual(analyse("okey51", ["R6", "K3"], "R6").written, ["R6=K3", "K3"]);
  assert.equal(analyse("okey51", ["B9", "K9"], "R6").valid, false);
  assert.equal(analyse("okey17", ["B9", "B9"], "R6").points, 9);
  assert.equal(analyse("rami", ["B9", "B9"], null).valid, false);
});

test("addFit finds the run ends and missing group colours, never a pair", () => {
  assert.equal(addFit("okey51", ["B5", "B6", "B7"], "B8", "R6"), "B8");
  assert.equal(addFit("okey51", ["B5", "B6", "B7"], "B4", "R6"), "B4");
  assert.equal(addFit("okey51", ["B5", "B6", "B7"], "B9", "R6"), null);
  assert.equal(addFit("okey51", ["B5", "B6", "B7"], "R6", "R6"), "R6=B8");
  assert.equal(addFit("okey51", ["R9", "B9", "K9"], "Y9", "R6"), "Y9");
  assert.equal(addFit("okey51", ["R9", "B9", "K9"], "R9", "R6"), null);
  assert.equal(addFit("okey51", ["B9", "B9"], "B9", "R6"), null);
  assert.ok(swapFits(["B4", "R6=B5", "B6"], "B5"));
  assert.ok(!swapFits(["B4", "R6=B5", "B6"], "B6"));
});

test("a tap on a meld where the tile only takes a wild's place is a swap, not an add", async () => {
  const { meldMove } = await import("../../static/js/table/melds.js");
  // okey Y9: Y6 · okey-as-Y7 · Y8 · Y9 (the other okey as itself); the player holds Y7
  const meld = ["Y6", "Y9=Y7", "Y8", "Y9"];
  assert.equal(addFit("okey51", meld, "Y7", "Y9"), null);
  assert.deepEqual(meldMove("okey51", meld, "Y7", "Y9"), { type: "swap", tile: "Y7" });
  // Y10 extends the run: an add
  assert.deepEqual(meldMove("okey51", meld, "Y10", "Y9"), { type: "add", tile: "Y10" });
  assert.deepEqual(meldMove("okey51", meld, "Y5", "Y9"), { type: "add", tile: "Y5" });
  // a tile that fits neither
  assert.equal(meldMove("okey51", meld, "K3", "Y9"), null);
  // a bare okey on the table stands for itself: R6 (okey) in R5 R6 R7 is not a free wild
  assert.equal(addFit("okey51", ["R5", "R6", "R7"], "R9", "R6"), null);
  assert.equal(addFit("okey51", ["R5", "R6", "R7"], "R8", "R6"), "R8");
});
