// The first-game hint (table_config.first_game: the player's first game of any kind):
// one line at the top of the table that says what to do in the seat's phase (the
// family's `firstHint`), with a button that dismisses it for good (localStorage). It
// stands inside the table, so the phone's scroll to the table keeps it on screen.
import { _ } from "../i18n.js";
import { matchOver, seated } from "../selectors.js";
import { h } from "./dom.js";

export const HINT_KEY = "okey-first-hint-dismissed";

export class FirstGameHint {
  /** @param {object} ctx {controller, config (first_game), storage (localStorage or null)} */
  constructor(ctx) {
    this.ctx = ctx;
    this.wanted = !!(ctx.config && ctx.config.first_game) && !dismissed(ctx.storage);
    this.text = h("span", { class: "first-hint-text" });
    this.close = h("button", { type: "button", class: "btn small", id: "first-game-hint-close",
      onclick: () => this.dismiss() }, _("Got it"));
    this.el = h("p", { class: "hint first-hint", id: "first-game-hint", role: "status", hidden: true }, this.text, this.close);
  }

  dismiss() {
    this.wanted = false;
    this.el.hidden = true;
    try { if (this.ctx.storage) this.ctx.storage.setItem(HINT_KEY, "1"); } catch (_e) { /* nothing to remember it in */ }
  }

  render(state) {
    const show = this.wanted && !!state.view && seated(state) && !matchOver(state);
    this.el.hidden = !show;
    if (!show) return;
    const text = this.ctx.controller.firstHint(state);
    if (this.text.textContent !== text) this.text.textContent = text;
  }
}

/** Was the hint dismissed on this browser (storage may be missing or refuse)? */
function dismissed(storage) {
  try { return !!storage && storage.getItem(HINT_KEY) === "1"; } catch (_e) { return false; }
}
