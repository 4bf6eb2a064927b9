// The lobby's lists show each player's face (accounts/faces.py) before their name: the
// creator of an open table, every seat of a running one (a computer's face for computers).
import { FakeSocket } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { startLobby } from "../../static/js/lobby.js";

const TEXT = { join: "Join", empty: "No open table", teams: "teams", watch: "Watch", computer: "computer",
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

test("open and running tables name their players after their faces", () => {
  document.body.replaceChildren();
  const open = el("table", { id: "open-tables", "data-ws-path": "/ws/lobby/" }, el("tbody"));
  const running = el("table", { id: "running-tables" }, el("tbody"));
  document.body.append(open, running,
    el("script", { id: "lobby-i18n", textContent: JSON.stringify(TEXT) }),
    el("script", { id: "is-authenticated", textContent: "false" }));
  const sockets = [];
  startLobby(document, { socketFactory: () => { const ws = new FakeSocket(); sockets.push(ws); return ws; } });
  sockets[0].deliver({ type: "tables", tables: [
    { id: 7, status: "open", ruleset: "okey51", ruleset_name: "Okey 51", creator: "ayse", creator_avatar: "/faces/3/",
      seats_taken: 1, players: 4, move_time: 30 },
    { id: 9, status: "playing", ruleset: "rami", ruleset_name: "Rami", round: 2, spectators: 0,
      seats: [{ name: "ayse", computer: false, avatar: "/faces/3/" },
        { name: "Computer 2 · normal", computer: true, avatar: "/faces/computer/" }] },
  ] });
  const faces = (table) => table.querySelectorAll("tbody img").map((img) => img.getAttribute("src"));
  assert.deepEqual(faces(open), ["/faces/3/"]);
  assert.deepEqual(faces(running), ["/faces/3/", "/faces/computer/"]);
  const names = (table) => table.querySelectorAll("tbody tr").map((tr) => tr.children.map((td) => td.textContent));
  assert.equal(names(open)[0][2], "ayse");
  assert.equal(names(running)[0][2], "ayse, Computer 2 · normal");
});
