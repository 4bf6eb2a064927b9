// The table's fair-deal panel (static/js/table/views/fairdeal.js) driven through TableApp,
// the DOM stand-in and a fake socket: the commitment before the deal, the seed it proposes
// and sends, what it keeps for Verify, and the panel after the deal and after the round.
import { FakeSocket, MemoryStorage, freshRoot } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableApp } from "../../static/js/table/app.js";
import { RULES } from "./rules.mjs";

const COMMITMENT = "d1c27c33d556f8dcb4ead2a3c9c7e203c8a2e878ccd226f4087ef3d4776b3579";
const SERVER_SEED = "0f342b4f25e889c6aa60ab82504113fed6c7160bdac601539cc3ebd4e4602dc1";
const players = [{ name: "dave" }, { name: null, computer: "easy" }, { name: null, computer: "easy" }, { name: null, computer: "easy" }];

function seedingView(seat = 0, extra = {}) {
  return { ruleset: "okey51", seat, status: "playing", round_index: null, players, totals: [0, 0, 0, 0],
    deadline_kind: "seed", deadline: Date.now() + 3000, commitment: null,
    seeding: { round: 1, commitment: COMMITMENT, deadline: Date.now() + 3000, sent: [false, false, false, false] }, ...extra };
}

function dealtView(extra = {}) {
  return { ruleset: "okey51", seat: 0, turn: 0, phase: "discard", status: "playing", round_index: 0, rounds: 1, players,
    rack: ["R1", "R2", "R3"], rack_counts: [15, 14, 14, 14], discards: [[], [], [], []], indicator: "K12", okey: "K13",
    totals: [0, 0, 0, 0], commitment: COMMITMENT, seed: null, deadline_kind: "move", deadline: Date.now() + 30000, ...extra };
}

function start(storage = new MemoryStorage()) {
  const root = freshRoot("7");
  let ws;
  const app = new TableApp(root, { ruleset: "okey51", rules: RULES.okey51, urls: { record: "/table/7/record/" } },
    { socketFactory: () => (ws = new FakeSocket()), storage });
  ws.onopen();
  clearInterval(app.clockTimer);  // the test runs the ticks itself
  return { app, root, ws: () => ws, storage };
}

const q = (root, sel) => root.querySelector(sel);
const kept = (storage) => JSON.parse(storage.getItem("okeysite:fairdeal:7:1"));

/** Run the app's tick as if `ms` had passed. */
function later(app, ms) {
  const realNow = Date.now;
  Date.now = () => realNow() + ms;
  try { app.tick(); } finally { Date.now = realNow; }
}

test("the commitment shows before the deal and an untouched fresh seed goes out by itself", () => {
  const { app, root, ws, storage } = start();
  ws().deliver({ type: "snapshot", version: 1, view: seedingView() });
  assert.equal(q(root, "#fair-deal").dataset.phase, "seeding");
  assert.equal(q(root, "#fd-commitment").textContent, COMMITMENT);
  const proposed = q(root, "#fd-seed").value;
  assert.match(proposed, /^[0-9a-f]{32}$/);
  app.tick();
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 0);  // the player has a moment to change it
  later(app, 1600);
  const sent = ws().sent.filter((f) => f.type === "seed");
  assert.deepEqual(sent, [{ type: "seed", id: "seed-1", round: 1, seed: proposed }]);
  assert.deepEqual(kept(storage), { seat: 0, commitment: COMMITMENT, client_seed: proposed });
  assert.equal(q(root, "#fd-seed").disabled, true);
  later(app, 2500);
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 1);  // once per round
});

test("an edited seed is normalised and sent with Send; a refused one can be corrected", () => {
  const { app, root, ws, storage } = start();
  ws().deliver({ type: "snapshot", version: 1, view: seedingView() });
  const box = q(root, "#fd-seed");
  box.value = "tab\there";
  box.dispatch("input");
  later(app, 1600);
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 0);  // editing: no automatic send
  q(root, "#fd-send").click();
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 0);  // refused here, before the server
  assert.match(q(root, "#fd-seed-state").textContent, /cannot be used/);
  box.value = "  Zoe ~ 7 ";
  q(root, "#fd-send").click();
  assert.deepEqual(ws().sent.filter((f) => f.type === "seed").map((f) => f.seed), ["Zoe ~ 7"]);
  ws().deliver({ type: "seeded", id: "seed-1", round: 1, seed: "Zoe ~ 7" });
  assert.equal(kept(storage).client_seed, "Zoe ~ 7");
  // dealt: the panel keeps the commitment and the seed sent, the server seed is not known yet
  ws().deliver({ type: "snapshot", version: 2, view: dealtView() });
  assert.equal(q(root, "#fair-deal").dataset.phase, "dealt");
  assert.equal(q(root, "#fd-commitment").textContent, COMMITMENT);
  assert.equal(q(root, "#fd-seed").value, "Zoe ~ 7");
  assert.equal(q(root, ".fd-server").hidden, true);
  // over: the revealed server seed and Verify, inside the score table
  const end = { round_index: 0, server_seed: SERVER_SEED, commitment: COMMITMENT, client_seeds: ["Zoe ~ 7", "", "", ""],
    scores: [0, 0, 0, 0], penalties: [0, 0, 0, 0], round_totals: [0, 0, 0, 0], totals: [0, 0, 0, 0], match_over: true };
  ws().deliver({ type: "snapshot", version: 3, view: dealtView({ status: "finished", seed: SERVER_SEED, round_end: end }) });
  assert.equal(q(root, "#fair-deal").dataset.phase, "revealed");
  assert.equal(q(root, "#fd-server-seed").textContent, SERVER_SEED);
  assert.equal(q(root, "#fd-verify").hidden, false);
  assert.equal(q(root, "#fair-deal").parentElement, q(root, ".overlay"));
});

test("a seed the server says it no longer takes stays the seed sent; none sent in time is the empty seed", () => {
  const late = start();
  late.ws().deliver({ type: "snapshot", version: 1, view: seedingView() });
  later(late.app, 1600);
  const sent = kept(late.storage).client_seed;
  late.ws().deliver({ type: "error", id: "seed-1", code: "seed_closed", message: "Seeds for this round are no longer accepted." });
  // the server's word does not rewrite it: a record holding "" for this seat fails Verify
  assert.deepEqual(kept(late.storage), { seat: 0, commitment: COMMITMENT, client_seed: sent });
  assert.match(sent, /^[0-9a-f]{32}$/);
  assert.match(q(late.root, "#fd-seed-state").textContent, /no longer accepted/);

  const slow = start();
  slow.ws().deliver({ type: "snapshot", version: 1, view: seedingView() });
  slow.ws().deliver({ type: "snapshot", version: 2, view: dealtView() });  // dealt before the browser sent one
  assert.deepEqual(kept(slow.storage), { seat: 0, commitment: COMMITMENT, client_seed: "" });
});

test("a spectator sees the commitment and sends no seed", () => {
  const { app, root, ws, storage } = start();
  ws().deliver({ type: "snapshot", version: 1, view: seedingView(null) });
  assert.equal(q(root, "#fd-commitment").textContent, COMMITMENT);
  assert.equal(q(root, ".fd-seed").hidden, true);
  later(app, 5000);
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 0);
  assert.equal(storage.getItem("okeysite:fairdeal:7:1"), null);
});

const TIP = "7e10546db769a6ae8dfa414f5a7d2b6e1320610f4d8bb89f6fe0e296528997a9";
const match = (storage) => JSON.parse(storage.getItem("okeysite:fairdeal:7:match"));

function openView(extra = {}) {
  return { ruleset: "okey51", seat: 0, status: "open", round_index: null, players, totals: [0, 0, 0, 0],
    deadline_kind: null, deadline: null, commitment: null, chain_tip: TIP, ...extra };
}

test("a chained table: the seed goes out at once for the whole match, after the tip, and is kept with its answer", () => {
  const { app, root, ws, storage } = start();
  ws().deliver({ type: "snapshot", version: 1, view: openView() });
  const sent = ws().sent.filter((f) => f.type === "seed");
  assert.equal(sent.length, 1);
  assert.deepEqual(sent[0], { type: "seed", id: "seed-1", round: 1, seed: sent[0].seed });
  assert.match(sent[0].seed, /^[0-9a-f]{32}$/);
  assert.deepEqual(match(storage), { seat: 0, chain_tip: TIP, client_seed: sent[0].seed, seeded: null });
  assert.equal(q(root, "#fd-commitment").textContent, TIP);
  assert.equal(q(root, "#fd-seed").value, sent[0].seed);
  ws().deliver({ type: "seeded", id: "seed-1", round: 1, seed: sent[0].seed });
  assert.equal(match(storage).seeded, sent[0].seed);
  later(app, 5000);
  ws().deliver({ type: "snapshot", version: 2, view: openView() });
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 1);  // once per match
  // the start's window for a seat that has sent its seed: nothing more goes out
  ws().deliver({ type: "snapshot", version: 3, view: seedingView(0, { chain_tip: TIP,
    seeding: { round: 1, commitment: COMMITMENT, deadline: Date.now() + 3000, sent: [true, false, false, false], chain_tip: TIP } }) });
  later(app, 5000);
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 1);
  // the server refusing it later changes nothing kept
  ws().deliver({ type: "error", id: "seed-1", code: "seed_closed", message: "closed" });
  assert.deepEqual(match(storage), { seat: 0, chain_tip: TIP, client_seed: sent[0].seed, seeded: sent[0].seed });
});

test("a chained table: until the match starts the player may send a seed of their own in place of the browser's", () => {
  const { root, ws, storage } = start();
  ws().deliver({ type: "snapshot", version: 1, view: openView() });
  const [auto] = ws().sent.filter((f) => f.type === "seed");
  const box = q(root, "#fd-seed");
  assert.equal(box.disabled, false);
  assert.equal(q(root, "#fd-send").hidden, false);
  box.value = "café";  // outside the seed grammar: refused here, nothing goes out
  box.dispatch("input");
  q(root, "#fd-send").click();
  assert.equal(ws().sent.filter((f) => f.type === "seed").length, 1);
  assert.match(q(root, "#fd-seed-state").textContent, /cannot be used/);
  ws().deliver({ type: "snapshot", version: 2, view: openView() });  // another player sits down meanwhile
  assert.equal(box.value, "café");  // what the player is typing stays
  box.value = "  my lucky seed 42 ";
  q(root, "#fd-send").click();
  const sent = ws().sent.filter((f) => f.type === "seed");
  assert.deepEqual(sent.at(-1), { type: "seed", id: "seed-1", round: 1, seed: "my lucky seed 42" });
  assert.deepEqual(match(storage), { seat: 0, chain_tip: TIP, client_seed: "my lucky seed 42", seeded: null });
  // the answer to the browser's first seed arrives late: it is not the seed kept
  ws().deliver({ type: "seeded", id: "seed-1", round: 1, seed: auto.seed });
  assert.equal(match(storage).seeded, null);
  ws().deliver({ type: "seeded", id: "seed-1", round: 1, seed: "my lucky seed 42" });
  assert.equal(match(storage).seeded, "my lucky seed 42");
  // the match starts: the seed is fixed
  ws().deliver({ type: "snapshot", version: 3, view: dealtView({ chain_tip: TIP }) });
  assert.equal(q(root, "#fd-send").hidden, true);
  assert.equal(box.disabled, true);
  assert.equal(box.value, "my lucky seed 42");
});

test("a solo page that arrives in the start's window sends its seed at once", () => {
  const { ws, storage } = start();
  ws().deliver({ type: "snapshot", version: 1, view: seedingView(0, { chain_tip: TIP,
    seeding: { round: 1, commitment: COMMITMENT, deadline: Date.now() + 120000, sent: [false, false, false, false], chain_tip: TIP } }) });
  const sent = ws().sent.filter((f) => f.type === "seed");
  assert.equal(sent.length, 1);
  assert.equal(match(storage).client_seed, sent[0].seed);
});

test("Verify reads the downloaded record with the record grammar: 1.0 for a round number is refused, not verified", async () => {
  const { root, ws } = start();
  const end = { round_index: 0, server_seed: SERVER_SEED, commitment: COMMITMENT, client_seeds: ["", "", "", ""],
    scores: [0, 0, 0, 0], penalties: [0, 0, 0, 0], round_totals: [0, 0, 0, 0], totals: [0, 0, 0, 0], match_over: true };
  ws().deliver({ type: "snapshot", version: 3, view: dealtView({ status: "finished", seed: SERVER_SEED, round_end: end }) });
  const realFetch = globalThis.fetch;
  const record = '{"format": "okeysite-record-1", "ruleset": "okey51", "table_id": "7", "players": [], "rounds": [{"number": 1.0}]}';
  globalThis.fetch = async () => ({ ok: true, text: async () => record, json: async () => JSON.parse(record) });
  try {
    q(root, "#fd-verify").click();
    for (let k = 0; k < 50 && !/malformed|could not/.test(q(root, "#fd-result").textContent); k++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.match(q(root, "#fd-result").textContent, /malformed \(not_integer\)/);
  assert.match(q(root, "#fd-result").className, /bad/);
});
