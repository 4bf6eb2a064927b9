// Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { analyse, addFit, swapFits } from "../../static/js/table/melds.js";
import { RULES } from "./rules.mjs";

test("a free okey in a run is written with the number its place implies", () => {
  // indicator R5 -> okey R6
  assert.deepEqual(analyse(RULES.okey51, ["B4", "R6", "B6"], "R6").written, ["B4", "R6=B5", "B6"]);
  assert.deepEqual(analyse(RULES.okey51, ["R6", "B12", "B13"], "R6").written, ["R6=B11", "B12", "B13"]);
  // after 13 the run continues with 1 in okey51 only
  assert.deepEqual(analyse(RULES.okey51, ["B12", "B13", "R6"], "R6").written, ["B12", "B13", "R6=B1"]);
  // okey17 has no 1 after 13: the wild goes below instead
  assert.deepEqual(analyse(RULES.okey17, ["B12", "B13", "R6"], "R6").written, ["B12", "B13", "R6=B11"]);
  // tiles laid out of order still read as a run (RULES.md §2), wild filling the gap
  assert.deepEqual(analyse(RULES.okey51, ["B7", "B5", "R6", "B8"], "R6").written, ["B7", "B5", "R6=B6", "B8"]);
  assert.equal(analyse(RULES.okey51, ["R10", "R9", "R8"], "R6").points, 27);
});

test("okey17 reads a descending run and writes its wild accordingly", () => {
  const r = analyse(RULES.okey17, ["K9", "R6", "K7"], "R6");
  assert.equal(r.type, "run");
  assert.deepEqual(r.written, ["K9", "R6=K8", "K7"]);
  assert.equal(r.points, 8);
});

test("a wild in a group takes a missing colour; rami jokers are always written J=X", () => {
  assert.deepEqual(analyse(RULES.okey51, ["R9", "R6", "K9"], "R6").written, ["R9", "R6=B9", "K9"]);
  assert.deepEqual(analyse(RULES.rami, ["Y5", "J", "K5"], null).written, ["Y5", "J=R5", "K5"]);
  assert.deepEqual(analyse(RULES.rami, ["R5", "J", "R7"], null).written, ["R5", "J=R6", "R7"]);
});

test("the false joker is not wild and the okey used as itself stays bare", () => {
  assert.equal(analyse(RULES.okey51, ["R5", "F", "R7"], "R6").valid, true);   // F plays as R6
  assert.deepEqual(analyse(RULES.okey51, ["R4", "R5", "R6"], "R6").written, ["R4", "R5", "R6"]);
  assert.equal(analyse(RULES.okey51, ["B5", "F", "B7"], "R6").valid, false);
});

test("pairs: identical tiles or a wild with anything; rami has no pairs", () => {
  assert.deepEqual(analyse(RULES.okey51, ["B9", "B9"], "R6"), { valid: true, type: "pair", points: 18, written: ["B9", "B9"] });
  assert.deepEqual(analyse(RULES.okey51, ["R6", "K3"], "R6").written, ["R6=K3", "K3"]);
  assert.equal(analyse(RULES.okey51, ["B9", "K9"], "R6").valid, false);
  assert.equal(analyse(RULES.okey17, ["B9", "B9"], "R6").points, 9);
  assert.equal(analyse(RULES.rami, ["B9", "B9"], null).valid, false);
});

test("addFit finds the run ends and missing group colours, never a pair", () => {
  assert.equal(addFit(RULES.okey51, ["B5", "B6", "B7"], "B8", "R6"), "B8");
  assert.equal(addFit(RULES.okey51, ["B5", "B6", "B7"], "B4", "R6"), "B4");
  assert.equal(addFit(RULES.okey51, ["B5", "B6", "B7"], "B9", "R6"), null);
  assert.equal(addFit(RULES.okey51, ["B5", "B6", "B7"], "R6", "R6"), "R6=B8");
  assert.equal(addFit(RULES.okey51, ["R9", "B9", "K9"], "Y9", "R6"), "Y9");
  assert.equal(addFit(RULES.okey51, ["R9", "B9", "K9"], "R9", "R6"), null);
  assert.equal(addFit(RULES.okey51, ["B9", "B9"], "B9", "R6"), null);
  assert.ok(swapFits(["B4", "R6=B5", "B6"], "B5"));
  assert.ok(!swapFits(["B4", "R6=B5", "B6"], "B6"));
});

test("a tap on a meld where the tile only takes a wild's place is a swap, not an add", async () => {
  const { meldMove } = await import("../../static/js/table/melds.js");
  // okey Y9: Y6 · okey-as-Y7 · Y8 · Y9 (the other okey as itself); the player holds Y7
  const meld = ["Y6", "Y9=Y7", "Y8", "Y9"];
  assert.equal(addFit(RULES.okey51, meld, "Y7", "Y9"), null);
  assert.deepEqual(meldMove(RULES.okey51, meld, "Y7", "Y9"), { type: "swap", tile: "Y7" });
  // Y10 extends the run: an add
  assert.deepEqual(meldMove(RULES.okey51, meld, "Y10", "Y9"), { type: "add", tile: "Y10" });
  assert.deepEqual(meldMove(RULES.okey51, meld, "Y5", "Y9"), { type: "add", tile: "Y5" });
  // a tile that fits neither
  assert.equal(meldMove(RULES.okey51, meld, "K3", "Y9"), null);
  // a bare okey on the table stands for itself: R6 (okey) in R5 R6 R7 is not a free wild
  assert.equal(addFit(RULES.okey51, ["R5", "R6", "R7"], "R9", "R6"), null);
  assert.equal(addFit(RULES.okey51, ["R5", "R6", "R7"], "R8", "R6"), "R8");
});

test("rami: a run of jokers only and a false joker are refused, as the engine refuses them", () => {
  // D-4: at least one tile of a meld is not wild, written or free
  assert.equal(analyse(RULES.rami, ["J=R1", "J=R2", "J=R3"], null).valid, false);
  assert.equal(analyse(RULES.rami, ["J=R6", "J", "J"], null).valid, false);
  // rami has no false joker (RULES.md §1): F is no tile of its melds, never a free wild
  assert.equal(analyse(RULES.rami, ["R5", "F", "R7"], null).valid, false);
  assert.equal(analyse(RULES.rami, ["R2", "F", "K2"], null).valid, false);
  // and the okey rulesets' joker is no wild of theirs
  assert.equal(analyse(RULES.okey51, ["B8", "J", "B10"], "R6").valid, false);
});

test("an okey that reads as itself stays itself (RULES.md §1, D-25), as the engine reads it", () => {
  // okey B9 (indicator B8): B9 B10 B11 is a run with the okey as B9, not B12
  assert.deepEqual(analyse(RULES.okey51, ["B11", "B9", "B10"], "B9"), { valid: true, type: "run", points: 30, written: ["B11", "B9", "B10"] });
  // two bare okeys pair as the okey (D-30); an okey beside another tile stands for it
  assert.equal(analyse(RULES.okey51, ["R6", "R6"], "R6").points, 12);
});

test("resolve writes the free wilds as the engine's resolve_meld does (tests/engine/test_melds.py)", async () => {
  const { resolve } = await import("../../static/js/table/melds.js");
  const cases = [   // [ruleset, tiles, okey, written]; indicator R5 -> okey R6
    ["okey51", ["R4", "R6", "R6"], "R6", ["R4", "R6=R5", "R6"]],
    ["okey51", ["B4", "R6", "B6"], "R6", ["B4", "R6=B5", "B6"]],
    ["okey51", ["B12", "B13", "R6"], "R6", ["B12", "B13", "R6=B1"]],
    ["okey17", ["B9", "B8", "R6"], "R6", ["B9", "B8", "R6=B7"]],
    ["okey51", ["K5", "R6", "B5"], "R6", ["K5", "R6=R5", "B5"]],
    ["okey51", ["K5", "R6"], "R6", ["K5", "R6=K5"]],
    ["rami", ["R12", "R13", "J"], null, ["R12", "R13", "J=R11"]],
    ["okey51", ["B4", "R6", "K7"], "R6", null],
  ];
  for (const [rs, tiles, okey, want] of cases) assert.deepEqual(resolve(RULES[rs], tiles, okey), want, tiles.join(" "));
});
