// The table head's live parts outside the table element (templates/games/table.html):
// how many are watching (`view.spectators`, `#watching`), so the players see it, and
// the seated player's "Leave the match" (`#leave-match`), shown once the match runs,
// and at the match's end the rematch offer or answer (`#rematch`, `view.rematch_table`).
// Redrawn from every snapshot.
import { fmt, ngettext } from "../i18n.js";

export class Watching {
  constructor() { this.el = null; this.rematch = null; this.home = null; }

  render(state) {
    const v = state.view;
    if (typeof document === "undefined" || !v) return;
    const leave = document.getElementById("leave-match");
    if (leave) leave.hidden = !(v.status === "playing" && v.seat !== null && v.seat !== undefined);
    this.renderRematch(v);
    const box = document.getElementById("watching");
    if (!box || typeof v.spectators !== "number") return;
    const n = v.spectators;
    box.dataset.count = String(n);
    box.hidden = n <= 0;
    box.textContent = fmt(ngettext("%(n)s watching", "%(n)s watching", n), { n });
  }

  /** The rematch block goes into the "Match over" card (it covers the page) once the match
   * is over; the card is redrawn on every render, so the block is kept here and put back. */
  renderRematch(v) {
    if (!this.rematch) {
      this.rematch = document.getElementById("rematch");
      this.home = this.rematch ? this.rematch.parentElement : null;
    }
    const box = this.rematch;
    if (!box) return;
    box.hidden = v.status !== "finished";
    const offered = !!v.rematch_table;
    const offer = box.querySelector("#rematch-offer-form");
    const answer = box.querySelector("#rematch-offered");
    if (offer) offer.hidden = offered;
    if (answer) answer.hidden = !offered;
    const card = document.getElementById("match-over");
    const target = card && !card.hidden && !box.hidden ? card : this.home;
    if (target && box.parentElement !== target) target.append(box);
  }
}
