// The lobby's running matches to watch: the same lobby socket frame fills them (items with
// status "playing"), the open tables keep only the open ones.
import { FakeSocket } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { startLobby } from "../../static/js/lobby.js";

const TEXT = { join: "Join", empty: "No open table", teams: "teams", watch: "İzle", computer: "computer",
  none_running: "No match being played right now." };

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "textContent") e[k] = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

function lobbyPage() {
  document.body.replaceChildren();
  const open = el("table", { id: "open-tables", "data-ws-path": "/ws/lobby/" }, el("tbody"));
  const running = el("table", { id: "running-tables" }, el("tbody"));
  document.body.append(open, running,
    el("script", { id: "lobby-i18n", textContent: JSON.stringify(TEXT) }),
    el("script", { id: "is-authenticated", textContent: "false" }));
  const sockets = [];
  startLobby(document, { socketFactory: () => { const ws = new FakeSocket(); sockets.push(ws); return ws; } });
  const rows = (table) => table.querySelectorAll("tbody tr").map((tr) => tr.children.map((td) => td.textContent));
  return { sockets, open: () => rows(open), running: () => rows(running) };
}

const TABLES = [
  { id: 7, status: "open", ruleset: "okey51", ruleset_name: "Okey 51", creator: "ayse", seats_taken: 1, players: 4, move_time: 30 },
  { id: 9, status: "playing", ruleset: "rami", ruleset_name: "Rami", round: 2, spectators: 3,
    seats: [{ name: "ayse", computer: false }, { name: "Computer 2 · normal", computer: true },
      { name: "mert", computer: true, left: true }] },
];

// A computer's name says "Computer" already; a player who left is named, and marked as
// played by a computer.
test("running public matches are listed with their players, round, watchers and a Watch link", () => {
  const page = lobbyPage();
  page.sockets[0].deliver({ type: "tables", tables: TABLES });
  assert.deepEqual(page.open().map((r) => r[0]), ["7"]);
  assert.deepEqual(page.running(), [["9", "Rami", "ayse, Computer 2 · normal, mert (computer)", "2", "3", "İzle"]]);
  assert.equal(document.querySelector("#running-tables a.watch-link").href, "/table/9/");
  page.sockets[0].deliver({ type: "tables", tables: TABLES.slice(0, 1) });
  assert.deepEqual(page.running(), [[TEXT.none_running]]);
});
