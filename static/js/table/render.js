// DOM builders for the table page. No state here: functions take data, return elements.
import { _, fmt } from "./i18n.js";
import { face, splitWild } from "./tiles.js";

const COLOUR_NAMES = { R: "red", B: "blue", K: "black", Y: "yellow" };
// computer levels as the server names them (games/models.py BOT_LEVEL_CHOICES)
const LEVELS = () => ({ easy: _("easy"), normal: _("normal"), strong: _("strong") });

/** Create an element: h("div", {class: "x", dataset: {...}}, child, "text"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function colourName(c) {
  return { R: _("red"), B: _("blue"), K: _("black"), Y: _("yellow") }[c] || COLOUR_NAMES[c];
}

/**
 * A tile face.
 * @param {string} text "R5", "F", "J", or a meld tile "R6=B5" / "J=K7"
 * @param {object} ctx {okey, ruleset, faceDown, small}
 * @returns {HTMLElement} `.tile[data-tile]` with colour class c-R/c-B/c-K/c-Y
 */
export function tileEl(text, { okey = null, ruleset = "okey51", faceDown = false, small = false } = {}) {
  const { physical, represented } = splitWild(text);
  const wild = ruleset === "rami" ? physical === "J" : (okey && physical === okey);
  const shown = represented ? face(represented) : physical === "F" ? null : face(physical);
  const classes = ["tile"];
  if (small) classes.push("small");
  if (wild) classes.push("wild");
  if (physical === "F") classes.push("false-joker");
  if (physical === "J") classes.push("joker");
  if (faceDown) classes.push("face-down");
  let label;
  if (faceDown) {
    label = "";
  } else if (physical === "J" && !represented) {
    classes.push("c-K");
    label = "☺";
  } else if (physical === "F") {
    const of = face(okey);
    classes.push(of ? `c-${of.colour}` : "c-K");
    label = "✦";
  } else {
    classes.push(`c-${shown.colour}`);
    label = String(shown.number);
  }
  const title = faceDown ? _("face-down tile")
    : physical === "F" ? fmt(_("false joker (plays as %(tile)s)"), { tile: okey || "?" })
    : physical === "J" ? (represented ? fmt(_("joker as %(tile)s"), { tile: represented }) : _("joker"))
    : wild ? (represented && represented !== physical ? fmt(_("okey as %(tile)s"), { tile: represented }) : _("okey (wild)"))
    : `${colourName(shown.colour)} ${shown.number}`;
  return h("div", { class: classes.join(" "), dataset: { tile: text }, title, "aria-label": title },
    h("span", { class: "num" }, label),
    wild && !faceDown ? h("span", { class: "wild-mark", "aria-hidden": "true" }, "★") : null);
}

/** Display name of a seat's player, with the computer label (PLAYERS.md complaint 2). */
export function playerName(view, seat) {
  const p = (view.players || [])[seat] || {};
  const name = p.name || p.display_name || p.username;
  if (name) return name;
  if (p.computer !== null && p.computer !== undefined) {
    return fmt(_("Computer · %(level)s"), { level: LEVELS()[p.computer] || String(p.computer) });
  }
  if (p.empty) return _("Empty seat");
  return fmt(_("Seat %(n)s"), { n: seat + 1 });
}

/**
 * A label under a human's name when a computer plays their seat for now
 * (timeouts or disconnect, RULES.md §6), else null. Computer seats are named
 * "Computer · level" by playerName (PLAYERS.md complaint 2).
 */
export function playerLabel(view, seat) {
  const p = (view.players || [])[seat] || {};
  if (p.autoplay && p.name) return _("a computer plays for now");
  return null;
}

/**
 * The round's score table (PROTOCOL.md `round_end`): one `.score-row` per seat.
 * @param {object} view for names
 * @param {{scores: number[], penalties: any[], round_totals?: number[], totals: number[]}} data
 *   scores: end-of-round amounts; penalties: in-round penalties (points, or a list of
 *   entries); round_totals: their sum; totals: the match so far (RULES.md §3-5).
 */
export function scoreTable(view, data) {
  const n = Math.max((data.scores || []).length, (data.totals || []).length, (view.players || []).length);
  const penaltyText = (p) => {
    if (p === null || p === undefined) return "0";
    if (Array.isArray(p)) {
      if (!p.length) return "0";
      return p.map((e) => (typeof e === "object" ? `${e.points ?? e.amount ?? ""} ${e.reason ? _(e.reason) : ""}`.trim() : String(e))).join(", ");
    }
    return String(p);
  };
  const rows = [];
  for (let s = 0; s < n; s++) {
    const label = playerLabel(view, s);
    rows.push(h("tr", { class: `score-row${s === view.seat ? " me" : ""}`, dataset: { seat: String(s) } },
      h("th", { scope: "row" }, playerName(view, s), label ? h("small", { class: "who-label" }, label) : null),
      h("td", { class: "round-score" }, String((data.scores || [])[s] ?? "")),
      h("td", { class: "round-penalty" }, penaltyText((data.penalties || [])[s])),
      h("td", { class: "round-total" }, String((data.round_totals || [])[s] ?? "")),
      h("td", { class: "match-total" }, String((data.totals || [])[s] ?? ""))));
  }
  return h("table", { class: "scores" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, _("Player")),
      h("th", { scope: "col" }, _("Round")),
      h("th", { scope: "col" }, _("Penalties")),
      h("th", { scope: "col" }, _("Round total")),
      h("th", { scope: "col" }, _("Match total")))),
    h("tbody", {}, rows));
}
