// The seats around the table (left, across, right; for a spectator every seat in turn
// order, seat 0 at the bottom), and the player's own seat above their rack (`#my-seat`):
// avatar (the player's picture, a neutral initial, or the computer's mark) with the move
// clock as a ring round it, name with the computer label, rack count, opening, penalty,
// total, a speech bubble for 3 s when the seat says something in the chat, and
// (families with discards) the top of each seat's discard pile, drawn after its card.
import { _, fmt, ngettext } from "../i18n.js";
import { okeyTile, roundOver, seatCount, seated, started } from "../selectors.js";
import { openedText, playerLabel, playerName } from "../text.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { justDiscarded } from "./just.js";

// a chat line stays in a bubble at its speaker's seat this long (ms)
export const BUBBLE_MS = 3000;
// the ring turns red for the move clock's last seconds (ms)
const LOW_MS = 5000;

export class Seats {
  constructor(ctx) {
    this.ctx = ctx;
    this.opponents = h("div", { id: "opponents", class: "opponents" });
    this.me = h("div", { id: "my-seat", class: "my-seat" });
    this.el = h("div", { class: "seats" }, this.opponents, this.me);
    this.heard = null;        // the chat lines already seen: older ones get no bubble
    this.bubbles = new Map(); // seat -> {text, until (epoch ms)}
  }

  render(state) {
    const v = state.view;
    if (!v) return;
    const n = seatCount(state);
    const sits = seated(state);
    // a spectator sees the table from seat 0, which sits where a player's rack would
    const me = sits ? (v.seat ?? 0) : 0;
    const order = [];
    for (let k = n - 1; k >= 1; k--) order.push((me + k) % n);  // left, across, right
    if (!sits) order.push(me);
    this.opponents.dataset.count = String(order.length);
    // where each seat sits around the bottom seat, in turn order: the previous seat
    // (whose discard the bottom player may take) on the left, the next one on the right
    // (RULES.md §1); a spectator's bottom seat is seat 0 (the page's badge says they watch)
    const around = order.length - (sits ? 0 : 1);
    const places = (around === 3 ? ["left", "top", "right"] : around === 2 ? ["left", "right"] : ["top"]).concat(sits ? [] : ["bottom"]);
    const discards = !!this.ctx.controller.seatDiscards && started(state);
    this.opponents.dataset.discards = discards ? "yes" : "no";
    this.listen(state);
    this.opponents.replaceChildren(...order.flatMap((s, i) => {
      const card = this.seatCard(state, s);
      card.dataset.pos = places[i];
      if (!discards) return [card];
      // each seat's discard pile lies between it and the next seat in turn order
      // (RULES.md §1): a sibling of the card, so the desktop grid can put it in the gap
      const pile = this.discardPile(state, s);
      pile.dataset.pos = places[i];
      return [card, pile];
    }));
    if (sits && started(state)) {
      const mine = this.seatCard(state, me);
      mine.dataset.pos = "bottom";
      mine.classList.add("me");
      this.me.replaceChildren(mine);
    } else this.me.replaceChildren();
    this.me.hidden = !(sits && started(state));
    this.tick(state);
    // before the deal the seat list above the table (#prestart) already names the seats
    const prestart = document.getElementById("prestart");
    this.opponents.hidden = !started(state) && !!prestart && !prestart.hidden;
  }

  /** New chat lines since the last render put a bubble at their speaker's seat. */
  listen(state) {
    const lines = (state.chat && state.chat.lines) || [];
    const fresh = this.heard === null ? [] : lines.filter((l) => !this.heard.has(l.id));
    this.heard = new Set(lines.map((l) => l.id));
    const players = state.view.players || [];
    // the history a socket gets on (re)connecting is older than a bubble's moment
    const recent = (l) => !l.at || Math.abs(Date.now() - (typeof l.at === "number" ? l.at : Date.parse(l.at))) < 10000;
    for (const l of fresh.filter(recent)) {
      const seat = players.findIndex((p) => p && p.name && (p.name === l.user || p.name === l.name));
      if (seat >= 0) this.bubbles.set(seat, { text: l.text, until: Date.now() + BUBBLE_MS });
    }
  }

  /** Every seat's clock ring follows the move clock of the seat that plays (view.deadline,
   * epoch ms; red in its last 5 s); a bubble whose 3 s are over goes. */
  tick(state) {
    const v = state.view;
    if (!v) return;
    const now = Date.now();
    for (const b of this.el.querySelectorAll(".bubble")) {
      if (Number(b.dataset.until) <= now) b.hidden = true;
    }
    const card = this.el.querySelector(".seat-card.active");
    if (!card) return;
    const total = (v.move_time || 30) * 1000;
    const left = v.deadline && (!v.deadline_kind || v.deadline_kind === "move") ? Math.max(0, v.deadline - now) : null;
    card.classList.toggle("timed", left !== null);
    card.classList.toggle("low", left !== null && left <= LOW_MS);
    if (left !== null) card.style.setProperty("--clock", String(Math.min(1, left / total)));
  }

  /** The seat's picture: the avatar URL the server sends, the computer's mark, or a
   * neutral initial; inside the ring that shows the move clock. */
  avatar(v, s) {
    const p = (v.players || [])[s] || {};
    let face;
    if (p.avatar) face = h("img", { class: "avatar-img", src: p.avatar, alt: "", loading: "lazy", decoding: "async" });
    else if (p.computer !== null && p.computer !== undefined && !p.name) face = h("span", { class: "avatar-mark computer", "aria-hidden": "true" }, "⚙");
    else face = h("span", { class: "avatar-mark", "aria-hidden": "true" }, (playerName(v, s) || "?").trim().charAt(0).toUpperCase());
    return h("span", { class: "avatar" }, face);
  }

  bubble(s) {
    const b = this.bubbles.get(s);
    if (!b || b.until <= Date.now()) return null;
    return h("span", { class: "bubble", role: "status", dataset: { until: String(b.until) } }, b.text);
  }

  seatCard(state, s) {
    const v = state.view;
    const p = (v.players || [])[s] || {};
    const dataset = { seat: String(s) };
    if (p.empty) return h("div", { class: "seat-card free", dataset }, h("div", { class: "seat-name" }, _("free seat")));
    const away = p.connected === false;
    const name = h("div", { class: "seat-name" }, playerName(v, s), away ? h("span", { class: "away-dot", title: _("disconnected") }, "●") : null);
    if (!started(state)) return h("div", { class: `seat-card${away ? " away" : ""}`, dataset }, this.avatar(v, s), name);
    const partner = v.options && v.options.teams && seated(state) && s !== v.seat && (s - v.seat) % 2 === 0;
    const label = partner && !p.left ? _("partner") : playerLabel(v, s);
    const count = (v.rack_counts || [])[s];
    const pen = (v.penalty || [])[s] || 0;
    return h("div", { class: `seat-card${v.turn === s && !roundOver(state) ? " active" : ""}${away ? " away" : ""}`, dataset },
      this.avatar(v, s),
      h("div", { class: "seat-words" },
        name,
        label ? h("div", { class: "who-label" }, label) : null,
        h("div", { class: "seat-meta" },
        count !== undefined ? h("span", { class: "rack-count" }, fmt(ngettext("%(n)s tile", "%(n)s tiles", count), { n: count })) : null,
        h("span", { class: `opened o-${(v.opened || [])[s]}` }, openedText((v.opened || [])[s])),
        pen ? h("span", { class: "penalty" }, fmt(_("penalty %(n)s"), { n: pen })) : null,
          (v.totals || [])[s] !== undefined ? h("span", { class: "total" }, fmt(_("total %(n)s"), { n: v.totals[s] })) : null)),
      this.bubble(s));
  }

  discardPile(state, s) {
    const disc = (state.view.discards || [])[s] || [];
    const top = disc.length ? disc[disc.length - 1] : null;
    const el = top ? tileEl(top, { okey: okeyTile(state), rules: state.rules, small: true }) : null;
    if (el && justDiscarded(state, s)) el.classList.add("just");
    return h("div", { class: "seat-discard", dataset: { seat: String(s) }, title: fmt(_("%(name)s's discard pile"), { name: playerName(state.view, s) }) },
      el || h("span", { class: "empty-discard" }),
      disc.length > 1 ? h("span", { class: "disc-count" }, `×${disc.length}`) : null);
  }
}
