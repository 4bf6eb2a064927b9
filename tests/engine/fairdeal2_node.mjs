// The browser half of tests/engine/test_fairdeal_chain.py: one JSON query per line on stdin,
// static/js/fairdeal.js's okeysite-shuffle-2 answer as one JSON line on stdout.
import { createInterface } from "node:readline";
import * as fair from "../../static/js/fairdeal.js";

async function answer(q) {
  if (q.op === "verify") {
    const differences = await fair.verifyRound(q.round, q.header, q.seen ?? null);
    return { differences, lines: differences.map(fair.describe) };
  }
  if (q.op === "chain") return { chain: await fair.chain(q.last, q.length) };
  const seed = await fair.dealSeed2(q.server_seed, q.round, q.table_id, q.chain_tip, q.client_seeds, q.kinds);
  return {
    message_hex: Buffer.from(fair.dealMessage2(q.round, q.table_id, q.chain_tip, q.client_seeds, q.kinds)).toString("hex"),
    deal_seed: seed,
    layout: await fair.layout(q.ruleset, q.players, q.first, seed),
  };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim()) console.log(JSON.stringify(await answer(JSON.parse(line))));
}
