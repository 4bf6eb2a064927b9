// TableApp driven through the DOM stand-in (dom-shim.mjs) and a fake socket.
import { FakeSocket, MemoryStorage, freshRoot } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableApp } from "../../static/js/table/app.js";
import { RULES } from "./rules.mjs";

const RACK = ["K1", "R2", "B7", "R1", "Y7", "R3", "K12", "R10", "B2", "K7", "Y4", "J", "B9", "Y13"];
const players = [{ name: "dave" }, { name: null, computer: "strong" }, { name: null, computer: "strong" }, { name: null, computer: "strong" }];

function ramiView(extra = {}) {
  return { seat: 0, turn: 0, status: "playing", round_index: 0, rounds: 4, rack: [...RACK], table: [],
    rack_counts: [14, 14, 14, 14], opened: ["no", "no", "no", "no"], players, pile_count: 50,
    threshold: 30, deadline: Date.now() + 60000, deadline_kind: "move", ...extra };
}

function start(ruleset, storage = new MemoryStorage(), tableId = "7") {
  const root = freshRoot(tableId);
  let ws;
  const app = new TableApp(root, { ruleset, rules: RULES[ruleset] }, { socketFactory: () => (ws = new FakeSocket()), storage });
  ws.onopen();
  return { app, root, ws: () => ws, storage };
}

const q = (root, sel) => root.querySelector(sel);
const rackTiles = (root) => root.querySelectorAll("#rack .slot").map((s) => (s.children[0] ? s.children[0].dataset.tile : null));

test("rami undo puts the rack back as the player saw it at the start of the turn, also after a reload", () => {
  const { app, root, ws, storage } = start("rami");
  ws().deliver({ type: "snapshot", version: 1, view: ramiView() });
  const before = rackTiles(root);
  // the first sort packs the runs side by side: R1 R2 R3 in neighbouring slots
  const r1 = before.indexOf("R1");
  assert.deepEqual(before.slice(r1, r1 + 3), ["R1", "R2", "R3"]);
  for (const t of ["R1", "R2", "R3"]) q(root, `#rack .tile[data-tile="${t}"]`).click();
  q(root, "#new-meld").click();
  assert.equal(q(root, `#rack .tile[data-tile="R1"]`), null);
  assert.equal(root.querySelectorAll(".rami-meld .tile").length, 3);
  q(root, "#undo-turn").click();
  assert.deepEqual(rackTiles(root), before);
  assert.equal(root.querySelectorAll(".rami-meld").length, 0);
  // lay again, reload the page mid-turn: the undo still knows the turn's first rack
  for (const t of ["B7", "K7", "Y7"]) q(root, `#rack .tile[data-tile="${t}"]`).click();
  q(root, "#new-meld").click();
  clearInterval(app.clockTimer);
  const again = start("rami", storage);
  again.ws().deliver({ type: "snapshot", version: 1, view: ramiView() });
  assert.equal(again.root.querySelectorAll(".rami-meld .tile").length, 3);
  q(again.root, "#undo-turn").click();
  assert.deepEqual(rackTiles(again.root), before);
  clearInterval(again.app.clockTimer);
});

test("a suspended frame replaces the turn banner, stops the clock and disables every control", () => {
  const { app, root, ws } = start("okey51");
  const view = { ...ramiView(), phase: "draw", indicator: "R4", okey: "R5", discards: [[], [], [], ["B3"]], rack: RACK.slice(0, 14) };
  ws().deliver({ type: "snapshot", version: 1, view });
  assert.ok(q(root, "#turn-status").classList.contains("my-turn"));
  assert.notEqual(q(root, "#clock").textContent, "");
  const reason = "Your account is suspended until 5 December 2026: insults in chat.";
  ws().deliver({ type: "error", code: "suspended", message: reason });
  ws().shut(4403);
  const turn = q(root, "#turn-status");
  assert.equal(turn.textContent, reason);                 // not replaced by the generic 4403 text
  assert.ok(!turn.classList.contains("my-turn"));
  assert.ok(root.classList.contains("blocked"));
  assert.equal(q(root, "#clock").textContent, "");
  const buttons = root.querySelectorAll("button, input");
  assert.ok(buttons.length > 5);
  assert.deepEqual(buttons.filter((b) => !b.disabled).map((b) => b.id), []);
  // a late snapshot does not bring the controls back, and nothing is sent any more
  ws().deliver({ type: "snapshot", version: 2, view });
  assert.equal(q(root, "#turn-status").textContent, reason);
  assert.deepEqual(root.querySelectorAll("button").filter((b) => !b.disabled).map((b) => b.id), []);
  const sent = ws().sent.length;
  app.gesture({ type: "draw" });
  assert.equal(ws().sent.length, sent);
});

test("4404 and 4401 closes and a closed table say why and grey the table", () => {
  for (const [code, text] of [[4404, "This table does not exist any more."], [4401, "You are signed out. Sign in again to play at this table."]]) {
    const { root, ws } = start("rami");
    ws().deliver({ type: "snapshot", version: 1, view: ramiView() });
    ws().shut(code);
    assert.equal(q(root, "#turn-status").textContent, text);
    assert.ok(root.classList.contains("blocked"));
    assert.equal(q(root, "#clock").textContent, "");
  }
  const { app, root, ws } = start("rami");
  ws().deliver({ type: "snapshot", version: 1, view: ramiView({ status: "closed" }) });
  assert.equal(q(root, "#turn-status").textContent, "This table is closed.");
  assert.ok(root.classList.contains("blocked"));
  assert.ok(q(root, "#submit-play").disabled);
  clearInterval(app.clockTimer);
});

test("the match-over card of an individual match has no stray text before Back to the lobby", () => {
  const { app, root, ws } = start("okey51");
  const view = { ...ramiView(), status: "finished", turn: null, totals: [415, 1500, 290, 300], options: {}, discards: [[], [], [], []] };
  ws().deliver({ type: "snapshot", version: 9, view });
  const card = q(root, "#match-over");
  assert.equal(card.hidden, false);
  assert.ok(!card.textContent.includes("null"), card.textContent);
  assert.deepEqual(card.children.map((c) => c.tagName), ["H2", "OL", "DIV"]);
  assert.ok(q(root, "#back-to-lobby"));
  // the card can be closed
  q(root, "#match-over-close").click();
  assert.equal(q(root, "#match-over").hidden, true);
  clearInterval(app.clockTimer);
});

test("before the deal the seats are listed once: above the table, not again as seat cards", () => {
  const { app, root, ws } = start("okey51");
  const pre = document.createElement("div");
  pre.id = "prestart";
  const list = document.createElement("ul");
  list.id = "prestart-seats";
  pre.append(list);
  document.body.append(pre);
  const view = { seat: null, turn: null, status: "open", players: [{ name: "alice" }, { empty: true }, { empty: true }, { empty: true }] };
  ws().deliver({ type: "snapshot", version: 1, view });
  assert.equal(list.children.length, 4);
  assert.equal(q(root, "#opponents").hidden, true);
  clearInterval(app.clockTimer);
});

test("okey17's opening line names the pairs", () => {
  const { app, root, ws } = start("okey17");
  const view = { ...ramiView(), phase: "play", indicator: "R4", okey: "R5", discards: [[], [], [], []], pairs_threshold: 27,
    rack: ["B1", "B1", "K9", "Y2", "R12", "K3", "Y8", "B11", "R7", "K13", "Y6", "B5", "R9", "K5", "Y12"] };
  ws().deliver({ type: "snapshot", version: 1, view });
  const text = q(root, ".pairs-total").textContent;
  assert.match(text, /^Pairs: \d+ pairs?, \d+ of 27 points$/);
  clearInterval(app.clockTimer);
});

test("one action at a time: taps while this browser's action is unanswered send nothing and say nothing", () => {
  const { app, root, ws } = start("okey51");
  const view = { ...ramiView(), phase: "draw", indicator: "R4", okey: "R5", discards: [[], [], [], ["B3"]], rack: RACK.slice(0, 14) };
  const actions = () => ws().sent.filter((f) => f.type === "action");
  ws().deliver({ type: "snapshot", version: 1, view });
  q(root, "#pile").click();
  q(root, "#pile").click();                          // a double tap on the pile
  assert.deepEqual(actions().map((f) => f.action.type), ["draw"]);
  // any other action waits for the answer too
  q(root, `#rack .tile[data-tile="${RACK[0]}"]`).click();
  q(root, "#discard-btn").click();
  assert.equal(actions().length, 1);
  assert.equal(q(root, "#error-box").textContent, "");
  // acknowledged, but the tap before the version it made would still be stale
  ws().deliver({ type: "ack", id: actions()[0].id, version: 2 });
  q(root, "#pile").click();
  assert.equal(actions().length, 1);
  ws().deliver({ type: "snapshot", version: 2, view: { ...view, version: 2, phase: "play", rack: [...RACK.slice(0, 14), "Y9"] } });
  q(root, `#rack .tile[data-tile="Y9"]`).click();
  q(root, "#discard-btn").click();
  assert.deepEqual(actions().map((f) => [f.action.type, f.version]), [["draw", 1], ["discard", 2]]);
  // a refusal answers too; a lost connection forgets what it never answered
  ws().deliver({ type: "error", id: actions()[1].id, code: "playable_discard", message: "No." });
  q(root, "#discard-btn").click();
  assert.equal(actions().length, 3);
  ws().shut(1006);
  assert.deepEqual(app.state.pending, {});
  clearInterval(app.clockTimer);
});

test("the match-over standings give tied players one place, as the match page does, and those who left the last", () => {
  const { app, root, ws } = start("okey51");
  const view = { ...ramiView(), status: "finished", turn: null, totals: [500, 5, 500, 500], options: {}, discards: [[], [], [], []],
    round_end: { totals: [500, 5, 500, 500], standings: [1, 0, 2, 3], left: [] } };
  ws().deliver({ type: "snapshot", version: 9, view });
  const lines = root.querySelectorAll("#match-over ol.standings li");
  assert.deepEqual(lines.map((li) => li.dataset.seat), ["1", "0", "2", "3"]);
  assert.deepEqual(lines.map((li) => li.getAttribute("value")), ["1", "2", "2", "2"]);
  clearInterval(app.clockTimer);

  // rami: the highest total first; a player who left is last whatever their total
  const rami = start("rami");
  rami.ws().deliver({ type: "snapshot", version: 9, view: { ...ramiView(), status: "finished", turn: null,
    totals: [120, 300, 120, 400], round_end: { totals: [120, 300, 120, 400], standings: [1, 0, 2, 3], left: [3] } } });
  const ramiLines = rami.root.querySelectorAll("#match-over ol.standings li");
  assert.deepEqual(ramiLines.map((li) => [li.dataset.seat, li.getAttribute("value")]), [["1", "1"], ["0", "2"], ["2", "2"], ["3", "3"]]);
  clearInterval(rami.app.clockTimer);
});

test("in okey51 team play both players of a team share its place", () => {
  const { app, root, ws } = start("okey51");
  const view = { ...ramiView(), status: "finished", turn: null, totals: [100, 50, 60, 200], options: { teams: true },
    discards: [[], [], [], []], round_end: { totals: [100, 50, 60, 200], standings: [0, 2, 1, 3], left: [] } };
  ws().deliver({ type: "snapshot", version: 9, view });
  // the players' list (the teams' own list follows it)
  const lines = root.querySelectorAll("#match-over ol.standings li").filter((li) => li.dataset.seat !== undefined);
  assert.deepEqual(lines.map((li) => [li.dataset.seat, li.getAttribute("value")]), [["0", "1"], ["2", "1"], ["1", "2"], ["3", "2"]]);
  clearInterval(app.clockTimer);
});

test("before the start a seated player who is not the creator reads who starts the match; the creator does not", () => {
  const { app, root, ws } = start("okey51");
  const view = { seat: 1, turn: null, status: "open", creator_seat: 0,
    players: [{ name: "alice" }, { name: "bob" }, { empty: true }, { empty: true }] };
  ws().deliver({ type: "snapshot", version: 1, view });
  assert.equal(q(root, "#turn-status").textContent, "Waiting for alice to start the match");
  ws().deliver({ type: "snapshot", version: 2, view: { ...view, seat: 0 } });
  assert.equal(q(root, "#turn-status").textContent, "Waiting for the match to start");
  clearInterval(app.clockTimer);
});
