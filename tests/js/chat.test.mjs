// The table chat panel through TableApp on the DOM stand-in and a fake socket: what a
// spectator is offered, and where the answers to chat lines and reports show.
import { FakeSocket, MemoryStorage, freshRoot } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableApp } from "../../static/js/table/app.js";
import { RULES } from "./rules.mjs";

const players = [{ name: "dave" }, { name: "ayse" }, { name: null, computer: "easy" }, { name: null, computer: "easy" }];

function okeyView(extra = {}) {
  return { ruleset: "okey51", seat: 0, turn: 1, phase: "draw", status: "playing", round_index: 0, rounds: 1,
    rack: ["R1", "R2", "R3", "K5", "K6", "K7", "B9", "B10", "B11", "Y1", "Y2", "Y3", "R13", "B13", "K13", "Y13", "R8", "B8", "K8", "Y8", "R7"],
    rack_counts: [21, 21, 21, 21], opened: ["no", "no", "no", "no"], players, pile_count: 40,
    discards: [[], [], [], []], indicator: "R4", okey: "R5", table: [], totals: [0, 0, 0, 0], penalty: [0, 0, 0, 0],
    deadline: Date.now() + 60000, deadline_kind: "move", moves: [], ...extra };
}

function start(seat, username) {
  const root = freshRoot("11");
  let ws;
  const app = new TableApp(root, { ruleset: "okey51", rules: RULES.okey51, seat, username },
    { socketFactory: () => (ws = new FakeSocket()), storage: new MemoryStorage() });
  ws.onopen();
  return { app, root, ws: () => ws };
}

const q = (root, sel) => root.querySelector(sel);
const history = { type: "chat_history", lines: [{ id: 1, user: "ayse", name: "ayse", text: "iyi oyunlar", at: null }] };

test("a spectator reads the chat and the rule, without a form or report buttons the server would refuse", () => {
  const { app, root, ws } = start(null, "carol");
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ seat: null, rack: [] }) });
  ws().deliver(history);
  for (const sel of ["#chat-form", "#chat-quick", "#chat-report"]) assert.equal(q(root, sel).hidden, true, sel);
  const rule = q(root, "#chat-rule");
  assert.equal(rule.hidden, false);
  assert.ok(rule.classList.contains("muted"));
  assert.equal(rule.textContent, "Only the players at this table can chat.");
  assert.equal(q(root, "#chat-lines").children.length, 1);
  assert.match(q(root, "#chat-lines").textContent, /iyi oyunlar/);
  assert.equal(root.querySelectorAll("#chat-lines .report-line").length, 0);
  clearInterval(app.clockTimer);
});

test("a seated player has the chat form and report buttons, and no spectator's rule", () => {
  const { app, root, ws } = start(0, "dave");
  ws().deliver({ type: "snapshot", version: 1, view: okeyView() });
  ws().deliver(history);
  for (const sel of ["#chat-form", "#chat-quick", "#chat-report"]) assert.equal(q(root, sel).hidden, false, sel);
  assert.equal(q(root, "#chat-rule").hidden, true);
  assert.equal(root.querySelectorAll("#chat-lines .report-line").length, 1);
  clearInterval(app.clockTimer);
});

test("a chat line refused as too fast shows under the chat only, even after an earlier line came back", () => {
  const { app, root, ws } = start(0, "dave");
  ws().deliver({ type: "snapshot", version: 1, view: okeyView() });
  const quick = root.querySelectorAll("#chat-quick .quick-line");
  quick[0].click();
  quick[1].click();
  const lines = ws().sent.filter((f) => f.type === "chat");
  assert.equal(lines.length, 2);
  assert.ok(lines[0].id && lines[1].id && lines[0].id !== lines[1].id);
  // the first line comes back through the table's group, then the second is refused
  ws().deliver({ type: "chat", id: 5, user: "dave", name: "dave", text: lines[0].text, at: null });
  ws().deliver({ type: "error", id: lines[1].id, code: "rate_limited", message: "Too fast: wait a moment." });
  assert.equal(q(root, "#chat-status").textContent, "Too fast: wait a moment.");
  assert.equal(q(root, "#error-box").textContent, "");
  assert.ok(!q(root, "#error-box").classList.contains("shown"));
  clearInterval(app.clockTimer);
});

test("a refused report shows under the chat; a refused move still shows above the rack while a line waits", () => {
  const { app, root, ws } = start(0, "dave");
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ turn: 0 }) });
  const prompt = globalThis.prompt;
  globalThis.prompt = () => "insults";
  try { q(root, "#chat-report").click(); } finally { globalThis.prompt = prompt; }
  const report = ws().sent.find((f) => f.type === "report");
  assert.ok(report && report.id);
  ws().deliver({ type: "error", id: report.id, code: "report_too_long", message: "Your report is too long (300 characters at most)." });
  assert.equal(q(root, "#chat-status").textContent, "Your report is too long (300 characters at most).");
  assert.equal(q(root, "#error-box").textContent, "");
  // a chat line waits for its answer when the move's refusal comes: that one is the game's
  root.querySelectorAll("#chat-quick .quick-line")[0].click();
  app.gesture({ type: "draw" });
  const action = ws().sent.find((f) => f.type === "action");
  ws().deliver({ type: "error", id: action.id, code: "not_your_turn", message: "It is not your turn." });
  assert.equal(q(root, "#error-box").textContent, "It is not your turn.");
  assert.equal(q(root, "#chat-status").textContent, "");
  clearInterval(app.clockTimer);
});

test("a typed line refused as too fast comes back into the empty input; a refused quick phrase does not", () => {
  const { app, root, ws } = start(0, "dave");
  ws().deliver({ type: "snapshot", version: 1, view: okeyView() });
  const input = q(root, "#chat-input");
  input.value = "a long line the player typed";
  q(root, "#chat-form").dispatch("submit");
  assert.equal(input.value, "");
  const typed = ws().sent.filter((f) => f.type === "chat").at(-1);
  assert.equal(typed.text, "a long line the player typed");
  ws().deliver({ type: "error", id: typed.id, code: "rate_limited", message: "Too fast: wait a moment." });
  assert.equal(input.value, "a long line the player typed");
  assert.equal(q(root, "#chat-status").textContent, "Too fast: wait a moment.");
  // a quick phrase is one tap away: the input stays as the player left it
  input.value = "";
  root.querySelectorAll("#chat-quick .quick-line")[0].click();
  const phrase = ws().sent.filter((f) => f.type === "chat").at(-1);
  ws().deliver({ type: "error", id: phrase.id, code: "rate_limited", message: "Too fast: wait a moment." });
  assert.equal(input.value, "");
  clearInterval(app.clockTimer);
});

test("a refused line does not overwrite what the player started typing since", () => {
  const { app, root, ws } = start(0, "dave");
  ws().deliver({ type: "snapshot", version: 1, view: okeyView() });
  const input = q(root, "#chat-input");
  input.value = "first";
  q(root, "#chat-form").dispatch("submit");
  const first = ws().sent.filter((f) => f.type === "chat").at(-1);
  input.value = "second, still being typed";
  ws().deliver({ type: "error", id: first.id, code: "rate_limited", message: "Too fast: wait a moment." });
  assert.equal(input.value, "second, still being typed");
  clearInterval(app.clockTimer);
});
