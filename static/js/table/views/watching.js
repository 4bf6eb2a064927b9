// How many are watching the table (`view.spectators`), in the table's head
// (templates/games/table.html `#watching`, outside the table element), so the players
// see it. Redrawn from every snapshot.
import { fmt, ngettext } from "../i18n.js";

export class Watching {
  constructor() { this.el = null; }

  render(state) {
    const v = state.view;
    const box = typeof document !== "undefined" ? document.getElementById("watching") : null;
    if (!v || !box || typeof v.spectators !== "number") return;
    const n = v.spectators;
    box.dataset.count = String(n);
    box.hidden = n <= 0;
    box.textContent = fmt(ngettext("%(n)s watching", "%(n)s watching", n), { n });
  }
}
