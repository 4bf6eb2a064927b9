// The other seats around the table (left, across, right; for a spectator every seat in
// turn order, seat 0 at the bottom):
// name with the computer label, who plays now, rack count, opening, penalty, total, and
// (families with discards) the top of each seat's discard pile, drawn after its card.
import { _, fmt, ngettext } from "../i18n.js";
import { okeyTile, roundOver, seatCount, seated, started } from "../selectors.js";
import { openedText, playerLabel, playerName } from "../text.js";
import { avatarEl } from "./avatar.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { justDiscarded } from "./just.js";

export class Seats {
  constructor(ctx) {
    this.ctx = ctx;
    this.el = h("div", { id: "opponents", class: "opponents" });
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
    this.el.dataset.count = String(order.length);
    // where each seat sits around the bottom seat, in turn order: the previous seat
    // (whose discard the bottom player may take) on the left, the next one on the right
    // (RULES.md §1); a spectator's bottom seat is seat 0 (the page's badge says they watch)
    const around = order.length - (sits ? 0 : 1);
    const places = (around === 3 ? ["left", "top", "right"] : around === 2 ? ["left", "right"] : ["top"]).concat(sits ? [] : ["bottom"]);
    const discards = !!this.ctx.controller.seatDiscards && started(state);
    this.el.dataset.discards = discards ? "yes" : "no";
    this.el.replaceChildren(...order.flatMap((s, i) => {
      const card = this.seatCard(state, s);
      card.dataset.pos = places[i];
      if (!discards) return [card];
      // each seat's discard pile lies between it and the next seat in turn order
      // (RULES.md §1): a sibling of the card, so the desktop grid can put it in the gap
      const pile = this.discardPile(state, s);
      pile.dataset.pos = places[i];
      return [card, pile];
    }));
    this.tick(state);
    // before the deal the seat list above the table (#prestart) already names the seats
    const prestart = document.getElementById("prestart");
    this.el.hidden = !started(state) && !!prestart && !prestart.hidden;
  }

  /** The active seat's clock ring follows its move clock (view.deadline, epoch ms). */
  tick(state) {
    const v = state.view;
    const card = v && this.el.querySelector(".seat-card.active");
    if (!card) return;
    const total = (v.move_time || 30) * 1000;
    const left = v.deadline && (!v.deadline_kind || v.deadline_kind === "move") ? Math.max(0, v.deadline - Date.now()) : null;
    card.classList.toggle("timed", left !== null);
    card.classList.toggle("low", left !== null && left <= 10000);
    if (left !== null) card.style.setProperty("--clock", String(Math.min(1, left / total)));
  }

  seatCard(state, s) {
    const v = state.view;
    const p = (v.players || [])[s] || {};
    const dataset = { seat: String(s) };
    if (p.empty) return h("div", { class: "seat-card free", dataset }, h("div", { class: "seat-name" }, _("free seat")));
    const away = p.connected === false;
    const name = h("div", { class: "seat-name" }, avatarEl(p), playerName(v, s), away ? h("span", { class: "away-dot", title: _("disconnected") }, "●") : null);
    if (!started(state)) return h("div", { class: `seat-card${away ? " away" : ""}`, dataset }, name);
    const partner = v.options && v.options.teams && seated(state) && s !== v.seat && (s - v.seat) % 2 === 0;
    const label = partner && !p.left ? _("partner") : playerLabel(v, s);
    const count = (v.rack_counts || [])[s];
    const pen = (v.penalty || [])[s] || 0;
    return h("div", { class: `seat-card${v.turn === s && !roundOver(state) ? " active" : ""}${away ? " away" : ""}`, dataset },
      name,
      label ? h("div", { class: "who-label" }, label) : null,
      h("div", { class: "seat-meta" },
        count !== undefined ? h("span", { class: "rack-count" }, fmt(ngettext("%(n)s tile", "%(n)s tiles", count), { n: count })) : null,
        h("span", { class: `opened o-${(v.opened || [])[s]}` }, openedText((v.opened || [])[s])),
        pen ? h("span", { class: "penalty" }, fmt(_("penalty %(n)s"), { n: pen })) : null,
        (v.totals || [])[s] !== undefined ? h("span", { class: "total" }, fmt(_("total %(n)s"), { n: v.totals[s] })) : null));
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
