// The table's top bar and its sheets (views/sheets.js, views/layout.js placeViews) through
// the app and the DOM stand-in: the turn banner and the tools share the top row, the chat
// and the sound controls live in their sheets, the shortcuts sheet lists the keys, and a
// chat line shows in a bubble at its speaker's seat.
import { FakeSocket, MemoryStorage, freshRoot } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableApp } from "../../static/js/table/app.js";
import { okeyView, ramiView } from "./tables.mjs";
import { RULES } from "./rules.mjs";

function show(ruleset, view) {
  const root = freshRoot("12");
  let ws;
  const app = new TableApp(root, { ruleset, rules: RULES[ruleset] }, { socketFactory: () => (ws = new FakeSocket()), storage: new MemoryStorage() });
  ws.onopen();
  ws.deliver({ type: "snapshot", version: 1, view });
  clearInterval(app.clockTimer);
  return { root, ws };
}

for (const [ruleset, view] of [["okey51", okeyView()], ["rami", ramiView()]]) {
  test(`${ruleset}: the banner and the tools share the top row, chat and sound are in their sheets`, () => {
    const { root } = show(ruleset, view);
    const top = root.querySelector(".tbl-top");
    assert.ok(top.querySelector("#turn-status") && top.querySelector("#menu-btn") && top.querySelector("#help-btn"));
    assert.ok(root.querySelector("#chat-sheet #chat-form"));
    assert.ok(root.querySelector("#sound-sheet #sound-toggle") && root.querySelector("#sound-sheet #sound-volume"));
    assert.equal(root.querySelector(".tbl-status").parentElement, top);
    assert.ok(root.querySelector(".tbl-notes #error-box"));
    const keys = root.querySelectorAll("#shortcuts-sheet kbd").map((k) => k.textContent);
    for (const k of ["P", "T", "O", "A", "L", "D", "S", "U", "Esc", "?"]) assert.ok(keys.includes(k), k);
  });
}

test("a chat line shows in a bubble at its speaker's seat, older lines do not", () => {
  const { root, ws } = show("okey51", okeyView({ turn: 1 }));
  ws.deliver({ type: "chat_history", lines: [{ id: 1, user: "mehmet", name: "mehmet", text: "old", at: Date.now() - 60000 }] });
  assert.equal(root.querySelectorAll(".bubble").length, 0);
  ws.deliver({ type: "chat", id: 2, user: "mehmet", name: "mehmet", text: "iyi oyunlar", at: Date.now() });
  const bubble = root.querySelector(".seat-card[data-seat=\"2\"] .bubble");
  assert.ok(bubble, "no bubble at mehmet's seat");
  assert.equal(bubble.textContent, "iyi oyunlar");
  ws.deliver({ type: "chat", id: 3, user: "ayse", name: "ayse", text: "sağ ol", at: Date.now() });
  assert.equal(root.querySelector("#my-seat .bubble").textContent, "sağ ol");
});

test("the sound is off until turned on, and the top bar's button shows which", () => {
  const { root } = show("okey51", okeyView());
  const bar = root.querySelector("#sound-btn");
  const toggle = root.querySelector("#sound-toggle");
  assert.ok(bar.classList.contains("muted"), "struck through while off");
  assert.equal(bar.getAttribute("aria-label"), "Sound: off");
  assert.equal(toggle.getAttribute("aria-pressed"), "false");
  toggle.click();
  assert.ok(!bar.classList.contains("muted"));
  assert.equal(bar.getAttribute("aria-label"), "Sound: on");
  assert.equal(toggle.getAttribute("aria-pressed"), "true");
});
