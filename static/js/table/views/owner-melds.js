// The table's melds grouped by owner (okey: `views.table` "by-owner"). A meld the
// selected tile fits lights up (gold: an add; dashed blue: a swap for a wild); a tap or
// a drop on it sends the add or swap; melds with a wild get a swap button; a tap on a
// player's area lays the selected pair there (okey17, D-12).
import { _ } from "../i18n.js";
import { okeyTile, started } from "../selectors.js";
import { playerName } from "../text.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { markScroll } from "./scroll-hint.js";
import { justMelds } from "./just.js";

export class OwnerMelds {
  constructor(ctx) {
    this.ctx = ctx;
    this.el = h("div", { id: "table-melds", class: "table-melds", "aria-label": _("Table"), tabindex: "0" });
  }

  render(state) {
    const v = state.view;
    if (!v) return;
    const { gesture, dnd, controller } = this.ctx;
    this.el.hidden = !started(state);
    const melds = v.table || [];
    const fits = controller.fits(state);
    const just = justMelds(state);
    const children = melds.length ? [] : [h("div", { class: "empty-table" }, _("No melds on the table yet."))];
    for (const owner of [...new Set(melds.map((m) => m.owner))]) {
      const area = h("div", { class: "owner-area", dataset: { owner: String(owner) }, onclick: () => gesture({ type: "tap_area", owner }) },
        h("div", { class: "owner-name" }, playerName(v, owner)));
      for (const m of melds.filter((x) => x.owner === owner)) {
        const fit = fits.get(String(m.id));
        const el = h("div", { class: `meld${fit === "add" ? " fits" : fit === "swap" ? " fits-swap" : ""}${just.has(String(m.id)) ? " just" : ""}`,
          dataset: { meldId: String(m.id), owner: String(m.owner), drop: `meld:${m.id}` },
          title: fit === "swap" ? _("Tap to swap the selected tile for the wild") : _("Tap with a tile selected to add it"),
          onclick: (ev) => { ev.stopPropagation(); gesture({ type: "tap_meld", meld: m.id }); } },
        m.tiles.map((t) => tileEl(t, { okey: okeyTile(state), rules: state.rules, small: true })),
        m.tiles.some((t) => t.includes("=")) ? h("button", { type: "button", class: "swap-btn", title: _("Swap: give the tile the wild stands for and take the wild"),
          onclick: (ev) => { ev.stopPropagation(); gesture({ type: "swap", meld: m.id }); } }, "⇄") : null);
        dnd.target(el, { put: (item) => (item.dataset.src || "").startsWith("slot:") && !item.classList.contains("face-down") });
        area.append(el);
      }
      children.push(area);
    }
    this.el.replaceChildren(...children);
    markScroll(this.el);
  }
}
