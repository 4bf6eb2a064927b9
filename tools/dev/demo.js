// Demo harness: a fake socket that serves canned views and plays a toy version of
// the actions (draw, discard, open, meld, add, take_discard, play) so every screen
// of the table client can be seen and screenshot without the server.
import { startTable } from "../../static/js/table/app.js";
import { analyse } from "../../static/js/table/melds.js";

// the rules the server would send in table_config.rules (Ruleset.client_rules), read from
// the fixtures tools/meld_verdicts.py writes from the engine
const RULES = Object.fromEntries(await Promise.all(["okey51", "okey17", "rami"].map(async (r) =>
  [r, (await (await fetch(`../../tests/js/fixtures/meld_verdicts_${r}.json`)).json()).rules])));

const params = new URLSearchParams(location.search);
const scenario = params.get("s") || "play";
const NOW = Date.now();

const players = [
  { name: "ayse", computer: null, connected: true },
  { name: null, computer: "easy", connected: true },
  { name: "mehmet_the_long_named", computer: null, connected: false },
  { name: null, computer: "strong", connected: true },
];

function okeyView(over = {}) {
  return {
    ruleset: "okey51", options: { doubling: true, teams: false, rounds: 3 }, seat: 0, turn: 0, phase: "draw",
    rack: ["R1", "R2", "R3", "K9", "B9", "Y9", "B4", "B5", "R6", "Y11", "Y12", "K2", "F", "B13"],
    rack_counts: [14, 14, 14, 14], pile_count: 47,
    discards: [["K7"], ["Y2"], ["R12", "B8"], ["K4", "K11"]],
    table: [], indicator: "R5", okey: "R6", opened: ["no", "no", "no", "no"], penalty: [0, 0, 0, 0],
    highest_opening: 0, threshold: 51, turn_state: {}, last_action: null, result: null,
    version: 5, deadline: NOW + 27000, players, totals: [0, 0, 0, 0], round_index: 0, rounds: 3, status: "playing",
    ...over,
  };
}

const melds = [
  { id: 1, owner: 1, tiles: ["B10", "B11", "B12"] },
  { id: 2, owner: 1, tiles: ["K5", "Y5", "R5", "R6=B5"] },
  { id: 3, owner: 3, tiles: ["Y6", "Y7", "Y8", "Y9"] },
  { id: 4, owner: 0, tiles: ["R1", "R2", "R3"] },
];

const scenarios = {
  draw: () => okeyView(),
  play: () => okeyView({ phase: "play", rack: [...okeyView().rack, "Y13"], rack_counts: [15, 14, 14, 14] }),
  waiting: () => okeyView({ turn: 2, deadline: NOW + 9000 }),
  melds: () => okeyView({ phase: "play", table: melds, opened: ["melds", "melds", "no", "melds"], penalty: [0, 120, 0, 0],
    rack: ["K9", "B9", "Y9", "B4", "B13", "Y11", "Y12", "K2", "F", "R6", "Y10"], rack_counts: [11, 9, 14, 10],
    highest_opening: 62, threshold: 63, penalty_tiles: ["Y10", "R6"] }),
  assisted: () => okeyView({ assisted: true, phase: "play", table: melds, opened: ["melds", "melds", "no", "melds"],
    rack: ["K9", "B9", "Y9", "B4", "B13", "Y11", "Y12", "K2", "F", "R6", "Y10"], penalty_tiles: ["Y10", "B13", "R6"] }),
  roundend: () => okeyView({ phase: "play", table: melds, result: { finisher: 1, end: "hand", scores: [85, -500, 500, 40] },
    round_end: { round_index: 0, scores: [85, -500, 500, 40], penalties: [0, 120, 100, 0], round_totals: [85, -380, 600, 40],
      totals: [85, -380, 600, 40], match_over: false,
      penalty_events: [{ seat: 1, amount: 100, reason: "penalty_tile", tile: "K11", by: null },
        { seat: 1, amount: 20, reason: "discard_taken", tile: "B6", by: 2 }, { seat: 2, amount: 100, reason: "add", tile: "Y10", by: 0 }] },
    deadline: null, totals: [85, -380, 600, 40] }),
  teams: () => ({ ...scenarios.roundend(), options: { teams: true, rounds: 3 } }),
  matchover: () => okeyView({ status: "finished", result: { finisher: 1, end: "hand" }, deadline: null, totals: [185, -880, 1100, 40], round_index: 2,
    round_end: { round_index: 2, scores: [100, -500, 500, 0], penalties: [0, 0, 0, 0], round_totals: [100, -500, 500, 0],
      totals: [185, -880, 1100, 40], match_over: true } }),
  okey17: () => okeyView({ ruleset: "okey17", options: { rounds: 7 }, phase: "play", indicator: "Y12", okey: "Y13", threshold: 17, pairs_threshold: 26,
    rack: ["Y13", "K9", "K8", "K7", "B2", "B2", "R4", "R4", "Y13", "F", "B11", "K1", "R10", "R11", "Y5"], rounds: 7 }),
  notstarted: () => ({ ruleset: "okey51", options: {}, seat: 0, version: 1, players: [players[0], { name: null, computer: null, empty: true, connected: false }, players[1], players[3]],
    totals: [0, 0, 0, 0], round_index: null, rounds: 1, status: "open", deadline: null }),
  spectator: () => okeyView({ seat: null, rack: [], table: melds }),
  rami: () => ({
    ruleset: "rami", options: { rounds: 4 }, seat: 0, turn: 0, phase: "play",
    rack: ["R10", "R11", "R12", "J", "K4", "B4", "Y4", "B7", "B8", "Y1", "K13", "R2", "Y9", "K6"],
    rack_counts: [14, 12, 9, 16], pile_count: 50,
    table: [["B3", "B4", "B5", "B6"], ["K10", "J=R10", "Y10"], ["Y5", "Y6", "Y7"]],
    opened: ["no", "yes", "yes", "no"], penalty: [0, 0, 0, 0], threshold: 30, version: 9, deadline: NOW + 55000,
    players, totals: [0, 0, 0, 0], round_index: 0, rounds: 4, status: "playing", result: null,
  }),
  ramiopen: () => ({ ...scenarios.rami(), opened: ["yes", "yes", "yes", "no"] }),
};

// ---- a toy server: enough to move the screen along; the real rules live on the server
class FakeSocket {
  constructor() {
    this.readyState = 0;
    this.view = scenarios[scenario]();
    this.version = this.view.version || 1;
    setTimeout(() => {
      this.readyState = 1; this.onopen?.(); this.push();
      this.emit({ type: "chat_history", lines: [{ id: 1, user: "mehmet", name: "mehmet_the_long_named", text: "iyi oyunlar!", at: NOW - 60000 }] });
    }, 10);
  }
  push() { this.view.version = this.version; this.emit({ type: "snapshot", version: this.version, view: structuredClone(this.view) }); }
  emit(frame) { log("<- " + JSON.stringify(frame).slice(0, 300)); this.onmessage?.({ data: JSON.stringify(frame) }); }
  close() { this.readyState = 3; }
  send(text) {
    const f = JSON.parse(text);
    log("-> " + text);
    if (f.type === "sync") return this.push();
    if (f.type === "chat") {
      if (f.text.length > 300) return this.emit({ type: "error", code: "too_long", message: "Too long (demo)" });
      return this.emit({ type: "chat", id: Date.now(), user: "ayse", name: "ayse", text: f.text, at: Date.now() });
    }
    if (f.type === "report") return this.emit({ type: "reported" });
    if (f.type !== "action") return;
    const err = this.apply(f.action);
    if (err) return this.emit({ type: "error", id: f.id, code: err, message: `Refused (demo): ${err}` });
    this.view.last_action = { seat: 0, type: f.action.type };
    this.version += 1;
    this.emit({ type: "ack", id: f.id, version: this.version });
    this.push();
  }
  take(tiles) {
    const rack = this.view.rack;
    for (const t of tiles) {
      const phys = t.split("=")[0];
      const i = rack.indexOf(phys);
      if (i < 0) return false;
      rack.splice(i, 1);
    }
    return true;
  }
  apply(a) {
    const v = this.view;
    if (v.turn !== v.seat) return "not_your_turn";
    if (a.type === "take_discard") {
      const prev = v.discards[(v.seat + 3) % 4];
      if (!prev.length) return "nothing_to_take";
      v.rack.push(prev.pop());
      v.phase = "play";
      return this.apply(a.then);
    }
    if (a.type === "draw") {
      if (v.ruleset === "rami") { v.rack.push("K12"); v.turn = 1; return null; }
      if (v.phase !== "draw") return "wrong_phase";
      v.rack.push(["Y3", "K8", "B1", "R9"][v.pile_count % 4]); v.pile_count -= 1; v.phase = "play"; return null;
    }
    if (v.phase === "draw" && v.ruleset !== "rami") return "wrong_phase";
    if (a.type === "discard") {
      if (!this.take([a.tile])) return "tile_not_in_rack";
      v.discards[v.seat].push(a.tile);
      v.turn = 1; v.phase = "draw"; v.deadline = Date.now() + 30000;
      setTimeout(() => {
        v.turn = 0; v.discards[3].push("B6"); v.last_action = { seat: 3, type: "discard", tile: "B6" };
        this.version += 1; this.push();
      }, 1500);
      return null;
    }
    if (a.type === "open" || a.type === "meld") {
      const list = a.type === "open" ? a.melds : [a.tiles];
      if (list.some((m) => !analyse(RULES[v.ruleset], m, v.okey).valid)) return "invalid_meld";
      const pts = list.reduce((s, m) => s + analyse(RULES[v.ruleset], m, v.okey).points, 0);
      if (a.type === "open" && list[0].length > 2 && pts < v.threshold) return "below_threshold";
      if (!this.take(list.flat())) return "tile_not_in_rack";
      let id = Math.max(0, ...v.table.map((m) => m.id));
      for (const m of list) v.table.push({ id: ++id, owner: v.seat, tiles: m });
      if (a.type === "open") v.opened[v.seat] = list[0].length === 2 ? "pairs" : "melds";
      return null;
    }
    if (a.type === "add") {
      const m = v.table.find((x) => x.id === a.meld);
      if (!m) return "cannot_add";
      const tiles = [...m.tiles, a.tile];
      if (!analyse(RULES[v.ruleset], tiles, v.okey).valid) return "cannot_add";
      if (!this.take([a.tile])) return "tile_not_in_rack";
      m.tiles = tiles;
      return null;
    }
    if (a.type === "play") {
      const before = v.table.flat().map((t) => t.split("=")[0]);
      const after = a.table.flat().map((t) => t.split("=")[0]);
      const added = [...after];
      for (const t of before) { const i = added.indexOf(t); if (i < 0) return "table_mismatch"; added.splice(i, 1); }
      if (!added.length) return "no_tiles_played";
      if (a.table.some((m) => !analyse(RULES.rami, m, null).valid)) return "invalid_meld";
      if (!this.take(added)) return "table_mismatch";
      v.table = a.table; v.opened[v.seat] = "yes"; v.turn = 1;
      return null;
    }
    return "bad_action";
  }
}

function log(line) {
  const el = document.getElementById("demo-log");
  el.textContent += line + "\n";
  el.scrollTop = el.scrollHeight;
  (window.demoFrames ||= []).push(line);
}

document.getElementById("demo-bar").append(...Object.keys(scenarios).map((k) => {
  const a = document.createElement("a");
  a.href = `?s=${k}`; a.textContent = k;
  return a;
}));

const base = scenarios[scenario]();
const config = { ruleset: base.ruleset, rules: RULES[base.ruleset], options: base.options, seat: base.seat, ws_url: "ws://demo/",
  assisted: !!base.assisted, move_time: 30, players: 4, urls: { lobby: "#lobby" } };
if (params.get("fresh") !== "0") localStorage.clear();
window.okeyTable = startTable(document.getElementById("table-app"), config, { socketFactory: () => new FakeSocket() });
