// The replay page (templates/games/replay.html): step forward and back through every move
// of a finished round with every rack revealed. The positions come from the server, which
// replays the stored move log with the engine (games/replays.py): a match's rounds one at
// a time from `frames_url`, or a record file the player uploads. ←/→ step, Home/End jump;
// the address always names the round and move (?round=N&move=K), so it can be shared.
import { differenceText, verifiedText } from "./fairdeal-text.js";
import { _, fmt, ngettext } from "./table/i18n.js";
import { playerName } from "./table/text.js";
import { compareTiles } from "./table/tiles.js";
import { h } from "./table/views/dom.js";
import { tileEl } from "./table/views/tile.js";

const $ = (id) => document.getElementById(id);
const config = JSON.parse($("replay-config").textContent);
const state = {
  ruleset: config.ruleset,
  rules: config.rules,     // the ruleset's facts (Ruleset.client_rules): which tile is wild
  players: JSON.parse($("replay-players").textContent),
  rounds: new Map(), // round number -> {number, first, frames, moves, verification?}
  round: null,
  move: 0,
  better: false,     // "show the better move" drawn at the marked turn shown
};

function showError(text) {
  $("replay-error").textContent = text || "";
  $("replay-error").hidden = !text;
}

function wanted() {
  const q = new URLSearchParams(window.location.search);
  const round = Number.parseInt(q.get("round") || "", 10);
  const move = Number.parseInt(q.get("move") || "", 10);
  return { round: Number.isInteger(round) ? round : null, move: Number.isInteger(move) ? move : 0 };
}

function address() {
  const url = new URL(window.location.href);
  url.searchParams.set("round", state.round);
  url.searchParams.set("move", state.move);
  return url;
}

// ------------------------------------------------------------------ drawing
function tiles(list, frame, cls) {
  return h("div", { class: `replay-tiles ${cls || ""}` },
    (list || []).map((t) => tileEl(t, { okey: frame.okey || null, rules: state.rules, small: true })));
}

function openedLabel(opened) {
  if (opened === "pairs") return _("opened with pairs");
  if (opened === "melds" || opened === "yes") return _("opened");
  return _("not opened");
}

function seatBox(frame, seat, replay, move) {
  const player = state.players[seat] || {};
  const turn = !frame.result && frame.turn === seat;
  const rack = [...frame.racks[seat]].sort((a, b) => compareTiles(a, b, frame.okey || null));
  const rackTiles = tiles(rack, frame, "replay-rack");
  if (move && move.drawn && move.seat === seat) { // the tile just drawn, as the table marks it
    const drawn = [...rackTiles.children].find((el) => el.dataset.tile === move.drawn);
    if (drawn) drawn.classList.add("fresh");
  }
  const penalty = (frame.penalty || [])[seat] || 0;
  const marked = markedTurn(replay, seat);
  return h("section", { class: `replay-seat${turn ? " turn" : ""}${player.computer ? " computer" : ""}`, dataset: { seat } },
    h("header", {},
      h("span", { class: "seat-no" }, fmt(_("Seat %(n)s"), { n: seat + 1 })),
      h("strong", { class: "seat-name" }, playerName({ players: state.players }, seat)),
      turn ? h("span", { class: "turn-mark" }, _("to play")) : null,
      seat === replay.first ? h("span", { class: "first-mark muted" }, _("first")) : null),
    h("p", { class: "seat-facts small" },
      fmt(ngettext("%(n)s tile", "%(n)s tiles", rack.length), { n: rack.length }), " · ", openedLabel((frame.opened || [])[seat]),
      penalty ? ` · ${fmt(_("penalties %(points)s"), { points: penalty })}` : ""),
    rackTiles,
    marked && state.better ? betterBox(marked, frame) : null,
    frame.discards ? h("div", { class: "replay-discard-row" }, h("span", { class: "small muted" }, _("Discards")),
      tiles(frame.discards[seat], frame, "replay-discards")) : null);
}

function meldBox(meld, frame) {
  const list = Array.isArray(meld) ? meld : meld.tiles;
  return h("div", { class: "replay-meld", dataset: Array.isArray(meld) ? {} : { meldId: meld.id } },
    Array.isArray(meld) ? null : h("span", { class: "meld-id small" }, String(meld.id)),
    tiles(list, frame, "replay-meld-tiles"));
}

// okey: each owner's melds on one line (moves name melds by their number); rami: one shared table
function tableBox(frame) {
  const melds = frame.table || [];
  const box = $("replay-table");
  box.replaceChildren(h("h3", {}, _("Table")));
  if (!melds.length) {
    box.append(h("p", { class: "muted small" }, _("No meld on the table yet.")));
    return;
  }
  if (melds.some(Array.isArray)) {
    box.append(h("div", { class: "replay-melds" }, melds.map((m) => meldBox(m, frame))));
    return;
  }
  const owners = [...new Set(melds.map((m) => m.owner))].sort((a, b) => a - b);
  for (const owner of owners) {
    box.append(h("div", { class: "replay-owner" },
      h("span", { class: "owner-name small" }, playerName({ players: state.players }, owner)),
      h("div", { class: "replay-melds" }, melds.filter((m) => m.owner === owner).map((m) => meldBox(m, frame)))));
  }
}

function resultBox(frame) {
  const box = $("replay-result");
  const scores = frame.result && frame.result.scores;
  box.hidden = !scores;
  if (!scores) return;
  const penalties = frame.penalty || [];
  box.replaceChildren(h("h3", {}, _("Round over")), h("table", { class: "list scores" },
    h("thead", {}, h("tr", {}, h("th", {}, _("Player")), h("th", {}, _("Round score")), h("th", {}, _("Penalties")),
      h("th", {}, _("Round total")))),
    h("tbody", {}, scores.map((score, seat) => h("tr", {},
      h("td", {}, playerName({ players: state.players }, seat)), h("td", { class: "num" }, score),
      h("td", { class: "num" }, penalties[seat] || 0), h("td", { class: "num" }, score + (penalties[seat] || 0)))))));
}

// ------------------------------------------------------------------ review
// The review of the seats the viewer may see (their own, or a player's made public): the
// marks of each turn, and at a marked turn the better move drawn on that seat's rack.
function turnAt(review, move) {
  return review.turns.find((t) => t.moves.length && move >= t.moves[0] - 1 && move <= t.moves[t.moves.length - 1]);
}

function decisionMove(turn) { // the position just before the turn's last move: its decision
  return turn.moves[turn.moves.length - 1] - 1;
}

function markedTurn(replay, seat) {
  const review = (replay.reviews || []).find((r) => r.seat === seat);
  const turn = review ? turnAt(review, state.move) : null;
  return turn && turn.cost ? turn : null;
}

function betterBox(turn, frame) {
  const best = turn.best || {};
  const groups = [];
  if (best.melds) groups.push(...best.melds.map((m) => tiles(m, frame, "better-meld")));
  if (best.table) {
    const placed = [...(best.placed || [])];
    for (const meld of best.table) {
      const box = tiles(meld, frame, "better-meld");
      for (const el of box.children) { // the rack tiles the better play lays
        const physical = (el.dataset.tile || "").split("=")[0];
        const k = placed.indexOf(physical);
        if (k >= 0) { placed.splice(k, 1); el.classList.add("better-placed"); }
      }
      groups.push(box);
    }
  }
  if (best.discard) {
    const box = tiles([best.discard], frame, "better-discard");
    groups.push(h("span", { class: "better-discard-label small" }, _("Discard")), box);
  }
  return h("div", { class: "better-move", role: "region", "aria-label": _("The better move") },
    h("h4", {}, _("The better move")),
    h("ul", { class: "plain small" }, (turn.better || []).map((text) => h("li", {}, text))),
    h("div", { class: "better-tiles" }, groups));
}

function reviewPanel(replay) {
  const box = $("review-panel");
  const list = replay.reviews || [];
  box.hidden = !list.length;
  if (!list.length) return;
  const parts = [];
  for (const review of list) {
    const current = turnAt(review, state.move);
    parts.push(h("h3", {}, fmt(_("Review of %(name)s"), { name: review.name }),
      review.accuracy === null ? null : h("span", { class: "review-accuracy" }, ` · ${fmt(_("accuracy %(n)s"), { n: review.accuracy })}`)));
    parts.push(h("ol", { class: "review-turns plain", dataset: { seat: review.seat } }, review.turns.filter((t) => t.mark).map((t) =>
      h("li", {}, h("button", {
        type: "button", class: `review-turn mark-${t.mark}`, dataset: { mark: t.mark, turn: t.number },
        "aria-current": current === t ? "true" : "false",
        onclick: () => { state.better = false; go(decisionMove(t)); },
      }, h("span", { class: "turn-no" }, fmt(_("Turn %(n)s"), { n: t.number })),
      h("span", { class: "mark-label" }, t.mark_label),
      t.cost ? h("span", { class: "turn-cost small" }, fmt(_("%(points)s points"), { points: t.cost })) : null)))));
    if (current && current.cost) {
      parts.push(h("div", { class: `review-now mark-${current.mark}` },
        h("p", {}, h("strong", {}, current.mark_label), " · ", fmt(_("Turn %(n)s"), { n: current.number })),
        h("ul", { class: "plain small" }, current.why.map((text) => h("li", {}, text))),
        h("button", {
          type: "button", id: "show-better", class: "primary", "aria-pressed": state.better ? "true" : "false",
          onclick: () => { state.better = !state.better; render(); },
        }, state.better ? _("Hide the better move") : _("Show the better move"))));
    }
    if (review.own && config.training_url && review.turns.some((t) => t.mark === "mistake" || t.mark === "blunder")) {
      parts.push(h("p", { class: "small" }, h("a", { href: config.training_url, id: "training-link" }, _("Find the better move"))));
    }
  }
  box.replaceChildren(...parts);
}

function render() {
  const replay = state.rounds.get(state.round);
  if (!replay) return;
  const last = replay.frames.length - 1;
  state.move = Math.max(0, Math.min(state.move, last));
  const frame = replay.frames[state.move];
  const move = state.move > 0 ? replay.moves[state.move - 1] : null;
  $("replay-board").hidden = false;
  $("move-counter").textContent = fmt(_("Move %(n)s of %(total)s"), { n: state.move, total: last });
  $("move-slider").max = String(last);
  $("move-slider").value = String(state.move);
  $("first-move").disabled = $("prev-move").disabled = state.move === 0;
  $("next-move").disabled = $("last-move").disabled = state.move === last;
  const text = $("move-text");
  text.className = move && move.refused ? "refused" : "";
  text.replaceChildren(...(move
    ? [`${move.number}. ${move.text}`, move.actor ? h("span", { class: "actor small" }, ` · ${move.actor}`) : null]
    : [_("The deal: every rack as it was dealt.")]).filter(Boolean));
  $("move-penalties").replaceChildren(...(move ? move.penalties : []).map((p) => h("li", {}, p)));
  const centre = [h("span", { class: "small" },
    fmt(ngettext("Pile: %(n)s tile", "Pile: %(n)s tiles", frame.pile_count), { n: frame.pile_count }))];
  if (frame.indicator) {
    centre.unshift(h("span", { class: "small" }, _("Indicator")), tiles([frame.indicator], frame, "replay-indicator"),
      h("span", { class: "small" }, _("Okey")), tiles([frame.okey], frame, "replay-okey"));
  }
  $("replay-centre").replaceChildren(...centre);
  $("replay-seats").replaceChildren(...frame.racks.map((_r, seat) => seatBox(frame, seat, replay, move)));
  tableBox(frame);
  resultBox(frame);
  reviewPanel(replay);
  for (const tab of document.querySelectorAll("#round-tabs button")) {
    tab.setAttribute("aria-current", Number(tab.dataset.round) === state.round ? "true" : "false");
  }
  showVerification(replay);
  const url = address();
  window.history.replaceState(null, "", url);
  $("share-link").href = url.href;
  $("share-link").hidden = config.mode !== "match"; // a file's replay has no address to share
}

function showVerification(replay) {
  const box = $("replay-verification");
  box.hidden = !replay.verification;
  if (!replay.verification) return;
  const differences = replay.verification;
  box.className = `verify-result ${differences.length ? "bad" : "ok"}`;
  box.textContent = differences.length ? `✘ ${differences.map(differenceText).join(" ")}` : `✔ ${verifiedText()}`;
}

function go(move) {
  if (move !== state.move) state.better = false;
  state.move = move;
  render();
}

// ------------------------------------------------------------------ loading
function tabs(numbers, running = []) {
  const nav = $("round-tabs");
  nav.replaceChildren(
    ...numbers.map((n) => h("button", { type: "button", dataset: { round: n }, onclick: () => open(n, 0) },
      fmt(_("Round %(n)s"), { n }))),
    ...running.map((n) => h("button", { type: "button", disabled: true, title: _("Its replay opens once it is over.") },
      fmt(_("Round %(n)s (being played)"), { n }))));
}

async function open(number, move) {
  showError("");
  if (!state.rounds.has(number)) {
    if (config.mode !== "match") return;
    if (config.running.includes(number)) {
      showError(_("This round is still being played: its replay opens once it is over."));
      number = config.rounds[0];
      if (number === undefined) return;
    }
    if (!state.rounds.has(number)) {
      const response = await fetch(`${config.frames_url}?round=${encodeURIComponent(number)}`, { headers: { Accept: "application/json" } });
      if (!response.ok) {
        showError(_("This round has no replay."));
        return;
      }
      const data = await response.json();
      state.rounds.set(number, data.round);
    }
  }
  state.round = number;
  state.move = move;
  render();
}

async function upload(event) {
  event.preventDefault();
  const form = event.currentTarget;
  showError("");
  $("record-submit").disabled = true;
  try {
    const response = await fetch(form.action, { method: "POST", body: new FormData(form), headers: { Accept: "application/json" } });
    const data = await response.json().catch(() => ({ error: _("The server could not read this file.") }));
    if (!response.ok || data.error) {
      showError(data.error || _("The server could not read this file."));
      return;
    }
    state.ruleset = data.ruleset;
    state.rules = data.rules;
    state.players = data.players;
    state.rounds = new Map(data.rounds.map((r) => [r.number, r]));
    tabs(data.rounds.map((r) => r.number));
    await open(data.rounds[0].number, 0);
  } finally {
    $("record-submit").disabled = false;
  }
}

function keys(event) {
  if (!state.round || event.target.closest("input, textarea, select")) return;
  const replay = state.rounds.get(state.round);
  const moves = { ArrowLeft: state.move - 1, ArrowRight: state.move + 1, Home: 0, End: replay.frames.length - 1 };
  if (!(event.key in moves)) return;
  event.preventDefault();
  go(moves[event.key]);
}

$("first-move").addEventListener("click", () => go(0));
$("prev-move").addEventListener("click", () => go(state.move - 1));
$("next-move").addEventListener("click", () => go(state.move + 1));
$("last-move").addEventListener("click", () => go(Number.MAX_SAFE_INTEGER));
$("move-slider").addEventListener("input", (e) => go(Number(e.target.value)));
document.addEventListener("keydown", keys);

if (config.mode === "match") {
  tabs(config.rounds, config.running);
  const { round, move } = wanted();
  const first = round ?? config.rounds[0];
  if (first !== undefined) open(first, move);
} else {
  $("record-form").addEventListener("submit", upload);
}
