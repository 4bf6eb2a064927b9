// The centre of the table. Two kinds, named by the family's controller (`views.centre`):
// "discards" (okey: the previous seat's discard to take on the left, indicator, okey and
// pile in the middle, the player's own discard pile as drop zone on the right) and "pile" (rami: the pile only).
import { _ } from "../i18n.js";
import { myTurn, okeyTile, prevSeat, prevTop, seated, started } from "../selectors.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { justDiscarded } from "./just.js";

function pileButton(ctx) {
  return h("button", { id: "pile", type: "button", class: "pile", title: _("Draw a tile from the pile"),
    onclick: () => ctx.gesture({ type: "draw" }) },
  h("span", { class: "pile-label" }, _("Pile")), h("span", { class: "pile-count" }, "–"));
}

function renderPile(pile, state, ctx) {
  pile.querySelector(".pile-count").textContent = String(state.view.pile_count ?? "–");
  pile.classList.toggle("can", !state.blocked && ctx.controller.canDraw(state));
}

/** rami: the pile only. */
export class PileCentre {
  constructor(ctx) {
    this.ctx = ctx;
    this.pile = pileButton(ctx);
    this.el = h("div", { id: "center", class: "center" }, this.pile);
  }

  render(state) {
    if (!state.view) return;
    this.el.hidden = !started(state);
    renderPile(this.pile, state, this.ctx);
  }
}

/** okey: indicator, okey, pile, the discard to take and the player's own discards. */
export class DiscardsCentre {
  constructor(ctx) {
    this.ctx = ctx;
    const tap = (g) => () => ctx.gesture(g);
    this.pile = pileButton(ctx);
    this.indicator = h("div", { id: "indicator" });
    this.okey = h("div", { id: "okey" });
    this.prev = h("div", { id: "prev-discard", class: "discard-slot",
      onclick: (ev) => { if (ev.target.closest(".tile")) ctx.gesture({ type: "take" }); } });
    this.take = h("button", { type: "button", id: "take-discard", class: "btn small",
      title: _("Take the previous player's discard (it must go on the table this turn)"), onclick: tap({ type: "take" }) }, _("Take"));
    this.zone = h("div", { id: "discard-zone", class: "discard-slot drop", dataset: { drop: "discard" },
      title: _("Drop a tile here to discard it"), onclick: tap({ type: "discard" }) });
    this.takeBox = h("div", { class: "discard-box" }, h("div", { class: "mini-label" }, _("To take")), this.prev, this.take);
    this.zoneBox = h("div", { class: "discard-box" }, h("div", { class: "mini-label" }, _("Discard")), this.zone);
    // in turn order the previous seat's discard lies on the player's left and their own
    // on their right, between them and the next seat (RULES.md §1); the desktop grid
    // (table-play.css) moves the two boxes into the table's bottom corners
    this.takeBox.id = "take-box";
    this.zoneBox.id = "discard-box";
    this.el = h("div", { id: "center", class: "center discards" }, this.takeBox,
      h("div", { class: "centre-middle" },
        h("div", { class: "indicator-box" }, h("div", { class: "mini-label" }, _("Indicator")), this.indicator),
        h("div", { class: "indicator-box" }, h("div", { class: "mini-label" }, _("Okey")), this.okey),
        this.pile),
      this.zoneBox);
  }

  render(state) {
    const v = state.view;
    if (!v) return;
    const tile = (t) => tileEl(t, { okey: okeyTile(state), rules: state.rules });
    this.el.hidden = !started(state);
    renderPile(this.pile, state, this.ctx);
    this.indicator.replaceChildren(v.indicator ? tileEl(v.indicator, { rules: state.rules }) : "");
    this.okey.replaceChildren(okeyTile(state) ? tile(okeyTile(state)) : "");
    const top = prevTop(state);
    const topEl = top ? tile(top) : h("span", { class: "empty-discard" });
    if (top && justDiscarded(state, prevSeat(state))) topEl.classList.add("just");
    this.prev.replaceChildren(topEl);
    this.prev.classList.toggle("taking", !!state.pendingTake);
    const canTake = myTurn(state) && v.phase === "draw";
    this.take.textContent = state.pendingTake ? _("Put back") : _("Take");
    this.take.classList.toggle("can", !state.blocked && canTake && !!top);
    this.take.disabled = !canTake && !state.pendingTake;
    const mine = (v.discards || [])[v.seat] || [];
    this.zone.replaceChildren(mine.length ? tile(mine[mine.length - 1]) : h("span", { class: "drop-hint" }, _("Discard here")));
    // spectators see every discard pile by its seat (views/seats.js), and have nothing to take or discard
    this.takeBox.hidden = this.zoneBox.hidden = this.take.hidden = !seated(state);
    if (seated(state)) {
      this.ctx.dnd.target(this.zone, { put: (item) => (item.dataset.src || "").startsWith("slot:") && !item.classList.contains("face-down") });
    }
  }
}
