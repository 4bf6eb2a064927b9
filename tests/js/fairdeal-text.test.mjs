// The match and replay pages say every difference of verifyRound() in words (fairdeal-text.js):
// each code the checker can report has its own sentence, seats counted from 1.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MESSAGES, verifyRound } from "../../static/js/fairdeal.js";
import { differenceText, verifiedText } from "../../static/js/fairdeal-text.js";

test("every difference code has its own sentence", () => {
  for (const code of Object.keys(MESSAGES)) {
    const text = differenceText({ code, seat: 2, expected: "R5", recorded: "K7", missing: ["R5"], extra: ["K7"],
      index: 0, expected_count: 48, recorded_count: 48, detail: "why" });
    assert.ok(!text.startsWith("Unexpected difference"), code);
    assert.ok(!/%\(\w+\)s/.test(text), `${code}: ${text}`);
  }
  assert.match(differenceText({ code: "nope" }), /^Unexpected difference nope/);
  assert.match(verifiedText(), /^Verified/);
});

test("seats are counted from 1 and tiles listed", () => {
  assert.equal(differenceText({ code: "rack", seat: 0, missing: ["R5", "B1"], extra: [] }),
    "The rack of seat 1 differs: dealt R5 B1 but not recorded; recorded nothing but not dealt.");
  assert.equal(differenceText({ code: "pile", index: 0, expected: "R4", recorded: "Y4", expected_count: 48,
    recorded_count: 48 }), "The pile differs from tile 1 on: expected R4, recorded Y4 (48 tiles expected, 48 recorded).");
});

test("a legacy round is said to be dealt before verifiable deals", async () => {
  const differences = await verifyRound({ number: 1, shuffle: "okeysite-legacy", first: 0, commitment: "c",
    server_seed: "s", client_seeds: [], initial: {} }, { ruleset: "okey51", table_id: "1", players: [{}, {}] });
  assert.deepEqual(differences, [{ code: "legacy" }]);
  assert.match(differenceText(differences[0]), /^Dealt before verifiable deals/);
});
