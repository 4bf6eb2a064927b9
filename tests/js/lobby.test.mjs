// The lobby page's script: the create form's options per game, and the open tables list
// kept live by the table's socket client (reconnect with backoff, sync on coming back).
import { FakeSocket } from "./dom-shim.mjs";
import { mock, test } from "node:test";
import assert from "node:assert/strict";
import { startLobby } from "../../static/js/lobby.js";

const TEXT = { join: "Katıl", empty: "No open table right now. Create one!", teams: "teams",
  too_many_sockets: "Çok fazla açık bağlantı (the page's copy)" };

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "value" || k === "textContent") e[k] = v;
    else if (k === "class") e.className = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}

/** The lobby page's parts the script reads (templates/games/lobby.html). */
function lobbyPage({ authenticated = true } = {}) {
  document.body.replaceChildren();
  const ruleset = el("select", { name: "ruleset", value: "okey51" });
  const length = el("select", { name: "rami_length", value: "rounds" });
  const form = el("form", { class: "create-table" }, ruleset, length,
    el("input", { name: "csrfmiddlewaretoken", value: "tok3n" }),
    el("div", { id: "f-rounds", "data-rulesets": "okey51" }),
    el("p", { id: "f-okey17", "data-rulesets": "okey17" }),
    el("div", { id: "f-rami-rounds", "data-rulesets": "rami", "data-length": "rounds" }),
    el("div", { id: "f-rami-target", "data-rulesets": "rami", "data-length": "target" }));
  const notice = el("p", { id: "lobby-notice", role: "alert" });
  notice.hidden = true;
  const list = el("table", { id: "open-tables", class: "list", "data-ws-path": "/ws/lobby/" }, el("tbody"));
  document.body.append(form, notice, list,
    el("script", { id: "lobby-i18n", textContent: JSON.stringify(TEXT) }),
    el("script", { id: "is-authenticated", textContent: JSON.stringify(authenticated) }));
  const sockets = [];
  const urls = [];
  const lobby = startLobby(document, { socketFactory: (url) => { urls.push(url); const ws = new FakeSocket(); sockets.push(ws); return ws; } });
  return { lobby, ruleset, length, sockets, urls, notice, list, hidden: (id) => document.getElementById(id).hidden,
    rows: () => list.querySelectorAll("tbody tr").map((tr) => tr.children.map((td) => td.textContent)) };
}

const TABLES = [
  { id: 12, ruleset: "okey51", ruleset_name: "Okey 101", options: { teams: true }, creator: "ayse", seats_taken: 1, players: 4, move_time: 30 },
  { id: 13, ruleset: "rami", creator: "mehmet", seats_taken: 2, players: 3, move_time: 60 },
];

test("the create form shows only the chosen game's options", () => {
  const page = lobbyPage();
  assert.deepEqual(["f-rounds", "f-okey17", "f-rami-rounds", "f-rami-target"].map(page.hidden), [false, true, true, true]);
  page.ruleset.value = "rami";
  page.ruleset.dispatch("change");
  assert.deepEqual(["f-rounds", "f-okey17", "f-rami-rounds", "f-rami-target"].map(page.hidden), [true, true, false, true]);
  page.length.value = "target";
  page.length.dispatch("change");
  assert.deepEqual(["f-rami-rounds", "f-rami-target"].map(page.hidden), [true, false]);
});

test("the open tables follow the lobby socket's frames, with a join form for a signed-in player", () => {
  const page = lobbyPage();
  assert.deepEqual(page.urls, ["ws://table.test/ws/lobby/"]);
  page.sockets[0].deliver({ type: "tables", tables: TABLES });
  assert.deepEqual(page.rows(), [["12", "Okey 101 · teams", "ayse", "1/4", "30 s", "Katıl"], ["13", "rami", "mehmet", "2/3", "60 s", "Katıl"]]);
  const join = document.querySelector("#open-tables form");
  assert.equal(join.action, "/table/12/join/");
  assert.equal(join.children[0].value, "tok3n");
  page.sockets[0].deliver({ type: "tables", tables: [] });
  assert.deepEqual(page.rows(), [[TEXT.empty]]);
  assert.equal(document.querySelector("#open-tables td").colSpan, 6);
  const visitor = lobbyPage({ authenticated: false });
  visitor.sockets[0].deliver({ type: "tables", tables: TABLES });
  assert.equal(document.querySelectorAll("#open-tables form").length, 0);
});

test("a dropped lobby socket reconnects with backoff and the fresh list replaces the old one", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const page = lobbyPage();
    page.sockets[0].deliver({ type: "tables", tables: TABLES });
    page.sockets[0].shut(1006);
    mock.timers.tick(499);
    assert.equal(page.sockets.length, 1);
    mock.timers.tick(1);                      // the first retry after 0.5 s
    assert.equal(page.sockets.length, 2);
    page.sockets[1].shut(1006);
    mock.timers.tick(999);
    assert.equal(page.sockets.length, 2);     // then 1 s
    mock.timers.tick(1);
    page.sockets[2].deliver({ type: "tables", tables: TABLES.slice(1) });
    assert.deepEqual(page.rows().map((r) => r[0]), ["13"]);
  } finally {
    mock.timers.reset();
  }
});

/** The server refusing a socket over the address's cap (games/lobby_socket.py). */
function refuse(ws, { frame = true } = {}) {
  ws.onopen();
  if (frame) ws.deliver({ type: "error", code: "too_many_sockets", message: "Trop de connexions ouvertes : fermez un autre onglet." });
  ws.shut(4429);
}

test("a socket refused as one too many says so above the stale list and tries again only after long waits", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const page = lobbyPage();
    page.sockets[0].deliver({ type: "tables", tables: TABLES });
    page.sockets[0].shut(1006);
    mock.timers.tick(500);
    refuse(page.sockets[1]);
    assert.equal(page.notice.hidden, false);
    assert.equal(page.notice.textContent, "Trop de connexions ouvertes : fermez un autre onglet.");
    assert.ok(page.list.classList.contains("stale"));
    assert.equal(page.rows().length, 2);             // the last list stays, dimmed
    mock.timers.tick(29999);
    assert.equal(page.sockets.length, 2);            // not a try every 0.5 s
    mock.timers.tick(1);
    assert.equal(page.sockets.length, 3);
    refuse(page.sockets[2]);
    mock.timers.tick(59999);
    assert.equal(page.sockets.length, 3);            // then a minute
    mock.timers.tick(1);
    refuse(page.sockets[3]);
    mock.timers.tick(119999);
    assert.equal(page.sockets.length, 4);            // then two
    assert.equal(page.notice.hidden, false);
    page.lobby.socket.close();
  } finally {
    mock.timers.reset();
  }
});

test("back in view, a refused lobby tries at once; its first list clears the notice and the backoff", () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const page = lobbyPage();
    refuse(page.sockets[0], { frame: false });      // the 4429 alone: the page's own copy
    assert.equal(page.notice.textContent, TEXT.too_many_sockets);
    page.sockets[0].readyState = 3;
    document.visibilityState = "visible";
    document.dispatch("visibilitychange");           // the player closed the other tab
    assert.equal(page.sockets.length, 2);
    page.sockets[1].onopen();
    page.sockets[1].deliver({ type: "tables", tables: TABLES.slice(1) });
    assert.equal(page.notice.hidden, true);
    assert.equal(page.notice.textContent, "");
    assert.equal(page.list.classList.contains("stale"), false);
    assert.deepEqual(page.rows().map((r) => r[0]), ["13"]);
    page.sockets[1].shut(1006);                      // a healthy socket dropped: quick retries again
    mock.timers.tick(500);
    assert.equal(page.sockets.length, 3);
    page.lobby.socket.close();
  } finally {
    mock.timers.reset();
  }
});

test("coming back into view asks the lobby for the list again", () => {
  const page = lobbyPage();
  document.visibilityState = "visible";
  document.dispatch("visibilitychange");
  assert.deepEqual(page.sockets[0].sent, [{ type: "sync" }]);
  page.lobby.socket.close();
});

test("the move time is not asked while practice (no move clock) is ticked on a solo table", () => {
  document.body.replaceChildren();
  const radio = (value, checked) => { const r = el("input", { type: "radio", name: "mode", value }); r.checked = checked; return r; };
  const solo = radio("solo", true);
  const online = radio("online", false);
  const practice = el("input", { type: "checkbox", name: "practice" });
  practice.checked = true;                    // the form's initial value
  const moveTime = el("div", { id: "f-move-time", "data-move-clock": "" });
  const form = el("form", { class: "create-table" }, el("select", { name: "ruleset", value: "okey51" }), solo, online,
    moveTime, el("div", { "data-modes": "solo" }, practice));
  document.body.append(form);
  startLobby(document);
  assert.equal(moveTime.hidden, true);
  practice.checked = false;
  practice.dispatch("change");
  assert.equal(moveTime.hidden, false);
  practice.checked = true;
  practice.dispatch("change");
  assert.equal(moveTime.hidden, true);
  // an online table always has a move clock, whatever the solo-only box says
  [solo.checked, online.checked] = [false, true];
  online.dispatch("change");
  assert.equal(moveTime.hidden, false);
});
