// The rule facts of each ruleset as the server sends them (table_config.rules, from
// Ruleset.client_rules): read from the fixtures tools/meld_verdicts.py writes, which a
// Python test keeps equal to the engine's. The client tests build their tables with them.
import { readFileSync } from "node:fs";

/** The fixture of `ruleset`: {ruleset, rules, seed, count, fields, cases}. */
export function verdictFixture(ruleset) {
  return JSON.parse(readFileSync(new URL(`./fixtures/meld_verdicts_${ruleset}.json`, import.meta.url), "utf8"));
}

/** {okey51, okey17, rami}: each ruleset's client rules. */
export const RULES = Object.fromEntries(["okey51", "okey17", "rami"].map((r) => [r, verdictFixture(r).rules]));
