// The overlay over the table: the round's score table (docs/protocol.md §6 `round_end`) with
// the countdown to the next round, and the match-over standings with the way back to
// the lobby.
import { _, fmt, pgettext } from "../i18n.js";
import { matchOver } from "../selectors.js";
import { endReasonText, penaltyText, playerLabel, playerName } from "../text.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";

/**
 * The round's score table: one `.score-row` per seat, the seat's in-round penalties
 * listed under its name (`penalty_events`, when the server sends them), and with
 * `options.teams` (okey51 2v2, partners seat and seat+2) one `.team-row` per team with
 * the sum of the partners' match totals.
 * @param {object} view for names and options
 * @param {object} rules table_config.rules: `round_penalties` (rami has none, RULES.md §5),
 *   which tile is wild in the revealed racks
 * @param {{scores: number[], penalties: any[], round_totals?: number[], totals: number[],
 *   penalty_events?: {seat: number, amount: number, reason: string, tile: string|null, by: number|null}[]}} data
 *   scores: end-of-round amounts (points); penalties: in-round penalty points per seat;
 *   round_totals: their sum; totals: the match so far (RULES.md §3-5).
 * @returns {HTMLDivElement} the table.scores in its div.scores-box
 */
export function scoreTable(view, data, rules) {
  // without in-round penalties (rami, RULES.md §5) there is no Penalties column, and the
  // round total is the round's score
  const withPenalties = !!rules.round_penalties;
  const cols = withPenalties ? 5 : 3;
  const result = data.result || (view.round_end && view.round_end.result) || view.result || null;
  const racks = (result && result.racks) || null;
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
    const name = playerName(view, s);
    const mine = events ? events.filter((e) => e.seat === s) : [];
    rows.push(h("tr", { class: `score-row${s === view.seat ? " me" : ""}`, dataset: { seat: String(s) } },
      // a name too long for its two lines ends in "…" (styles): the whole of it in the title
      h("th", { scope: "row" }, h("span", { class: "score-name", title: name }, name),
        label ? h("small", { class: "who-label" }, label) : null,
        teams ? h("small", { class: "partner-of" }, fmt(_("partner: %(name)s"), { name: playerName(view, (s + 2) % 4) })) : null),
      h("td", { class: "round-score" }, String((data.scores || [])[s] ?? "")),
      withPenalties ? h("td", { class: "round-penalty" }, penaltyCell((data.penalties || [])[s])) : null,
      withPenalties ? h("td", { class: "round-total" }, String((data.round_totals || [])[s] ?? "")) : null,
      h("td", { class: "match-total" }, String((data.totals || [])[s] ?? ""))));
    if (racks && racks[s]) {
      // every rack is revealed at the round's end (the engine's public result)
      const okey = (view.round_end && view.round_end.okey) || view.okey || null;
      rows.push(h("tr", { class: `rack-row${s === view.seat ? " me" : ""}`, dataset: { seat: String(s) } },
        h("td", { colspan: String(cols) }, racks[s].length
          ? h("div", { class: "revealed-rack", "aria-label": fmt(_("Rack of %(name)s"), { name }) },
            racks[s].map((t) => tileEl(t, { okey, rules, small: true })))
          : h("span", { class: "rack-empty" }, result.finisher === s ? _("finished: no tile left") : _("no tile left")))));
    }
    if (mine.length) {
      rows.push(h("tr", { class: `penalty-events-row${s === view.seat ? " me" : ""}`, dataset: { seat: String(s) } },
        h("td", { colspan: String(cols) }, h("ul", { class: "penalty-events" },
          mine.map((e) => h("li", { dataset: { reason: e.reason } }, penaltyText(view, e)))))));
    }
  }
  let foot = null;
  if (teams) {
    const tot = data.totals || [];
    const rt = data.round_totals || [];
    const sum = (arr, a) => (arr[a] ?? 0) + (arr[a + 2] ?? 0);
    foot = h("tfoot", {}, [0, 1].map((a) => h("tr", { class: `team-row${view.seat === a || view.seat === a + 2 ? " me" : ""}`, dataset: { team: String(a) } },
      h("th", { scope: "row", colspan: String(withPenalties ? 3 : 2) }, fmt(_("Team %(a)s & %(b)s"), { a: playerName(view, a), b: playerName(view, a + 2) })),
      withPenalties ? h("td", { class: "round-total" }, rt.length ? String(sum(rt, a)) : "") : null,
      h("td", { class: "match-total" }, String(Array.isArray(teamTotals) ? teamTotals[a] : sum(tot, a))))));
  }
  // in a box of its own that scrolls sideways when the columns are still wider than the
  // card (a small phone, long column titles): never a column cut off
  return h("div", { class: "scores-box" }, h("table", { class: "scores" },
    h("thead", {}, h("tr", {},
      h("th", { scope: "col" }, _("Player")),
      h("th", { scope: "col" }, _("Round")),
      withPenalties ? h("th", { scope: "col" }, _("Penalties")) : null,
      withPenalties ? h("th", { scope: "col" }, _("Round total")) : null,
      h("th", { scope: "col" }, _("Match total")))),
    h("tbody", {}, rows), foot));
}

export class ScoreOverlay {
  constructor(ctx) {
    this.ctx = ctx;
    this.next = null;
    this.scores = h("div", { id: "score-table", class: "overlay-card", hidden: true, role: "dialog", "aria-label": _("Scores") });
    this.matchOver = h("div", { id: "match-over", class: "overlay-card", hidden: true, role: "dialog", "aria-label": _("Match over") });
    this.el = h("div", { class: "overlay", hidden: true }, this.matchOver, this.scores);
  }

  render(state) {
    const shut = [this.scores.hidden, this.matchOver.hidden];
    this.renderScores(state);
    this.renderMatchOver(state);
    this.el.hidden = this.scores.hidden && this.matchOver.hidden;
    // a card that appears is read from the top: the overlay opens there, and the match's
    // ranking coming over a round's scores the player scrolled down in is not left above
    if ((shut[0] && !this.scores.hidden) || (shut[1] && !this.matchOver.hidden)) this.el.scrollTop = 0;
    this.tick(state);
  }

  renderScores(state) {
    const v = state.view;
    const over = matchOver(state);
    const data = state.lastScores;
    const show = !!(data && v && (over || !state.scoresClosed));
    this.scores.hidden = !show;
    this.next = null;
    if (!show) return;
    if (!over) this.next = h("p", { class: "hint", id: "next-round" }, _("The next round starts shortly."));
    this.scores.replaceChildren(...[
      h("h2", {}, fmt(_("Round %(n)s scores"), { n: (data.round_index ?? v.round_index ?? 0) + 1 })),
      h("p", { class: "end-reason", id: "end-reason" }, endReasonText(v, data.result || (v.round_end && v.round_end.result) || v.result)),
      scoreTable(v, data, state.rules),
      this.next,
      over ? null : h("button", { type: "button", class: "btn", id: "score-close",
        onclick: () => this.ctx.dispatch({ type: "close_scores" }) }, _("Close")),
    ].filter(Boolean));
  }

  renderMatchOver(state) {
    const v = state.view;
    if (!v || !matchOver(state) || state.matchOverClosed) { this.matchOver.hidden = true; return; }
    const ended = state.matchEnded || v.round_end || {};
    const totals = ended.totals || (v.round_end && v.round_end.totals) || v.totals || [];
    const order = matchOrder(v, ended, totals, this.ctx.controller.highestWins);
    const left = leftSeats(v, ended);
    const places = matchPlaces(v, totals, left, this.ctx.controller.highestWins);
    this.matchOver.replaceChildren(
      h("h2", {}, _("Match over")),
      h("ol", { class: "standings" }, order.map((s) => h("li", { class: `${s === v.seat ? "me" : ""}${left.has(s) ? " left" : ""}`, dataset: { seat: String(s) },
        value: String(places[s]) },
        playerName(v, s), " — ", String(totals[s]),
        left.has(s) ? h("small", { class: "who-label" }, " ", pgettext("player left the match", "left")) : null))),
      ...[teamStandings(v, totals, left)].filter(Boolean),   // replaceChildren would write null as "null"
      h("div", { class: "match-over-links" },
        h("a", { class: "btn primary", href: this.ctx.lobbyUrl, id: "back-to-lobby" }, _("Back to the lobby")),
        matchUrl(this.ctx.config) ? h("a", { class: "btn", href: matchUrl(this.ctx.config), id: "match-page-link" }, _("Match page")) : "",
        replayUrl(this.ctx.config) ? h("a", { class: "btn", href: replayUrl(this.ctx.config), id: "replay-link" }, _("Replay")) : "",
        h("button", { type: "button", class: "btn", id: "match-over-close", onclick: () => this.ctx.dispatch({ type: "close_match_over" }) }, _("Close"))));
    this.matchOver.hidden = false;
  }

  /** The pause between rounds counts down in the score table. */
  tick(state) {
    const v = state.view;
    if (!this.next || !v || v.deadline_kind !== "next_round" || !v.deadline) return;
    this.next.textContent = fmt(_("The next round starts in %(n)s s."), { n: Math.max(0, Math.ceil((v.deadline - Date.now()) / 1000)) });
  }
}

/**
 * The match's seats best first: the server's standings (games/results.py: a player who
 * left is last whatever their total), else by total (okey lowest first, rami highest),
 * ties by seat, with the seats that left after every other.
 */
export function matchOrder(v, ended, totals, highestWins) {
  const standings = ended.standings || (v.round_end && v.round_end.standings);
  if (Array.isArray(standings) && standings.length === totals.length) return standings.slice();
  const left = leftSeats(v, ended);
  return totals.map((t, s) => s).sort((a, b) => (left.has(a) - left.has(b))
    || (highestWins ? totals[b] - totals[a] : totals[a] - totals[b]) || a - b);
}

/**
 * Each seat's place (1 = best) as the match page and the profiles give it (games/results.py):
 * equal totals share a place, those who left share the last one; in okey51 team play both
 * players of a team share the team's place. The standings list numbers its lines by these,
 * so tied players no longer read as 2nd, 3rd and 4th here and 2nd everywhere else.
 */
export function matchPlaces(v, totals, left, highestWins) {
  const teams = !!(v.options && v.options.teams) && totals.length === 4;
  const key = (s) => {
    if (teams) {
      const a = s % 2;
      return [Number(left.has(a) || left.has(a + 2)), totals[a] + totals[a + 2]];
    }
    return [Number(left.has(s)), highestWins ? -totals[s] : totals[s]];
  };
  const keys = totals.map((t, s) => key(s));
  const distinct = [...new Set(keys.map((k) => k.join(" ")))].map((k) => k.split(" ").map(Number))
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]).map((k) => k.join(" "));
  return keys.map((k) => distinct.indexOf(k.join(" ")) + 1);
}

/** The seats whose player left the match (round_end.left, else players[s].left), as a Set. */
export function leftSeats(v, ended) {
  const listed = ended.left || (v.round_end && v.round_end.left);
  if (Array.isArray(listed) && listed.length) return new Set(listed);
  return new Set((v.players || []).map((p, s) => (p && p.left ? s : -1)).filter((s) => s >= 0));
}

/** The match page's address from the page's table_config, or null. */
function matchUrl(config) {
  return (config && config.urls && config.urls.match) || null;
}

/** The match's replay page from the page's table_config, or null. */
function replayUrl(config) {
  return (config && config.urls && config.urls.replay) || null;
}

/** okey51 team play: the two teams (seats 0+2, 1+3), lowest total first (RULES.md §3), a
 * team with a player who left after the other (games/results.py). */
function teamStandings(v, totals, left = new Set()) {
  if (!(v.options && v.options.teams) || totals.length !== 4) return null;
  const gone = (a) => Number(left.has(a) || left.has(a + 2));
  const teams = [0, 1].map((a) => ({ a, total: totals[a] + totals[a + 2] }))
    .sort((x, y) => gone(x.a) - gone(y.a) || x.total - y.total || x.a - y.a);
  return h("ol", { class: "standings team-standings" }, teams.map((t) => h("li", { class: v.seat === t.a || v.seat === t.a + 2 ? "me" : "" },
    fmt(_("Team %(a)s & %(b)s"), { a: playerName(v, t.a), b: playerName(v, t.a + 2) }), " — ", String(t.total))));
}
