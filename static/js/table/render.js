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
 * One in-round penalty as a line for the score table (issue 2).
 * @param {object} view for names
 * @param {{seat: number, amount: number, reason: string, tile: string|null, by: number|null}} e
 *   reason: penalty_tile (okey51 discard that fits a meld), discard_taken, add, swap,
 *   pair_in_area (okey17 D-12), playable_discard, joker_discard (okey17 refused discards)
 * @returns {string} e.g. "Penalty tile K11 · 100", "Discard taken by Computer · easy · 120"
 */
export function penaltyText(view, e) {
  const by = e.by !== null && e.by !== undefined ? playerName(view, e.by) : "?";
  const tile = e.tile || "";
  const n = e.amount;
  const texts = {
    penalty_tile: _("Penalty tile %(tile)s · %(n)s"),
    discard_taken: _("Discard taken by %(by)s · %(n)s"),
    add: _("%(by)s added %(tile)s to your meld · %(n)s"),
    swap: _("%(by)s swapped your okey out · %(n)s"),
    pair_in_area: _("%(by)s laid a pair in your area · %(n)s"),
    playable_discard: _("Playable discard %(tile)s · %(n)s"),
    joker_discard: _("Joker discarded · %(n)s"),
  };
  const t = texts[e.reason] || _("Penalty · %(n)s");
  return fmt(t, { tile, by, n });
}

/**
 * The round's score table (PROTOCOL.md `round_end`): one `.score-row` per seat, the
 * seat's in-round penalties listed under its name (`penalty_events`, when the server
 * sends them), and with `options.teams` (okey51 2v2, partners seat and seat+2) one
 * `.team-row` per team with the sum of the partners' match totals.
 * @param {object} view for names and options
 * @param {{scores: number[], penalties: any[], round_totals?: number[], totals: number[],
 *   penalty_events?: {seat: number, amount: number, reason: string, tile: string|null, by: number|null}[]}} data
 *   scores: end-of-round amounts (points); penalties: in-round penalty points per seat;
 *   round_totals: their sum; totals: the match so far (RULES.md §3-5).
 * @returns {HTMLTableElement}
 */
export function scoreTable(view, data) {
  const n = Math.max((data.scores || []).length, (data.totals || []).length, (view.players || []).length);
  const penaltyCell = (p) => {
    if (p === null || p === undefined) return "0";
    if (Array.isArray(p)) return String(p.reduce((a, e) => a + (typeof e === "object" ? (e.amount ?? e.points ?? 0) : Number(e) || 0), 0));
    return String(p);
  };
  const events = data.penalty_events || (view.round_end && view.round_end.penalty_events) || (view.result && view.result.penalty_events) || null;
  const teamTotals = data.team_totals || view.team_totals || null;
  const teams = (!!(view.options && view.options.teams) || Array.isArray(teamTotals)) && n === 4;
  const rows = [];
  for (let s = 0; s < n; s++) {
    const label = playerLabel(view, s);
    const mine = events ? events.filter((e) => e.seat === s) : [];
    rows.push(h("tr", { class: `score-row${s === view.seat ? " me" : ""}`, dataset: { seat: String(s) } },
      h("th", { scope: "row" }, playerName(view, s), label ? h("small", { class: "who-label" }, label) : null,
        teams ? h("small", { class: "partner-of" }, fmt(_("partner: %(name)s"), { name: playerName(view, (s + 2) % 4) })) : null,
),
      h("td", { class: "round-score" }, String((data.scores || [])[s] ?? "")),
      h("td", { class: "round-penalty" }, penaltyCell((data.penalties || [])[s])),
      h("td", { class: "round-total" }, String((data.round_totals || [])[s] ?? "")),
      h("td", { class: "match-total" }, String((data.totals || [])[s] ?? ""))));
    if (mine.length) {
      rows.push(h("tr", { class: `penalty-events-row${s === view.seat ? " me" : ""}`, dataset: { seat: String(s) } },
        h("td", { colspan: "5" }, h("ul", { class: "penalty-events" },
          mine.map((e) => h("li", { dataset: { reason: e.reason } }, penaltyText(view, e)))))));
    }
  }
  let foot = null;
  if (teams) {
    const tot = data.totals || [];
    const rt = data.round_totals || [];
    const sum = (arr, a) => (arr[a] ?? 0) + (arr[a + 2] ?? 0);
    foot = h("tfoot", {}, [0, 1].map((a) => h("tr", { class: `team-row${view.seat === a || view.seat === a + 2 ? " me" : ""}`, dataset: { team: String(a) } },
      h("th", { scope: "row", colspan: "3" }, fmt(_("Team %(a)s & %(b)s"), { a: playerName(view, a), b: playerName(view, a + 2) })),
      h("td", { class: "round-total" }, rt.length ? String(sum(rt, a)) : ""),
      h("td", { class: "match-total" }, String(Array.isArray(teamTotals) ? teamTotals[a] : sum(tot, a))))));
  }
  return h("table", { class: "scores" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, _("Player")),
      h("th", { scope: "col" }, _("Round")),
      h("th", { scope: "col" }, _("Penalties")),
      h("th", { scope: "col" }, _("Round total")),
      h("th", { scope: "col" }, _("Match total")))),
    h("tbody", {}, rows), foot);
}

/**
 * One line about the last accepted action (view.last_action, its public part):
 * the viewer's own moves in the second person ("You discarded R5"), the others'
 * in the third ("ayse drew a tile"); each is a whole sentence for the translators.
 * @param {object} view the snapshot's view ({seat, players, last_action: {seat, type, tile?}})
 * @returns {string} "" when there is no last action or its type is unknown
 */
export function lastActionText(view) {
  const a = view && view.last_action;
  if (!a || a.seat === undefined || a.seat === null) return "";
  if (a.seat === view.seat) {
    const mine = {
      draw: _("You drew a tile"),
      take_discard: _("You took the discard"),
      open: _("You opened"),
      meld: _("You laid a meld"),
      add: _("You added a tile"),
      swap: _("You swapped a wild"),
      discard: a.tile ? fmt(_("You discarded %(tile)s"), { tile: a.tile }) : _("You discarded a tile"),
      play: _("You played on the table"),
    };
    return mine[a.type] || "";
  }
  const texts = {
    draw: _("%(who)s drew a tile"),
    take_discard: _("%(who)s took the discard"),
    open: _("%(who)s opened"),
    meld: _("%(who)s laid a meld"),
    add: _("%(who)s added a tile"),
    swap: _("%(who)s swapped a wild"),
    discard: _("%(who)s discarded"),
    play: _("%(who)s played on the table"),
  };
  const t = texts[a.type];
  return t ? fmt(t, { who: playerName(view, a.seat) }) : "";
}
