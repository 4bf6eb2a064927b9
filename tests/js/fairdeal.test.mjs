// Run: node --test tests/js/
// static/js/fairdeal.js against the vectors of docs/fair-deals.md (the file the Python tests read too)
// and the example game records of docs/game-record.md.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as fair from "../../static/js/fairdeal.js";

const read = (name) => JSON.parse(readFileSync(new URL(`../engine/vectors/${name}`, import.meta.url), "utf8"));
const SPEC = read("fairdeal.json");
const hex = (bytes) => Buffer.from(bytes).toString("hex");

test("the vectors are for this algorithm", () => {
  assert.equal(SPEC.algorithm, fair.ALGORITHM);
  assert.ok(SPEC.deals.length >= 5);
});

test("commitments are sha256 of the server seed's 64 characters", async () => {
  for (const v of SPEC.commitments) assert.equal(await fair.commitment(v.server_seed), v.commitment);
});

test("client seeds are normalised or refused as the vectors say", () => {
  for (const v of SPEC.client_seeds) {
    if ("error" in v) assert.throws(() => fair.normaliseClientSeed(v.input), RangeError, v.error);
    else assert.equal(fair.normaliseClientSeed(v.input), v.output, JSON.stringify(v.input));
  }
});

for (const v of SPEC.deals) {
  test(`deal vector: ${v.name}`, async () => {
    assert.equal(hex(fair.dealMessage(v.round, v.table_id, v.client_seeds)), v.message_hex);
    const seed = await fair.dealSeed(v.server_seed, v.round, v.table_id, v.client_seeds);
    assert.equal(seed, v.deal_seed);
    assert.equal(hex(await fair.streamBytes(seed, 64)), v.stream_hex);
    const tiles = fair.tileSet(v.ruleset, v.players);
    const { js, rejected } = await fair.swapIndices(tiles.length, seed);
    assert.deepEqual(js, v.swaps);
    assert.deepEqual(rejected, v.rejected);
    assert.deepEqual(await fair.shuffle(tiles, seed), v.shuffled);
    assert.deepEqual(await fair.layout(v.ruleset, v.players, v.first, seed), v.layout);
  });
}

test("a shuffle leaves its input alone", async () => {
  const tiles = fair.tileSet("rami", 6);
  const before = [...tiles];
  const shuffled = await fair.shuffle(tiles, SPEC.deals[0].deal_seed);
  assert.deepEqual(tiles, before);
  assert.notDeepEqual(shuffled, before);
  assert.deepEqual([...shuffled].sort(), [...before].sort());
});

test("the set before the shuffle has the documented sizes (D-1)", () => {
  assert.equal(fair.tileSet("okey51", 4).length, 106);
  assert.equal(fair.tileSet("okey17", 2).filter((t) => t === "F").length, 2);
  assert.equal(fair.tileSet("rami", 4).length, 106);
  assert.equal(fair.tileSet("rami", 5).length, 160);
  assert.equal(fair.tileSet("rami", 6).filter((t) => t === "J").length, 4);
  assert.deepEqual(fair.tileSet("okey51", 2).slice(0, 5), ["R1", "R1", "R2", "R2", "R3"]);
});

test("bad inputs are refused with a clear error", async () => {
  const s = "a".repeat(64);
  await assert.rejects(fair.dealSeed("A".repeat(64), 1, "1", ["", ""]), /server seed/);
  await assert.rejects(fair.dealSeed(s, 0, "1", ["", ""]), /round number/);
  await assert.rejects(fair.dealSeed(s, 2 ** 32, "1", ["", ""]), /round number/);
  await assert.rejects(fair.dealSeed(s, 1, 42, ["", ""]), /table id/);
  await assert.rejects(fair.dealSeed(s, 1, "t/1", ["", ""]), /table id/);
  await assert.rejects(fair.dealSeed(s, 1, "1", [""]), /2 to 6 client seeds/);
  await assert.rejects(fair.dealSeed(s, 1, "1", ["a\u0007", ""]), /seat 0 is refused \(a client seed may not hold U\+0007\)/);
  await assert.rejects(fair.dealSeed(s, 1, "1", ["", "a\tb"]), /seat 1 is refused \(a client seed may not hold U\+0009\)/);
  await assert.rejects(fair.shuffle(["R1"], "00"), /deal seed/);
  assert.throws(() => fair.tileSet("chess", 4), RangeError);
  assert.throws(() => fair.tileSet("okey51", 5), RangeError);
  assert.throws(() => fair.arrange("rami", 6, 0, fair.tileSet("rami", 4)), /not the rami set/);
  assert.throws(() => fair.arrange("okey17", 4, 4, fair.tileSet("okey17", 4)), /first must be a seat/);
});

test("fresh seeds have the documented shape", () => {
  const servers = new Set(Array.from({ length: 20 }, fair.serverSeed));
  const clients = new Set(Array.from({ length: 20 }, fair.clientSeed));
  assert.equal(servers.size, 20);
  assert.equal(clients.size, 20);
  for (const s of servers) assert.match(s, /^[0-9a-f]{64}$/);
  for (const s of clients) {
    assert.match(s, /^[0-9a-f]{32}$/);
    assert.equal(fair.normaliseClientSeed(s), s);
  }
});

test("the example record verifies", async () => {
  const results = await fair.verifyRecord(read("record-verified.json"));
  assert.deepEqual(results, [{ number: 1, differences: [] }]);
});

test("the tampered example names the seat, the tiles and the pile position", async () => {
  const [{ number, differences }] = await fair.verifyRecord(read("record-tampered.json"));
  assert.equal(number, 1);
  assert.deepEqual(differences.map(fair.describe), [
    "seat 2 rack differs: dealt Y4 not recorded, recorded R4 not dealt",
    "pile differs from position 0: expected R4, recorded Y4 (48 tiles expected, 48 recorded)",
  ]);
});

test("a round is checked for its commitment, its seeds and its algorithm", async () => {
  const record = read("record-verified.json");
  const round = record.rounds[0];
  const codes = async (changed, header = record) => (await fair.verifyRound({ ...round, ...changed }, header)).map((d) => d.code);
  assert.deepEqual(await codes({ commitment: "0".repeat(64) }), ["commitment"]);
  assert.deepEqual(await codes({ shuffle: "okeysite-shuffle-3" }), ["unknown_shuffle"]);
  assert.deepEqual(await codes({ shuffle: "okeysite-shuffle-2" }), ["bad_record"]);  // a chained round names its tip
  assert.deepEqual(await codes({ server_seed: null }), ["not_revealed"]);
  assert.deepEqual(await codes({ server_seed: "nope" }), ["bad_server_seed"]);
  assert.deepEqual(await codes({ client_seeds: ["", ""] }), ["client_seed_count"]);
  assert.deepEqual(await codes({ client_seeds: [" x", "", "", ""] }), ["bad_client_seed"]);
  // a computer's seed would be the server's choice: it could try seeds until a deal suits it
  const withSeed = await codes({ client_seeds: [round.client_seeds[0], "mine", "", ""] });
  assert.ok(withSeed.includes("computer_seed") && withSeed.includes("rack"));
  assert.ok((await codes({}, { ...record, table_id: "1043" })).includes("rack"));
  assert.deepEqual(await codes({}, { ...record, ruleset: "chess" }), ["bad_record"]);
  assert.deepEqual(await codes({ initial: [] }), ["bad_record"]);
});

test("a browser checks the commitment it was shown and the seed it sent", async () => {
  const record = read("record-verified.json");
  const round = record.rounds[0];
  const seen = { seat: 0, commitment: round.commitment, client_seed: round.client_seeds[0] };
  assert.deepEqual(await fair.verifyRound(round, record, seen), []);
  const other = await fair.verifyRound(round, record, { ...seen, commitment: "0".repeat(64), client_seed: "x" });
  assert.deepEqual(other.map(fair.describe), [
    `commitment differs from the one shown before the deal: shown ${"0".repeat(64)}, recorded ${round.commitment}`,
    `client seed of seat 0 differs from the one sent: sent x, recorded ${round.client_seeds[0]}`,
  ]);
});

test("a record that is not a game record is refused", async () => {
  await assert.rejects(fair.verifyRecord({ format: "okeysite-record-0", rounds: [] }), /not an okeysite-record-1/);
  await assert.rejects(fair.verifyRecord({ format: "okeysite-record-1" }), /no rounds list/);
});
