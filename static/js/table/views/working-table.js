// The working table (rami: `views.table` "working"): in the player's turn tiles move in
// from the rack and between melds by tap or drag, "New meld" starts one; invalid melds
// are outlined red, changed ones green, tiles laid from the rack this turn are marked.
// Out of turn it shows the table as the server has it.
import { _ } from "../i18n.js";
import { RamiTable } from "../rami.js";
import { myTurn, started } from "../selectors.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";
import { markScroll } from "./scroll-hint.js";
import { justPlayed } from "./just.js";

export class WorkingTable {
  constructor(ctx) {
    this.ctx = ctx;
    this.el = h("div", { id: "table-melds", class: "table-melds", "aria-label": _("Table"), tabindex: "0" });
  }

  render(state) {
    if (!state.view) return;
    const { gesture, dnd } = this.ctx;
    this.el.hidden = !started(state);
    const work = state.rami || new RamiTable(state.view.table || []);
    const editable = myTurn(state);
    // the tiles another player's play just laid flash for a moment (the table as the server has it)
    const last = !state.rami || !state.rami.dirty ? justPlayed(state) : null;
    const laid = new Map();
    if (last && last.type === "play") for (const t of last.laid || []) laid.set(t, (laid.get(t) || 0) + 1);
    const children = work.melds.map((m, i) => {
      const info = work.info(state.rules, i);
      const el = h("div", { class: `meld rami-meld${info.valid ? "" : " invalid"}${m.orig ? "" : " changed"}`,
        dataset: { meldIndex: String(i), drop: `meld:${i}` }, onclick: () => gesture({ type: "tap_meld", meld: i }) },
      m.tiles.map((x, k) => {
        const src = `meld:${i}:${k}`;
        // an untouched meld shows its jokers as the server wrote them (J=K7)
        const t = tileEl(m.orig && x.t === "J" ? m.orig[k] : x.t, { rules: state.rules, small: true });
        t.dataset.src = src;
        if (x.fromRack) t.classList.add("from-rack");
        if (m.orig && laid.get(x.t) > 0) { laid.set(x.t, laid.get(x.t) - 1); t.classList.add("just"); }
        if (state.sel.includes(src)) t.classList.add("selected");
        if (editable) {
          t.addEventListener("click", (ev) => { ev.stopPropagation(); gesture({ type: "tap_meld_tile", meld: i, index: k, at: Date.now() }); });
        }
        return t;
      }),
      info.valid ? h("span", { class: "meld-points" }, String(info.points)) : h("span", { class: "meld-bad", title: _("not a valid meld") }, "✗"));
      if (editable) dnd.target(el, { sort: true, put: () => true });
      return el;
    });
    if (!work.melds.length) children.push(h("div", { class: "empty-table" }, _("No melds on the table yet.")));
    if (editable) {
      const nm = h("div", { id: "new-meld", class: "meld new-meld", dataset: { drop: "new-meld" },
        onclick: () => gesture({ type: "tap_new_meld" }) }, _("New meld"));
      dnd.target(nm, { put: () => true });
      children.push(nm);
    }
    this.el.replaceChildren(...children);
    markScroll(this.el);
  }
}
