import { test } from "node:test";
import assert from "node:assert/strict";
import { RamiTable } from "../../static/js/table/rami.js";
import { RULES } from "./rules.mjs";

test("untouched melds go back verbatim, changed ones get their jokers rewritten", () => {
  const t = new RamiTable([["Y5", "J=B5", "K5"], ["R1", "R2", "R3"]]);
  assert.equal(t.dirty, false);
  t.insert(1, 3, { t: "R4", fromRack: true });
  assert.deepEqual(t.toTable(RULES.rami), [["Y5", "J=B5", "K5"], ["R1", "R2", "R3", "R4"]]);
  // move the joker from the group into a new run with rack tiles
  const j = t.take(0, 1);
  t.insert(2, 0, { t: "K8", fromRack: true });
  t.insert(2, 1, j);
  t.insert(2, 2, { t: "K10", fromRack: true });
  assert.deepEqual(t.toTable(RULES.rami)[2], ["K8", "J=K9", "K10"]);
  assert.deepEqual(t.toTable(RULES.rami)[0], ["Y5", "K5"]);          // now invalid: sent as is
  assert.equal(t.info(RULES.rami, 0).valid, false);
  assert.deepEqual(t.fromRack().sort(), ["K10", "K8", "R4"]);
});

test("the initial meld counts only new melds made of rack tiles", () => {
  const t = new RamiTable([["B3", "B4", "B5"]]);
  t.insert(1, 0, { t: "R10", fromRack: true });
  t.insert(1, 1, { t: "R11", fromRack: true });
  t.insert(1, 2, { t: "R12", fromRack: true });
  t.insert(0, 3, { t: "B6", fromRack: true });              // touching the table: not counted
  assert.equal(t.initialPoints(RULES.rami), 33);
  t.take(1, 0);
  t.prune();
  assert.equal(t.initialPoints(RULES.rami), 0);                        // R11-R12 is not a meld
});

test("a working table survives a save and reload mid-turn", () => {
  const r = new RamiTable([["B3", "B4", "B5"], ["K10", "J=R10", "Y10"]]);
  r.insert(2, 0, { t: "R7", fromRack: true });
  r.insert(2, 1, { t: "R8", fromRack: true });
  r.insert(2, 2, { t: "R9", fromRack: true });
  const back = RamiTable.fromJSON(JSON.parse(JSON.stringify(r.toJSON())));
  assert.deepEqual(back.toTable(RULES.rami), r.toTable(RULES.rami));
  assert.deepEqual(back.fromRack(), ["R7", "R8", "R9"]);
  assert.ok(back.dirty);
  assert.equal(RamiTable.fromJSON({ nope: 1 }), null);
});
