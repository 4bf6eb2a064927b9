// Run: node --test tests/js/
// One grammar for game records (docs/fair-deals.md §6a): the browser's checker refuses the
// malformed records of tests/fixtures/malformed_records.json with the reason the file names,
// the same file tests/engine/test_record_grammar.py holds the Python checker to.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as fair from "../../static/js/fairdeal.js";

const FIXTURE = JSON.parse(readFileSync(new URL("../fixtures/malformed_records.json", import.meta.url), "utf8"));
const PLACEHOLDER = "@@raw@@";

/** The record text of a fixture case: its whole `text`, or its base with one change. */
function caseText(c) {
  if ("text" in c) return c.text;
  const record = structuredClone(FIXTURE.bases[c.base]);
  const how = ["set", "delete", "upper"].find((k) => k in c);
  if (!how) return JSON.stringify(record);
  const path = c[how].slice(0, -1);
  const last = c[how].at(-1);
  let container = record;
  for (const key of path) container = container[key];
  if (how === "set") container[last] = PLACEHOLDER;
  else if (how === "delete") delete container[last];
  else container[last] = container[last].toUpperCase();
  const text = JSON.stringify(record);
  return how === "set" ? text.replace(JSON.stringify(PLACEHOLDER), () => c.raw) : text;
}

test("the bases verify, so each case fails by its change alone", async () => {
  for (const [name, base] of Object.entries(FIXTURE.bases)) {
    const rounds = await fair.verifyRecord(fair.parseRecordText(JSON.stringify(base)));
    assert.deepEqual(rounds, [{ number: base.rounds[0].number, differences: [] }], name);
  }
});

for (const c of FIXTURE.cases) {
  test(`refused (${c.expect}): ${c.name}`, async () => {
    assert.equal(await fair.recordFault(caseText(c)), c.expect);
  });
}

for (const c of FIXTURE.kept) {
  test(`kept: ${c.name}`, async () => {
    assert.equal(await fair.recordFault(caseText(c)), null);
  });
}

test("JSON.parse alone would take 1.0 for 1 and a repeated key's last value", () => {
  const number = FIXTURE.cases.find((c) => c.name === "a round number written 1.0");
  assert.equal(JSON.parse(caseText(number)).rounds[0].number, 1);
  assert.throws(() => fair.parseRecordText(caseText(number)), (err) => err instanceof fair.RecordError && err.reason === "not_integer");
  const twice = FIXTURE.cases.find((c) => c.name === "format twice");
  assert.equal(JSON.parse(caseText(twice)).format, "okeysite-record-1");
  assert.throws(() => fair.parseRecordText(caseText(twice)), (err) => err.reason === "duplicate_key");
});

test("the reader gives the values JSON.parse gives on a well-formed text", () => {
  const texts = [' {"a": [1, -2, 0, true, false, null, "x\\u00e9\\ud83c\\udc04\\n\\"\\\\/"], "b": {}} ', "[]", '"s"', "-0",
    '{"__proto__": {"x": 1}}', JSON.stringify(FIXTURE.bases["shuffle-1"])];
  for (const text of texts) assert.deepEqual(fair.parseRecordText(text), JSON.parse(text), text);
  assert.ok(Object.hasOwn(fair.parseRecordText('{"__proto__": 1}'), "__proto__"));
});

test("a seed the player types: printable ASCII, 1 to 128 characters, trimmed", () => {
  assert.equal(fair.normaliseClientSeed("  my lucky tile #7 "), "my lucky tile #7");
  assert.equal(fair.normaliseClientSeed("x".repeat(128)).length, 128);
  for (const bad of ["x".repeat(129), "Kübra", "a\tb", "\uffff", "\u{10ffff}", "\u{1fae8}", "\ud800"]) {
    assert.throws(() => fair.normaliseClientSeed(bad), RangeError, JSON.stringify(bad));
  }
});
