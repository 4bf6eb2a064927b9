// The table head's live parts outside the table element (templates/games/table.html):
// how many are watching (`view.spectators`, `#watching`), so the players see it, and
// the seated player's "Leave the match" (`#leave-match`), shown once the match runs,
// and at the match's end the rematch offer or answer (`#rematch`, `view.rematch_table`).
// Redrawn from every snapshot.
import { fmt, ngettext } from "../i18n.js";

export class Watching {
  constructor() { this.el = null; }

  render(state) {
    const v = state.view;
    const box = typeof document !== "undefined" ? document.getElementById("watching") : null;
    const leave = typeof document !== "undefined" ? document.getElementById("leave-match") : null;
    if (v && leave) leave.hidden = !(v.status === "playing" && v.seat !== null && v.seat !== undefined);
    const rematch = typeof document !== "undefined" ? document.getElementById("rematch") : null;
    if (v && rematch) {
      rematch.hidden = v.status !== "finished";
      const offered = !!v.rematch_table;
      const offer = document.getElementById("rematch-offer-form");
      const answer = document.getElementById("rematch-offered");
      if (offer) offer.hidden = offered;
      if (answer) answer.hidden = !offered;
    }
    if (!v || !box || typeof v.spectators !== "number") return;
    const n = v.spectators;
    box.dataset.count = String(n);
    box.hidden = n <= 0;
    box.textContent = fmt(ngettext("%(n)s watching", "%(n)s watching", n), { n });
  }
}
