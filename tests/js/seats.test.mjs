// The seats around the table (views/seats.js) through the app and the DOM stand-in: in
// turn order around the bottom seat, each discard pile after its seat's card, so the
// one the player may take is the previous seat's (RULES.md §1).
import { FakeSocket, MemoryStorage, freshRoot } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableApp } from "../../static/js/table/app.js";
import { okeyView, ramiView } from "./tables.mjs";
import { RULES } from "./rules.mjs";

function show(ruleset, view) {
  const root = freshRoot("7");
  let ws;
  const app = new TableApp(root, { ruleset, rules: RULES[ruleset] }, { socketFactory: () => (ws = new FakeSocket()), storage: new MemoryStorage() });
  ws.onopen();
  ws.deliver({ type: "snapshot", version: 1, view });
  clearInterval(app.clockTimer);
  return root.querySelector("#opponents").children.map((c) => [c.className.split(" ")[0], c.dataset.seat, c.dataset.pos]);
}

test("a seated player sees the previous seat left, across on top, the next right, each pile after its card", () => {
  const discards = [["R1"], ["B2"], ["K3"], ["Y4"]];
  assert.deepEqual(show("okey51", okeyView({ seat: 2, turn: 2, discards })), [
    ["seat-card", "1", "left"], ["seat-discard", "1", "left"],
    ["seat-card", "0", "top"], ["seat-discard", "0", "top"],
    ["seat-card", "3", "right"], ["seat-discard", "3", "right"]]);
});

test("a spectator sees the seats in turn order from seat 0 at the bottom", () => {
  const discards = [["R1"], ["B2"], ["K3"], ["Y4"]];
  assert.deepEqual(show("okey51", okeyView({ seat: null, turn: 1, rack: undefined, discards })), [
    ["seat-card", "3", "left"], ["seat-discard", "3", "left"],
    ["seat-card", "2", "top"], ["seat-discard", "2", "top"],
    ["seat-card", "1", "right"], ["seat-discard", "1", "right"],
    ["seat-card", "0", "bottom"], ["seat-discard", "0", "bottom"]]);
});

test("rami has no discard piles: the cards only, a spectator's seat 0 at the bottom", () => {
  assert.deepEqual(show("rami", ramiView({ seat: null, turn: 0, rack: undefined })), [
    ["seat-card", "3", "left"], ["seat-card", "2", "top"], ["seat-card", "1", "right"], ["seat-card", "0", "bottom"]]);
});

test("each seat shows the player's avatar when the view sends one, else an initial, a computer its mark", () => {
  const root = freshRoot("8");
  let ws;
  const app = new TableApp(root, { ruleset: "okey51", rules: RULES.okey51 }, { socketFactory: () => (ws = new FakeSocket()), storage: new MemoryStorage() });
  ws.onopen();
  const players = [{ name: "ayse", avatar: "/media/avatars/ayse.svg" }, { name: null, computer: "easy" }, { name: "mehmet" }, { name: null, computer: "strong" }];
  ws.deliver({ type: "snapshot", version: 1, view: okeyView({ seat: 0, turn: 1, players }) });
  clearInterval(app.clockTimer);
  const face = (s) => root.querySelector(`.seat-card[data-seat="${s}"] .avatar`).children[0];
  assert.equal(face(0).tagName, "IMG");
  assert.equal(face(0).getAttribute("src"), "/media/avatars/ayse.svg");
  assert.ok(root.querySelector("#my-seat .seat-card.me[data-seat=\"0\"]"), "the player's own seat is drawn");
  assert.ok(face(1).classList.contains("computer"));
  assert.equal(face(2).textContent, "M");
  assert.ok(face(3).classList.contains("computer"));
});
