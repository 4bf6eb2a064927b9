// The autoplay banner, the welcome back note, the move history and the score table's
// end reason and revealed racks, through TableApp on the DOM stand-in and a fake socket.
import { FakeSocket, MemoryStorage, freshRoot } from "./dom-shim.mjs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { TableApp } from "../../static/js/table/app.js";
import { RULES } from "./rules.mjs";

const players = (autoplay) => [{ name: "dave", autoplay }, { name: null, computer: "easy" }, { name: null, computer: "easy" }, { name: null, computer: "easy" }];

function okeyView(extra = {}) {
  return { ruleset: "okey51", seat: 0, turn: 1, phase: "draw", status: "playing", round_index: 0, rounds: 1,
    rack: ["R1", "R2", "R3", "K5", "K6", "K7", "B9", "B10", "B11", "Y1", "Y2", "Y3", "R13", "B13", "K13", "Y13", "R8", "B8", "K8", "Y8", "R7"],
    rack_counts: [21, 21, 21, 21], opened: ["no", "no", "no", "no"], players: players(false), pile_count: 40,
    discards: [[], [], [], []], indicator: "R4", okey: "R5", table: [], totals: [0, 0, 0, 0], penalty: [0, 0, 0, 0],
    deadline: Date.now() + 60000, deadline_kind: "move", moves: [], ...extra };
}

function start(ruleset = "okey51") {
  const root = freshRoot("9");
  let ws;
  const app = new TableApp(root, { ruleset, rules: RULES[ruleset], urls: { match: "/table/9/match/" } }, { socketFactory: () => (ws = new FakeSocket()), storage: new MemoryStorage() });
  ws.onopen();
  return { app, root, ws: () => ws };
}

const q = (root, sel) => root.querySelector(sel);
const timeoutMoves = [
  { number: 4, seat: 0, actor: "timeout", type: "draw", result: "ok", tile: "K9", penalties: [] },
  { number: 5, seat: 0, actor: "timeout", type: "discard", result: "ok", tile: "Y12", penalties: [] },
];

test("on autoplay the player sees a banner and takes the seat back with one tap", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ players: players(true), moves: timeoutMoves }) });
  const banner = q(root, "#away-banner");
  assert.equal(banner.hidden, false);
  assert.match(banner.textContent, /computer is playing your seat/);
  assert.match(banner.textContent, /discarded for you: yellow 12/);
  q(root, "#resume-btn").click();
  assert.deepEqual(ws().sent.filter((f) => f.type === "resume").length, 1);
  assert.equal(q(root, "#resume-btn").disabled, true);
  // the server gives the seat back: the note says welcome back, with what was played
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ moves: timeoutMoves }) });
  assert.equal(q(root, "#resume-btn").hidden, true);
  assert.match(banner.textContent, /Welcome back/);
  q(root, "#away-ok").click();
  assert.equal(banner.hidden, true);
  // the last-action line never says "You discarded" for the computer's discard
  assert.equal(q(root, "#last-action").textContent, "The computer discarded for you: yellow 12");
  clearInterval(app.clockTimer);
});

test("one move time running out says time's up; the move history lists every seat's moves with tiles", () => {
  const { app, root, ws } = start();
  const moves = [{ number: 3, seat: 3, actor: "computer", type: "discard", result: "ok", tile: "B4", penalties: [] }, ...timeoutMoves];
  // the player is on the page, their turn comes, and the computer plays it when the clock runs out
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ turn: 0, moves: moves.slice(0, 1) }) });
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ moves }) });
  assert.match(q(root, "#away-banner").textContent, /Time's up/);
  const lines = q(root, "#history-lines").children;
  assert.equal(lines.length, 3);
  assert.equal(lines[0].querySelector(".tile").dataset.tile, "Y12");     // newest first, the tile drawn as a tile
  assert.match(lines[2].textContent, /discarded/);
  assert.ok(!q(root, "#move-history").textContent.includes("Y12"));     // never a raw code
  assert.equal(q(root, ".history-latest").textContent, "(5)");          // the round's moves so far
  clearInterval(app.clockTimer);
});

test("a page opened after the computer played the seat says welcome back, not time's up", () => {
  // the seat was given back as the socket opened: the snapshot no longer says autoplay
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 7, view: okeyView({ moves: timeoutMoves }) });
  const banner = q(root, "#away-banner");
  assert.equal(banner.hidden, false);
  assert.match(banner.textContent, /Welcome back/);
  assert.doesNotMatch(banner.textContent, /Time's up/);
  assert.match(banner.textContent, /discarded for you: yellow 12/);
  clearInterval(app.clockTimer);
});

test("the computer's moves played while the socket was down say welcome back; a reconnect alone changes nothing", () => {
  const { app, root, ws } = start();
  const first = { number: 3, seat: 3, actor: "computer", type: "discard", result: "ok", tile: "B4", penalties: [] };
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ turn: 0, moves: [first] }) });
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ moves: [first, ...timeoutMoves] }) });
  const banner = q(root, "#away-banner");
  assert.match(banner.textContent, /Time's up/);
  // the connection drops and comes back with nothing new: still the time's-up note
  app.apply([{ type: "connection", status: "closed" }, { type: "connection", status: "connecting" }, { type: "connection", status: "open" }]);
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ moves: [first, ...timeoutMoves] }) });
  assert.match(banner.textContent, /Time's up/);
  // it drops again; meanwhile the computer plays the next turn for the player
  const later = [
    { number: 8, seat: 0, actor: "timeout", type: "draw", result: "ok", tile: "R9", penalties: [] },
    { number: 9, seat: 0, actor: "timeout", type: "discard", result: "ok", tile: "R9", penalties: [] },
  ];
  app.apply([{ type: "connection", status: "closed" }, { type: "connection", status: "open" }]);
  ws().deliver({ type: "snapshot", version: 5, view: okeyView({ moves: [first, ...timeoutMoves, ...later] }) });
  assert.match(banner.textContent, /Welcome back/);
  clearInterval(app.clockTimer);
});

test("the move history counts every move of the round and lists the last twelve", () => {
  const { app, root, ws } = start();
  const moves = Array.from({ length: 30 }, (_v, i) => (
    { number: 11 + i, seat: i % 4, actor: "computer", type: "discard", result: "ok", tile: "B4", penalties: [] }));
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ moves }) });
  assert.equal(q(root, "#history-lines").children.length, 12);
  assert.equal(q(root, ".history-latest").textContent, "(40)");
  clearInterval(app.clockTimer);
});

test("a refusal is cleared when the turn moves on", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView() });
  ws().deliver({ type: "error", id: "x", code: "not_your_turn", message: "It is not your turn." });
  assert.equal(q(root, "#error-box").textContent, "It is not your turn.");
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ turn: 0 }) });
  assert.equal(q(root, "#error-box").textContent, "");
  clearInterval(app.clockTimer);
});

test("a refusal shows in the error's colours, the table's own hint calmly", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ turn: 0, phase: "play", moves: [
    { number: 1, seat: 3, actor: "computer", type: "discard", result: "ok", tile: "B4", penalties: [] },
    { number: 2, seat: 0, actor: "human", type: "draw", result: "ok", penalties: [] }] }) });
  app.gesture({ type: "draw" });                  // the tile is drawn already: a hint, nothing sent
  const box = q(root, "#error-box");
  assert.equal(box.textContent, "You have drawn your tile: lay or add tiles, then discard one.");
  assert.ok(box.classList.contains("shown") && box.classList.contains("hint"));
  ws().deliver({ type: "error", id: "x", code: "not_your_turn", message: "It is not your turn." });
  assert.equal(box.textContent, "It is not your turn.");
  assert.ok(box.classList.contains("shown") && !box.classList.contains("hint"));
  clearInterval(app.clockTimer);
});

test("an action that could not go out (the socket is down) reads as an error, not as a hint", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ turn: 0, phase: "draw" }) });
  ws().readyState = 3;                            // gone, its close not yet heard
  app.gesture({ type: "draw" });                  // the draw is what to do, but it cannot go out
  assert.equal(ws().sent.filter((f) => f.type === "action").length, 0);
  const box = q(root, "#error-box");
  assert.equal(box.textContent, "Not connected. Reconnecting…");
  assert.ok(box.classList.contains("shown") && !box.classList.contains("hint"));
  clearInterval(app.clockTimer);
});

test("the score table says how the round ended and shows every rack; rami has no Penalties column", () => {
  const { app, root, ws } = start("rami");
  const result = { finisher: 2, winner: 2, end: "rami", racks: [["R1", "J"], ["K5"], [], ["B2", "B3"]], scores: [-30, -5, 50, -5] };
  const round_end = { round_index: 0, scores: result.scores, penalties: [0, 0, 0, 0], round_totals: result.scores, totals: result.scores, result };
  ws().deliver({ type: "snapshot", version: 3, view: { ...okeyView(), ruleset: "rami", okey: null, indicator: null, round_end, result } });
  assert.equal(q(root, "#end-reason").textContent, "Computer · easy went out.");
  assert.equal(root.querySelectorAll("#score-table .rack-row").length, 4);
  assert.equal(root.querySelectorAll("#score-table .rack-row .tile").length, 5);
  const heads = root.querySelectorAll("#score-table thead th").map((th) => th.textContent);
  assert.ok(!heads.includes("Penalties"), heads.join());
  clearInterval(app.clockTimer);
});

test("Open and Open pairs are gone once the player opened", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ turn: 0, phase: "play" }) });
  assert.equal(q(root, "#open-btn").hidden, false);
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ turn: 0, phase: "play", opened: ["melds", "no", "no", "no"] }) });
  assert.equal(q(root, "#open-btn").hidden, true);
  assert.equal(q(root, "#pairs-btn").hidden, true);
  assert.equal(q(root, "#lay-btn").hidden, false);
  clearInterval(app.clockTimer);
});

test("the last move is marked for a moment, but not the moves a reload finds", async () => {
  const { justPlayed, justMelds } = await import("../../static/js/table/views/just.js");
  const table = [{ id: 1, owner: 2, tiles: ["R1", "R2", "R3"] }, { id: 4, owner: 2, tiles: ["K5", "B5", "Y5"] }];
  const at = (moves) => ({ tableId: "just-1", view: { round_index: 3, moves, table } });
  const first = [{ number: 10, seat: 1, type: "discard", result: "ok", tile: "B4" }];
  assert.equal(justPlayed(at(first), 1000), null);                  // on screen at load: no flash
  const next = [...first, { number: 11, seat: 2, type: "meld", result: "ok", tiles: ["K5", "B5", "Y5"] }];
  assert.equal(justPlayed(at(next), 2000).number, 11);
  assert.equal(justPlayed(at(next), 4000).number, 11);
  assert.equal(justPlayed(at(next), 4600), null);
  const added = [...next, { number: 12, seat: 0, type: "add", result: "ok", meld: 1, tile: "R4" }];
  justPlayed(at(added));
  assert.deepEqual([...justMelds(at(added))], ["1"]);
});

test("the turn sound is off until the player turns it on, and the choice is kept", async () => {
  const { readSound, SOUND_KEY } = await import("../../static/js/table/views/comforts.js");
  const storage = new MemoryStorage();
  assert.equal(readSound(storage), false);
  const root = freshRoot("11");
  let ws;
  const app = new TableApp(root, { ruleset: "okey51", rules: RULES.okey51 }, { socketFactory: () => (ws = new FakeSocket()), storage });
  ws.onopen();
  const toggle = q(root, "#sound-toggle");
  assert.equal(toggle.getAttribute("aria-pressed"), "false");
  toggle.click();
  assert.equal(storage.getItem(SOUND_KEY), "on");
  assert.equal(toggle.getAttribute("aria-pressed"), "true");
  assert.equal(readSound(storage), true);
  clearInterval(app.clockTimer);
});

test("keyboard play: a letter presses the turn's button, the arrows walk the rack", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ turn: 0, phase: "play" }) });
  assert.equal(q(root, "#discard-btn").getAttribute("aria-keyshortcuts"), "D");
  const key = (k) => { for (const fn of document.listeners.keydown || []) fn({ key: k, target: document.body, preventDefault() {} }); };
  key("ArrowRight");
  assert.equal(document.activeElement, root.querySelectorAll("#rack .tile")[0]);
  key("d");    // nothing selected: the controller answers on the error line, nothing is sent
  assert.notEqual(q(root, "#error-box").textContent, "");
  assert.equal(ws().sent.filter((f) => f.type === "action").length, 0);
  clearInterval(app.clockTimer);
});

test("a quick phrase goes to the chat in one tap and leaves the typed line alone", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView() });
  q(root, "#chat-input").value = "half typed";
  root.querySelectorAll("#chat-quick .quick-line")[0].click();
  assert.deepEqual(ws().sent.filter((f) => f.type === "chat").map((f) => f.text), ["Good luck!"]);
  assert.equal(q(root, "#chat-input").value, "half typed");
  clearInterval(app.clockTimer);
});

test("the autoplay banner goes away once the round ends and stays away when the match is over", () => {
  const { app, root, ws } = start();
  ws().deliver({ type: "snapshot", version: 1, view: okeyView({ players: players(true), moves: timeoutMoves }) });
  const banner = q(root, "#away-banner");
  assert.equal(banner.hidden, false);
  const result = { finisher: 1, winner: 1, end: "okey", racks: [[], [], [], []], scores: [-2, 2, -2, -2] };
  const round_end = { round_index: 0, scores: result.scores, penalties: [0, 0, 0, 0], round_totals: result.scores, totals: result.scores, result, match_over: true };
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ players: players(true), moves: timeoutMoves, round_end, result }) });
  assert.equal(banner.hidden, true);
  ws().deliver({ type: "snapshot", version: 3, view: okeyView({ players: players(true), moves: timeoutMoves, status: "finished", round_end, result }) });
  assert.equal(banner.hidden, true);
  clearInterval(app.clockTimer);
});

test("the score overlay opens at its top, and goes back there when the match's ranking comes over the round's scores", () => {
  const { app, root, ws } = start();
  const overlay = q(root, ".overlay");
  overlay.scrollTop = 250;                   // where the player left it at an earlier round's end
  const result = { finisher: 1, winner: 1, end: "hand", racks: [[], [], [], []], scores: [85, -500, 500, 40] };
  const round_end = { round_index: 0, scores: result.scores, penalties: [0, 0, 0, 0], round_totals: result.scores, totals: result.scores, result };
  ws().deliver({ type: "snapshot", version: 2, view: okeyView({ round_end, result }) });
  assert.equal(overlay.hidden, false);
  assert.equal(overlay.scrollTop, 0);
  overlay.scrollTop = 250;                   // the player scrolls down to the racks
  ws().deliver({ type: "snapshot", version: 3, view: okeyView({ round_end, result, deadline_kind: "next_round" }) });
  assert.equal(overlay.scrollTop, 250);      // a redraw leaves the player where they are
  ws().deliver({ type: "match_end", totals: result.scores });
  assert.equal(q(root, "#match-over").hidden, false);
  assert.equal(overlay.scrollTop, 0);
  clearInterval(app.clockTimer);
});
