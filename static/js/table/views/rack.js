// The player's rack: rows of slots (rack.js), each gap group's points, the selected,
// taken, freshly drawn and penalised tiles marked. Tap a tile to select it, tap an
// empty slot to move it there, or drag it (SortableJS, views/dnd.js). Only a seated
// player of a dealt match sees it.
import { _ } from "../i18n.js";
import { okeyTile, rackGroups, seated, started } from "../selectors.js";
import { countTiles } from "../tiles.js";
import { h } from "./dom.js";
import { tileEl } from "./tile.js";

export class RackView {
  constructor(ctx) {
    this.ctx = ctx;
    this.el = h("div", { id: "rack", class: "rack", "aria-label": _("Your rack") });
    this.dealt = null;        // the round whose deal was shown
  }

  /** A round's rack comes in with the deal's motion once (table-screen.css `.dealing`). */
  deal(state) {
    const round = `${state.tableId}:${state.view.round_index}`;
    if (this.dealt === round) return;
    const first = this.dealt === null && (state.view.moves || []).length > 1;   // a reload mid-round: no deal to show
    this.dealt = round;
    if (first || typeof setTimeout !== "function") return;
    this.el.classList.add("dealing");
    setTimeout(() => this.el.classList.remove("dealing"), 400);
  }

  render(state) {
    if (!state.view) return;
    const show = seated(state) && started(state);
    this.el.hidden = !show;
    if (!show || !state.rack) { this.el.replaceChildren(); return; }
    const { rack } = state;
    this.deal(state);
    this.el.style.setProperty("--per-row", String(rack.perRow));
    const penalties = countTiles(state.view.penalty_tiles || []);
    const badge = new Map();
    for (const g of rackGroups(state)) if (g.tiles.length >= 2 && g.info.valid) badge.set(g.slots[0], g.info);
    this.el.replaceChildren(...rack.slots.map((t, i) => {
      const slot = h("div", { class: "slot", dataset: { slot: String(i), drop: `slot:${i}` },
        onclick: () => this.ctx.gesture({ type: "tap_slot", slot: i }) });
      if (t !== null) slot.append(this.tile(state, t, i, penalties));
      const info = badge.get(i);
      if (info) slot.append(h("span", { class: "group-points" }, String(info.points)));
      // a tile laid from the rack this turn may come back (rami); table tiles never do
      this.ctx.dnd.target(slot, { put: (item) => (item.dataset.src || "").startsWith("slot:") || item.classList.contains("from-rack") });
      return slot;
    }));
  }

  tile(state, t, i, penalties) {
    const { rack } = state;
    const src = `slot:${i}`;
    const selected = state.sel.includes(src);
    const el = tileEl(t, { okey: okeyTile(state), rules: state.rules, faceDown: rack.faceDown.has(i) });
    el.dataset.src = src;
    if (selected) el.classList.add("selected");
    if (i === rack.taken) el.classList.add("taken");
    if (state.fresh.includes(i)) el.classList.add("fresh");
    if (penalties.get(t) > 0 && !rack.faceDown.has(i)) { el.classList.add("penalty"); el.title += ` — ${_("discarding it costs a penalty")}`; }
    const tap = (ev) => { ev.stopPropagation(); this.ctx.gesture({ type: "tap_tile", src, at: Date.now() }); };
    el.addEventListener("click", tap);
    el.tabIndex = 0;
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", selected ? "true" : "false");
    el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); tap(ev); } });
    return el;
  }
}
