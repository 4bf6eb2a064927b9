// Only the controllers pick behaviour by ruleset id (static/js/table/README.md): every
// other module of the table client reads the rules from state.rules, the facts the server
// sends from the ruleset objects. A ruleset id written in one of them would be a second
// copy of the rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";

const ROOT = new URL("../../static/js/table/", import.meta.url);

function modules(dir, prefix = "") {
  return readdirSync(dir).flatMap((name) => {
    const path = new URL(name, dir);
    if (statSync(path).isDirectory()) return name === "controllers" ? [] : modules(new URL(`${name}/`, dir), `${prefix}${name}/`);
    return name.endsWith(".js") ? [[`${prefix}${name}`, readFileSync(path, "utf8")]] : [];
  });
}

test("no module outside controllers/ names a ruleset id or compares one", () => {
  const found = [];
  for (const [name, source] of modules(ROOT)) {
    // comments may name a ruleset (RULES.md sections do); code may not
    const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:])\/\/.*$/gm, "$1");
    for (const m of code.matchAll(/["'`](okey51|okey17|rami)["'`]|\bruleset\s*[!=]==?/g)) found.push(`${name}: ${m[0]}`);
  }
  // app.js hands the configured id to controllerFor, with the server's default
  assert.deepEqual(found, ['app.js: "okey51"']);
});

test("the meld reader, sorting, tiles and scores take the rules, not a ruleset id", async () => {
  const { analyse } = await import("../../static/js/table/melds.js");
  assert.throws(() => analyse("rami", ["R5", "R6", "R7"], null));
});
