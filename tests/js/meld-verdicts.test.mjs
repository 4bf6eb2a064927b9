// The client's meld reader against the engine (one rule book): every `meld` vector of the
// shared conformance files and of the engine's own vectors, and the engine's verdicts on
// 10,000 random selections per ruleset (tools/meld_verdicts.py writes them; a Python test
// checks they are still what the engine says). The reader gets its rules from the
// fixture's `rules`, which is what the table page sends as table_config.rules.
// Run: node --test tests/js/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { analyse, classify } from "../../static/js/table/melds.js";
import { okeyOf } from "../../static/js/table/tiles.js";
import { RULES, verdictFixture } from "./rules.mjs";

const DIRS = [new URL("../../../shared/conformance/", import.meta.url), new URL("../engine/vectors/", import.meta.url)];

function meldVectors(dir) {
  return readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().flatMap((f) =>
    readFileSync(new URL(f, dir), "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l))
      .filter((v) => v.kind === "meld").map((v) => ({ ...v, file: f })));
}

const brief = (m) => (m ? { valid: true, type: m.type, points: m.points } : { valid: false });

for (const dir of DIRS) {
  test(`every meld vector of ${dir.pathname.split("/").slice(-3, -1).join("/")} reads as the engine says`, () => {
    const vectors = meldVectors(dir);
    assert.ok(vectors.length >= 5, `${vectors.length} meld vectors`);
    const wrong = [];
    for (const v of vectors) {
      const got = brief(classify(RULES[v.ruleset], v.tiles, v.indicator ? okeyOf(v.indicator) : null));
      if (JSON.stringify(got) !== JSON.stringify(v.expect)) wrong.push(`${v.file} ${v.id}: ${JSON.stringify(got)} != ${JSON.stringify(v.expect)}`);
    }
    assert.deepEqual(wrong, []);
  });
}

for (const ruleset of Object.keys(RULES)) {
  test(`${ruleset}: 10,000 random selections, as written and as arranged on the rack, read as the engine says`, () => {
    const data = verdictFixture(ruleset);
    assert.equal(data.ruleset, ruleset);
    assert.deepEqual(data.fields, ["tiles", "indicator", "meld", "rack"]);
    assert.ok(data.cases.length >= 10000);
    const rules = data.rules;
    const wrong = [];
    for (const [tiles, indicator, meld, rack] of data.cases) {
      const okey = indicator ? okeyOf(indicator) : null;
      const m = classify(rules, tiles, okey);
      const gotMeld = m ? [m.type, m.points] : null;
      if (JSON.stringify(gotMeld) !== JSON.stringify(meld)) wrong.push(`written ${tiles.join(" ")} (${indicator}): ${JSON.stringify(gotMeld)} != ${JSON.stringify(meld)}`);
      const a = analyse(rules, tiles, okey);
      const gotRack = a.valid ? [a.type, a.points, a.written] : null;
      if (JSON.stringify(gotRack) !== JSON.stringify(rack)) wrong.push(`rack ${tiles.join(" ")} (${indicator}): ${JSON.stringify(gotRack)} != ${JSON.stringify(rack)}`);
    }
    assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} disagreements`);
    // the selections reach every kind of verdict, valid and not
    const kinds = new Set(data.cases.flatMap(([, , meld, rack]) => [meld ? meld[0] : "invalid", rack ? rack[0] : "invalid"]));
    assert.deepEqual([...kinds].sort(), (rules.meld.pairs ? ["group", "invalid", "pair", "run"] : ["group", "invalid", "run"]));
  });
}
