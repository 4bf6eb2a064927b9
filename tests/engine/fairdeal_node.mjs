// The cross-implementation half of tests/engine/test_fairdeal.py: reads one JSON query per
// line on stdin and prints static/js/fairdeal.js's answer as one JSON line, so that the
// Python test can compare the two implementations on the same inputs.
import { createInterface } from "node:readline";
import * as fair from "../../static/js/fairdeal.js";

async function answer(q) {
  if (q.op === "normalise") {
    try {
      return { output: fair.normaliseClientSeed(q.input) };
    } catch (err) {
      return { error: err.message };
    }
  }
  if (q.op === "verify") {
    const differences = await fair.verifyRound(q.round, q.header, q.seen ?? null);
    return { differences, lines: differences.map(fair.describe) };
  }
  const seed = await fair.dealSeed(q.server_seed, q.round, q.table_id, q.client_seeds);
  const { rejected } = await fair.swapIndices(fair.tileSet(q.ruleset, q.players).length, seed);
  return {
    commitment: await fair.commitment(q.server_seed),
    deal_seed: seed,
    stream_hex: Buffer.from(await fair.streamBytes(seed, 40)).toString("hex"),
    rejected,
    layout: await fair.layout(q.ruleset, q.players, q.first, seed),
  };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim()) console.log(JSON.stringify(await answer(JSON.parse(line))));
}
