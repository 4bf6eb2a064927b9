// Reads JSON lines {ruleset, tiles, okey} on stdin, prints analyse() results as JSON lines.
import { analyse } from "../../static/js/table/melds.js";
import { createInterface } from "node:readline";
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const q = JSON.parse(line);
  console.log(JSON.stringify(analyse(q.ruleset, q.tiles, q.okey)));
}
