// The seat list above an open table: a seat lost while the page stays open (the creator
// removed the viewer) reloads the page, so the server says why and offers only the
// controls still allowed; a joiner or a start never does.
import { freshRoot } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { Prestart } from "../../static/js/table/views/prestart.js";

function page(config = {}) {
  freshRoot("5");
  const pre = document.createElement("div");
  pre.id = "prestart";
  const list = document.createElement("ul");
  list.id = "prestart-seats";
  pre.append(list);
  document.body.append(pre);
  let reloads = 0;
  const view = new Prestart({ config, reload: () => { reloads += 1; } });
  return { view, reloads: () => reloads };
}

const players = (second) => [{ name: "alice", user: 1 }, second, { empty: true }, { empty: true }];
const snap = (seat, second, status = "open") => ({ view: { seat, status, turn: null, players: players(second) } });

test("a player whose seat is freed by the creator gets the page again", () => {
  const { view, reloads } = page();
  view.render(snap(1, { name: "carol", user: 3 }));
  view.render(snap(1, { name: "carol", user: 3 }));
  assert.equal(reloads(), 0);
  view.render(snap(null, { empty: true }));
  assert.equal(reloads(), 1);
});

test("a watcher, a joiner and a started match never reload the page", () => {
  const { view, reloads } = page();
  view.render(snap(null, { empty: true }));
  view.render(snap(null, { name: "bob", user: 2 }));
  view.render(snap(0, { name: "bob", user: 2 }));
  view.render(snap(0, { name: "bob", user: 2 }, "playing"));
  view.render(snap(null, { name: "bob", user: 2 }, "playing"));
  assert.equal(reloads(), 0);
});

test("a removal that reaches the page before its first snapshot still reloads it", () => {
  // the page was rendered with seat 1; the first snapshot already shows the seat free
  const { view, reloads } = page({ seat: 1 });
  view.render(snap(null, { empty: true }));
  assert.equal(reloads(), 1);
});
