// Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { penaltyText, playerName, lastActionText } from "../../static/js/table/text.js";

const view = { seat: 0, players: [{ name: "ayse" }, { name: null, computer: "easy" }, { name: "mehmet" }, { name: null, computer: "strong" }] };

test("in-round penalties read as lines for the score table", () => {
  assert.equal(penaltyText(view, { seat: 1, amount: 100, reason: "penalty_tile", tile: "K11", by: null }), "Penalty tile K11 · 100");
  assert.equal(penaltyText(view, { seat: 1, amount: 120, reason: "discard_taken", tile: "B6", by: 3 }),
    `Discard taken by ${playerName(view, 3)} · 120`);
  assert.equal(penaltyText(view, { seat: 2, amount: 70, reason: "add", tile: "Y7", by: 0 }), "ayse added Y7 to your meld · 70");
  assert.equal(penaltyText(view, { seat: 2, amount: 30, reason: "playable_discard", tile: "R3", by: null }), "Playable discard R3 · 30");
  assert.equal(penaltyText(view, { seat: 2, amount: 5, reason: "something_new", tile: null, by: null }), "Penalty · 5");
});

test("the viewer's own moves read in the second person, the others' in the third", () => {
  const v = (a) => ({ ...view, last_action: a });
  assert.equal(lastActionText(v({ seat: 0, type: "discard", tile: "R5" })), "You discarded R5");
  assert.equal(lastActionText(v({ seat: 0, type: "draw" })), "You drew a tile");
  assert.equal(lastActionText(v({ seat: 0, type: "take_discard" })), "You took the discard");
  assert.equal(lastActionText(v({ seat: 2, type: "discard", tile: "R5" })), "mehmet discarded");
  assert.equal(lastActionText(v({ seat: 2, type: "open" })), "mehmet opened");
  assert.equal(lastActionText(v({ seat: 0, type: "mystery" })), "");
  assert.equal(lastActionText(v(null)), "");
});
