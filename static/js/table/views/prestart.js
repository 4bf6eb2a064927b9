// The seat list above the table while it is open (templates/games/table.html
// `#prestart`, server-rendered), redrawn from every snapshot so joiners show at once;
// the whole block (start, join, leave) goes away once the match starts. It lives
// outside the table element, so this view has no element of its own.
import { _ } from "../i18n.js";
import { seated } from "../selectors.js";
import { playerName } from "../text.js";
import { h } from "./dom.js";

export class Prestart {
  constructor() { this.el = null; }

  render(state) {
    const v = state.view;
    const box = document.getElementById("prestart");
    if (!v || !box) return;
    if (v.status && v.status !== "open") { box.hidden = true; return; }
    const list = document.getElementById("prestart-seats");
    const players = v.players || [];
    if (list && players.length) {
      list.replaceChildren(...players.map((p, s) => h("li", { class: `${p.empty ? "free" : ""}${s === v.seat ? " me" : ""}`.trim(), dataset: { seat: String(s) } },
        p.empty ? _("free seat") : playerName(v, s), s === v.seat ? ` (${_("you")})` : "")));
    }
    const join = document.getElementById("join-form");
    if (join) join.hidden = !players.some((p) => p.empty) || seated(state);
  }
}
